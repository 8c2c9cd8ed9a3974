#pragma once
// Binding a bundle's dynamic sizes (internal to the runtime module).
#include "runtime/json_node.h"
#include "runtime/sizes.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace npusim::runtime::detail {

/// The value of a size expression (docs/bundle-format.md, "Dynamic sizes":
/// integers, symbols, + - * // %, cdiv/min/max, parentheses; a guard adds one
/// comparison, == != < <= > >=, whose value is 1 or 0). Throws
/// core::InputError "WHERE: expression 'TEXT': ..." on a syntax error, an
/// unknown name, a division by zero or an overflow of 64 bits.
int64_t evaluateSizeExpression(std::string_view text, const std::map<std::string, int64_t> &values,
                               const std::string &where, bool comparison = false);

/// Reads the top-level "symbols" and "guards" of `document` (absent: static
/// sizes, and a non-empty binding is an error), binds each symbol (the
/// binding's value, else the captured one; an unknown name is an error listing
/// the known ones), checks each value against its range and every checked
/// guard (an error names the symbol, its value and the range or guard), then
/// replaces every {"sym": EXPR} in the document by its value and removes the
/// members that hold only at the captured sizes when the binding is another:
/// the steps' "fingerprints" and the outputs' "reference" and "fingerprint"
/// (a step with drawn "values" is an error there), unless "recorded_sizes"
/// holds the binding: then its fingerprints and references replace them.
/// Removes "symbols", "guards" and "recorded_sizes" from the document.
SizeSummary bindSizes(json::Json &document, const std::string &graphFile, const SizeBinding &binding);

} // namespace npusim::runtime::detail
