#pragma once
// Helpers for the reference interpreter tests: host buffers from typed vectors,
// and small kernels built directly with ir::Builder.
#include "core/float16.h"
#include "ir/builder.h"
#include "reference/interpreter.h"

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace npusim::reftest {

using core::DType;
using ir::Builder;
using ir::OpCode;
using ir::Type;
using ir::Value;
using reference::Argument;
using reference::Buffer;
using reference::Grid;

/// A buffer holding `values` as raw elements of dtype (T must have its size).
template <class T> Buffer makeBuffer(std::string name, DType dtype, const std::vector<T> &values) {
  Buffer b;
  b.name = std::move(name);
  b.dtype = dtype;
  b.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

template <class T> std::vector<T> contents(const Buffer &b) {
  std::vector<T> out(b.bytes.size() / sizeof(T));
  if (!out.empty())
    std::memcpy(out.data(), b.bytes.data(), b.bytes.size());
  return out;
}

Buffer halfBuffer(std::string name, const std::vector<float> &values);
Buffer bfloat16Buffer(std::string name, const std::vector<float> &values);
std::vector<float> halfContents(const Buffer &b);
std::vector<float> bfloat16Contents(const Buffer &b);

Argument pointerArg(Buffer &b, int64_t elementOffset = 0);
Argument intArg(int64_t v);
Argument floatArg(double v);

/// `base + offsets` for a scalar pointer base and an integer tile of offsets.
Value *pointerPlus(Builder &b, Value *base, Value *offsets);

/// A one-program kernel over n elements: loads every input i at [0, n), calls
/// body(builder, loaded values), stores its result to the last parameter
/// (out_ptr of outType). Returns the output buffer.
using ElementwiseBody = std::function<Value *(Builder &, const std::vector<Value *> &)>;
Buffer runElementwise(const std::vector<Buffer *> &inputs, DType outType, int64_t n,
                      const ElementwiseBody &body);

/// A one-program kernel over whole tiles: input() adds a pointer parameter and
/// loads a contiguous row-major tile of the given shape from it, output() adds
/// one and stores a tile (or scalar) to it; run() launches with one program.
class TileKernel {
public:
  explicit TileKernel(std::string name = "tile_kernel") : fn(std::move(name)), b(fn) {}
  Value *input(Buffer &buffer, const ir::Shape &shape);
  void output(Buffer &buffer, Value *value);
  /// Contiguous element offsets of a tile of this shape.
  Value *offsets(const ir::Shape &shape);
  void run(const reference::LaunchOptions &options = {});

  ir::Function fn;
  Builder b;

private:
  std::vector<Argument> args_;
};

/// Appends an op with the given attributes (Reduce/Scan/Sort).
ir::Op *reduce(Builder &b, ir::ReduceKind kind, const std::vector<Value *> &xs, int axis,
               ir::NanMode nanMode = ir::NanMode::Ignore);
ir::Op *scan(Builder &b, ir::ReduceKind kind, const std::vector<Value *> &xs, int axis, bool reverse);

/// The message of the core::RuntimeError that running fn throws ("" if none).
std::string launchError(const ir::Function &fn, Grid grid, std::vector<Argument> args);

} // namespace npusim::reftest
