#include "core/text_format.h"

#include <cstdio>
#include <sstream>

namespace npusim::core {

std::string printfDouble(const char *pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string fixedDigits(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string significantDigits(double value, int significant) {
  std::ostringstream s;
  s.precision(significant);
  s << value;
  return s.str();
}

} // namespace npusim::core
