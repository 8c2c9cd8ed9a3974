#pragma once
// Dynamic sizes of a bundle (docs/bundle-format.md, "Dynamic sizes"): the
// symbols a capture with dynamic shapes records, and the binding of their
// values a run chooses (`npusim run B --set batch=8,seq=2048`).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npusim::runtime {

/// Values chosen for a bundle's size symbols, by name. Empty: the captured values.
using SizeBinding = std::map<std::string, int64_t>;

/// "batch=8,seq=2048" -> {batch: 8, seq: 2048}. Throws core::InputError naming
/// `what` (the option) and the item at fault: a missing '=', a name that is no
/// identifier, a value that is no integer, a name given twice.
SizeBinding parseSizeBinding(const std::string &text, const std::string &what);

/// One symbol of a bundle with dynamic sizes, and the value a load bound it to.
struct SizeSymbol {
  std::string name;
  int64_t captured = 0;           // the value the bundle was captured at
  int64_t minimum = 0;            // the range the compiled graph is valid for
  std::optional<int64_t> maximum; // none: unbounded
  int64_t value = 0;              // the bound value
};

/// What a load of a bundle with dynamic sizes bound and checked.
struct SizeSummary {
  std::vector<SizeSymbol> symbols; // empty: a bundle of static sizes
  /// Every symbol at its captured value: the bundle's fingerprints and
  /// reference outputs apply; otherwise, unless `recorded`, they were dropped
  /// at load.
  bool atCaptured = true;
  /// Not the captured sizes, but sizes the capture also recorded (graph.json's
  /// "recorded_sizes"): the device's fingerprints and references of these
  /// sizes replaced the captured ones, and verification uses them.
  bool recorded = false;
  /// Whether fingerprints and reference outputs apply: at the captured or a
  /// recorded binding.
  bool hasFingerprints() const { return atCaptured || recorded; }
  int64_t guardsChecked = 0;
  /// Guards recorded in a form npusim cannot evaluate ("checked": false), as
  /// written: reported, never silently taken as holding.
  std::vector<std::string> guardsNotChecked;
  /// "batch=8, seq=2048" (empty for static sizes).
  std::string describe() const;
};

} // namespace npusim::runtime
