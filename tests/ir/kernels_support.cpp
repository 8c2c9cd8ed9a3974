#include "ir/kernels_support.h"

namespace npusim::ir::testing {

std::unique_ptr<Function> pointwiseKernel() {
  auto f = std::make_unique<Function>("triton_poi_fused_add_0");
  Value *in = f->addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out = f->addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *xnumel = f->addParameter("xnumel", Type::scalar(DType::Int32));
  Builder b(*f);
  Value *pid = b.programId(0);
  Value *xoffset = b.binary(OpCode::Mul, pid, b.constantInt(DType::Int32, 128));
  xoffset->nameHint = "xoffset";
  Value *range = b.arange(0, 128);
  Value *xindex = b.binary(OpCode::Add, b.splat(xoffset, {128}), range);
  xindex->nameHint = "xindex";
  Value *xmask = b.cmp(CmpPredicate::Lt, xindex, b.splat(xnumel, {128}));
  xmask->nameHint = "xmask";
  Value *ptr = b.binary(OpCode::AddPtr, b.splat(in, {128}), xindex);
  Value *other = b.constantFloat(DType::Float32, 0.0, {128});
  Value *tmp0 = b.load(ptr, xmask, other);
  tmp0->nameHint = "tmp0";
  Value *tmp2 = b.binary(OpCode::Add, tmp0, b.constantFloat(DType::Float32, 1.0, {128}));
  tmp2->nameHint = "tmp2";
  b.store(b.binary(OpCode::AddPtr, b.splat(out, {128}), xindex), tmp2, xmask);
  return f;
}

std::unique_ptr<Function> forKernel() {
  auto f = std::make_unique<Function>("triton_red_fused_sum_0");
  Value *in = f->addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out = f->addParameter("out_ptr0", Type::pointer(DType::Float32));
  Value *rnumel = f->addParameter("rnumel", Type::scalar(DType::Int32));
  Builder b(*f);
  const Type acc = Type::tile(DType::Float32, {8, 16});
  const Type i32 = Type::scalar(DType::Int32);
  Value *acc0 = b.constantFloat(DType::Float32, 0.0, {8, 16});
  Value *lo = b.constantInt(DType::Int32, 0);
  Value *step = b.constantInt(DType::Int32, 16);
  Value *count0 = b.constantInt(DType::Int32, 0);
  Op *loop = b.create(OpCode::For, {lo, rnumel, step, acc0, count0}, {acc, i32});
  Block *body = b.addRegion(loop, {i32, acc, i32});
  body->arguments[0]->nameHint = "r0_offset";
  body->arguments[1]->nameHint = "acc";
  Block *outer = b.insertionBlock();
  b.setInsertionBlock(body);
  Value *r = b.broadcast(b.expandDims(b.arange(0, 16), 0), {8, 16});
  Value *index = b.binary(OpCode::Add, b.splat(body->arguments[0], {8, 16}), r);
  Value *x = b.load(b.binary(OpCode::AddPtr, b.splat(in, {8, 16}), index), nullptr, nullptr);
  Value *sum = b.binary(OpCode::Add, body->arguments[1], x);
  Value *count = b.binary(OpCode::Add, body->arguments[2], b.constantInt(DType::Int32, 1));
  b.yield({sum, count});
  b.setInsertionBlock(outer);
  Op *reduce = b.create(OpCode::Reduce, {loop->result(0)}, {Type::tile(DType::Float32, {8})});
  reduce->axis = 1;
  reduce->reduceKind = ReduceKind::Sum;
  Value *outRow = b.splat(out, {8});
  b.store(b.binary(OpCode::AddPtr, outRow, b.arange(0, 8)), reduce->result(), nullptr);
  b.store(out, b.cast(loop->result(1), DType::Float32), nullptr);
  return f;
}

std::unique_ptr<Function> ifKernel() {
  auto f = std::make_unique<Function>("triton_poi_if_0");
  Value *in = f->addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out = f->addParameter("out_ptr0", Type::pointer(DType::Float32));
  Builder b(*f);
  Value *pid = b.programId(0);
  Value *first = b.cmp(CmpPredicate::Eq, pid, b.constantInt(DType::Int32, 0));
  Op *branch = b.create(OpCode::If, {first}, {Type::scalar(DType::Float32)});
  Block *thenBlock = b.addRegion(branch, {});
  Block *elseBlock = b.addRegion(branch, {});
  b.setInsertionBlock(thenBlock);
  b.yield({b.constantFloat(DType::Float32, 1.5)});
  b.setInsertionBlock(elseBlock);
  b.yield({b.load(in, nullptr, nullptr)});
  b.setInsertionBlock(&f->body());
  b.store(out, branch->result(), nullptr);
  return f;
}

std::unique_ptr<Function> combineReduceKernel() {
  auto f = std::make_unique<Function>("triton_per_max_with_index_0");
  Value *in = f->addParameter("in_ptr0", Type::pointer(DType::Float32));
  Value *out = f->addParameter("out_ptr0", Type::pointer(DType::Int32));
  Builder b(*f);
  Value *x = b.load(b.splat(in, {4, 8}), nullptr, nullptr);
  Value *index = b.broadcast(b.expandDims(b.arange(0, 8), 0), {4, 8});
  const Type f32 = Type::scalar(DType::Float32);
  const Type i32 = Type::scalar(DType::Int32);
  Op *reduce =
      b.create(OpCode::Reduce, {x, index}, {Type::tile(DType::Float32, {4}), Type::tile(DType::Int32, {4})});
  reduce->axis = 1;
  reduce->reduceKind = ReduceKind::Combine;
  Block *combine = b.addRegion(reduce, {f32, i32, f32, i32});
  b.setInsertionBlock(combine);
  const auto &a = combine->arguments;
  Value *greater = b.cmp(CmpPredicate::Gt, a[0], a[2]);
  b.yield({b.select(greater, a[0], a[2]), b.select(greater, a[1], a[3])});
  b.setInsertionBlock(&f->body());
  b.store(b.splat(out, {4}), reduce->result(1), nullptr);
  return f;
}

std::unique_ptr<Function> dotKernel() {
  auto f = std::make_unique<Function>("triton_tem_fused_mm_0");
  Value *aPtr = f->addParameter("arg_A", Type::pointer(DType::Float16));
  Value *bPtr = f->addParameter("arg_B", Type::pointer(DType::Float16));
  Value *cPtr = f->addParameter("out_ptr0", Type::pointer(DType::Float32));
  Builder b(*f);
  Value *a = b.load(b.splat(aPtr, {16, 32}), nullptr, nullptr);
  Value *bb = b.load(b.splat(bPtr, {32, 8}), nullptr, nullptr);
  Value *acc = b.constantFloat(DType::Float32, 0.0, {16, 8});
  Op *dot = b.create(OpCode::Dot, {a, bb, acc}, {acc->type});
  dot->inputPrecision = InputPrecision::IEEE;
  b.store(b.splat(cPtr, {16, 8}), dot->result(), nullptr);
  return f;
}

} // namespace npusim::ir::testing
