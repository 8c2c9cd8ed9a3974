#pragma once
// Reading a bundle directory (docs/bundle-format.md, version 1).
#include "runtime/bundle.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace npusim::runtime {

/// Reads DIR/graph.json, checks every field (format and version, unknown keys,
/// types, dtypes, dense storage ids, every view inside its storage, launch
/// arguments against the kernel's run-time parameters, kernel and reference
/// files present, fingerprints well-formed) and parses every kernel file.
/// Throws core::InputError whose message starts with the file and the JSON path
/// of the field at fault: "DIR/graph.json: steps[12].args[3].tensor.stride: ...".
/// `sizes` binds a bundle's dynamic sizes (docs/bundle-format.md, "Dynamic
/// sizes"; empty: the captured values); an unknown name, a value outside its
/// range or one failing a guard is an InputError naming it.
Bundle loadBundle(const std::filesystem::path &dir, const SizeBinding &sizes = {});

/// The same from the text of graph.json; kernel and reference files are looked
/// up under `dir`, and `graphFile` is the name messages use.
Bundle parseBundle(std::string_view json, const std::filesystem::path &dir, const std::string &graphFile,
                   const SizeBinding &sizes = {});

/// The text of a graph.json with its dynamic sizes bound as parseBundle binds
/// them (every {"sym": EXPR} replaced by its value, ranges and checked guards
/// enforced, "symbols", "guards" and "recorded_sizes" removed, fingerprints and
/// references kept only where they hold): a graph of static sizes, for callers
/// that supply their own storages (npusim.bind_sizes, then npusim.run_graph).
/// A graph without symbols comes back as it was when `sizes` is empty. Throws
/// core::InputError naming `graphFile` as parseBundle does.
std::string bindGraphSizes(std::string_view json, const std::string &graphFile, const SizeBinding &sizes);

} // namespace npusim::runtime
