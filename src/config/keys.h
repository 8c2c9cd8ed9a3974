#pragma once
// The one table of configuration keys. Parsing, validation, toYaml and the key
// table of docs/config.md all read it, so a key cannot exist in one and be
// missing from another. Internal to the config module (no YAML here).
#include "config/hardware.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace npusim::config::detail {

enum class ValueKind : uint8_t { Integer, Real, Word };

/// A parsed scalar: Integer keys hold int64_t, Real keys double, Word keys string.
using Value = std::variant<int64_t, double, std::string>;

/// One key of a struct T (HardwareConfig for the top level, DramTiming for the
/// `dram_timing` map and the DRAM set files).
template <class T> struct Field {
  std::string_view key;
  ValueKind kind = ValueKind::Integer;
  std::string_view unit;
  double min = 0, max = 0; // inclusive, numbers only
  std::string_view description;
  /// Further condition on the value, for the documentation ("a power of two").
  std::string_view constraint;
  /// Returns an error text when the value breaks `constraint`, empty otherwise.
  std::function<std::string(const Value &)> check;
  /// Replaces the default column of the docs when the default depends on other keys.
  std::string_view defaultNote;
  std::function<void(T &, const Value &)> set;
  std::function<Value(const T &)> get;
};

std::span<const Field<HardwareConfig>> hardwareFields();
std::span<const Field<DramTiming>> timingFields();

/// The value as YAML writes it (doubles in their shortest exact form).
std::string formatValue(const Value &value);
/// The accepted range of a field, as the docs and the error messages say it.
template <class T> std::string rangeText(const Field<T> &field);

/// The keys that are not fields: `base` and the `dram_timing` map.
inline constexpr std::string_view kBaseKey = "base";
inline constexpr std::string_view kTimingKey = "dram_timing";
inline constexpr std::string_view kDramSetKey = "dram";
inline constexpr std::string_view kDramFreqKey = "dram_freq_mhz";
inline constexpr std::string_view kTckKey = "tck_ps";
inline constexpr std::string_view kNameKey = "name";
/// The DRAM set of a configuration that names none (DramTiming's defaults are its numbers).
inline constexpr std::string_view kDefaultDramSet = "hbm2";

} // namespace npusim::config::detail
