#pragma once
// Types of TileIR values: a scalar or a tile (a dense n-d block with a static
// shape) whose elements are numbers of one dtype or pointers to such numbers.
#include "core/dtype.h"
#include "core/shape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::ir {

using core::DType;
using Shape = std::vector<int64_t>;

int64_t numElements(const Shape &shape);
using core::shapeString; // "[64, 128]"

struct Type {
  /// Element dtype; for a pointer, the dtype it points to.
  DType dtype = DType::Int32;
  bool isPointer = false;
  /// Empty for a scalar.
  Shape shape;

  static Type scalar(DType d) { return Type{d, false, {}}; }
  static Type tile(DType d, Shape s) { return Type{d, false, std::move(s)}; }
  static Type pointer(DType pointee, Shape s = {}) { return Type{pointee, true, std::move(s)}; }

  bool isScalar() const { return shape.empty(); }
  bool isTile() const { return !shape.empty(); }
  int64_t numElements() const { return ir::numElements(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  /// The same element type with another shape.
  Type withShape(Shape s) const { return Type{dtype, isPointer, std::move(s)}; }
  Type element() const { return Type{dtype, isPointer, {}}; }
  bool isFloat() const { return !isPointer && core::isFloat(dtype); }
  bool isIntegerOrBool() const { return !isPointer && core::isInteger(dtype); }
  bool isBool() const { return !isPointer && dtype == DType::Bool; }

  bool operator==(const Type &other) const = default;
  /// "fp32", "*fp16", "i32[64, 128]", "*fp32[128]".
  std::string str() const;
};

} // namespace npusim::ir
