#pragma once
// Numbers as the reports, pages and messages print them.
#include <string>

namespace npusim::core {

/// `value` through a printf pattern of one double ("%.1f%%").
std::string printfDouble(const char *pattern, double value);

/// `value` with `digits` digits after the point ("%.*f").
std::string fixedDigits(double value, int digits);

/// `value` to `significant` significant digits, as an ostream prints it
/// (shortest of fixed and scientific).
std::string significantDigits(double value, int significant);

} // namespace npusim::core
