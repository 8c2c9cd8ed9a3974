#include "ir/type.h"

namespace npusim::ir {

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string Type::str() const {
  std::string s = isPointer ? "*" : "";
  s += core::tritonName(dtype);
  if (isTile())
    s += shapeString(shape);
  return s;
}

} // namespace npusim::ir
