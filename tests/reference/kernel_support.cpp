#include "reference/kernel_support.h"

#include "core/error.h"

namespace npusim::reftest {

Buffer halfBuffer(std::string name, const std::vector<float> &values) {
  std::vector<uint16_t> bits;
  for (float v : values)
    bits.push_back(core::floatToHalf(v));
  return makeBuffer(std::move(name), DType::Float16, bits);
}

Buffer bfloat16Buffer(std::string name, const std::vector<float> &values) {
  std::vector<uint16_t> bits;
  for (float v : values)
    bits.push_back(core::floatToBFloat16(v));
  return makeBuffer(std::move(name), DType::BFloat16, bits);
}

std::vector<float> halfContents(const Buffer &b) {
  std::vector<float> out;
  for (uint16_t h : contents<uint16_t>(b))
    out.push_back(core::halfToFloat(h));
  return out;
}

std::vector<float> bfloat16Contents(const Buffer &b) {
  std::vector<float> out;
  for (uint16_t h : contents<uint16_t>(b))
    out.push_back(core::bfloat16ToFloat(h));
  return out;
}

Argument pointerArg(Buffer &b, int64_t elementOffset) {
  Argument a;
  a.buffer = &b;
  a.elementOffset = elementOffset;
  return a;
}

Argument intArg(int64_t v) {
  Argument a;
  a.scalar.intValue = v;
  return a;
}

Argument floatArg(double v) {
  Argument a;
  a.scalar.floatValue = v;
  return a;
}

Value *pointerPlus(Builder &b, Value *base, Value *offsets) {
  return b.binary(OpCode::AddPtr, b.splat(base, offsets->type.shape), offsets);
}

Buffer runElementwise(const std::vector<Buffer *> &inputs, DType outType, int64_t n,
                      const ElementwiseBody &body) {
  ir::Function fn("elementwise");
  Builder b(fn);
  std::vector<Value *> params;
  for (size_t i = 0; i < inputs.size(); ++i)
    params.push_back(fn.addParameter("in_ptr" + std::to_string(i), Type::pointer(inputs[i]->dtype)));
  Value *out = fn.addParameter("out_ptr", Type::pointer(outType));
  Value *index = b.arange(0, n);
  std::vector<Value *> loaded;
  for (Value *p : params)
    loaded.push_back(b.load(pointerPlus(b, p, index), nullptr, nullptr));
  b.store(pointerPlus(b, out, index), body(b, loaded), nullptr);

  Buffer result;
  result.name = "out_ptr";
  result.dtype = outType;
  result.bytes.assign(static_cast<size_t>(n * core::byteSize(outType)), 0);
  std::vector<Argument> args;
  for (Buffer *in : inputs)
    args.push_back(pointerArg(*in));
  args.push_back(pointerArg(result));
  reference::runLaunch(fn, Grid{}, args);
  return result;
}

Value *TileKernel::offsets(const ir::Shape &shape) {
  const int64_t n = ir::numElements(shape);
  Value *a = b.arange(0, n);
  return shape.size() == 1 ? a : b.reshape(a, shape);
}

Value *TileKernel::input(Buffer &buffer, const ir::Shape &shape) {
  Value *p = fn.addParameter(buffer.name, Type::pointer(buffer.dtype));
  args_.push_back(pointerArg(buffer));
  return b.load(pointerPlus(b, p, offsets(shape)), nullptr, nullptr);
}

void TileKernel::output(Buffer &buffer, Value *value) {
  Value *p = fn.addParameter(buffer.name, Type::pointer(buffer.dtype));
  args_.push_back(pointerArg(buffer));
  if (value->type.isScalar())
    b.store(p, value, nullptr);
  else
    b.store(pointerPlus(b, p, offsets(value->type.shape)), value, nullptr);
}

void TileKernel::run(const reference::LaunchOptions &options) {
  reference::runLaunch(fn, Grid{}, args_, options);
}

ir::Op *reduce(Builder &b, ir::ReduceKind kind, const std::vector<Value *> &xs, int axis,
               ir::NanMode nanMode) {
  std::vector<Type> types;
  for (Value *x : xs) {
    ir::Shape s = x->type.shape;
    s.erase(s.begin() + axis);
    types.push_back(Type::tile(x->type.dtype, s));
  }
  ir::Op *op = b.create(OpCode::Reduce, xs, types);
  op->reduceKind = kind;
  op->axis = axis;
  op->nanMode = nanMode;
  return op;
}

ir::Op *scan(Builder &b, ir::ReduceKind kind, const std::vector<Value *> &xs, int axis, bool reverse) {
  std::vector<Type> types;
  for (Value *x : xs)
    types.push_back(x->type);
  ir::Op *op = b.create(OpCode::Scan, xs, types);
  op->reduceKind = kind;
  op->axis = axis;
  op->reverse = reverse;
  return op;
}

std::string launchError(const ir::Function &fn, Grid grid, std::vector<Argument> args) {
  try {
    reference::runLaunch(fn, grid, args);
  } catch (const core::RuntimeError &e) {
    return e.what();
  }
  return "";
}

} // namespace npusim::reftest
