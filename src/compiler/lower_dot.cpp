// tl.dot on the systolic arrays (docs/compiler.md "Dot"). The arrays are
// lanes x lanes and weight stationary: B[K, N] is cut into lanes x lanes blocks
// (K on the lanes, the last block zero padded); for each block (kBlock, nBlock)
// the weights are loaded and A[:, kBlock] (K on the lanes) streams through,
// accumulating into C[:, nBlock] (N on the lanes). C starts as a copy of acc.
// Every block of one dot goes to one array (its matmuls accumulate into one C
// without waiting for each other, and the shadow weight buffer hides the next
// block's load); consecutive dots alternate arrays, so dots into different
// accumulators (unrolled K steps) run side by side.
#include "compiler/lowering_internal.h"
#include "compiler/zero_extent.h"

#include <algorithm>
#include <cmath>

namespace npusim::compiler {

void DotLowerer::lowerDot(const ir::Op &op) {
  const ir::Value *a = op.operands[0];
  const ir::Value *b = op.operands[1];
  const ir::Value *acc = op.operands[2];
  const ir::Value *r = op.result();
  if (a->type.rank() != 2)
    cx.unsupported("a batched (rank-3) dot");
  const int64_t k = a->type.shape[1];
  const int64_t n = b->type.shape[1];
  const int aTile = cx.tileOf(a, 1);
  const int bTile = cx.tileOf(b, 0);
  // C is written in place, so it is a tile of its own (never a shared splat).
  const ir::Value *root = nullptr;
  int c = accumulateInPlace(op, root);
  // acc another dot's product that nothing else reads (a K split into
  // pieces, `tl.dot(a1, b1, acc=tl.dot(a0, b0))`): the matmuls go on
  // accumulating into its home, on its array, with no copy.
  int continued = -1;
  if (c < 0 && acc->definingOp && acc->definingOp->code == ir::OpCode::Dot && cx.uses.at(acc->id) == 1 &&
      acc->type == r->type)
    if (const auto it = productArrays.find(cx.idOf(acc)); it != productArrays.end()) {
      const ValueState &st = cx.state(acc);
      if (st.kind == ValueState::Kind::Tile && !st.lazy && !st.broadcastOf && st.tile >= 0 &&
          cx.tiles.at(st.tile).layout.laneAxis == 1) {
        c = st.tile;
        continued = it->second;
      }
    }
  const int64_t lanes = cx.machine.lanes;
  // K blocks where both operands are provably +0 add nothing: no matmul for
  // them (a K tile wider than the masked reduction it covers).
  // Both, so that a NaN or an infinity of one operand met by a zero of the
  // other still reaches the sum as the reference computes it.
  int64_t kValid = k;
  if (const auto aZero = zeroFrom(a, 1), bZero = zeroFrom(b, 0); aZero && bZero)
    kValid = std::clamp<int64_t>(std::max(*aZero, *bZero), 0, k);
  const int64_t kBlocks = (kValid + lanes - 1) / lanes;
  // An accumulator of +0 needs no tile of zeros first: each block's first
  // matmul starts from +0 itself (accumulate = false), which rounds the same.
  // The splat would sit in the in-order vector queue behind the epilogue of
  // the product before (the previous instance's, or another column block's),
  // holding the arrays until that product is stored.
  bool startsFromZero = false;
  if (c < 0 && cx.isLazy(acc) && cx.state(acc).lazy->uniform()) {
    c = cx.newTile(r->type.dtype, r->type.shape, 1, cx.nameOf(r));
    const Scalar &value = cx.state(acc).lazy->base;
    const bool positiveZero = value.isImmediateInt(0) && value.operand.floatValue == 0.0 &&
                              !std::signbit(value.operand.floatValue);
    startsFromZero = positiveZero && kBlocks > 0;
    if (!startsFromZero) {
      npu::Instruction &splat = cx.emit(npu::Opcode::VSplat);
      splat.dsts = {c};
      splat.scalars = {value.operand};
    }
  } else if (c < 0) {
    c = cx.newTile(r->type.dtype, r->type.shape, 1, cx.nameOf(r));
    cx.copyTile(cx.tileOf(acc, 1), c);
  }
  const int64_t nBlocks = (n + lanes - 1) / lanes;
  // A's rows past a clip box's end are zeros: an accumulating matmul
  // leaves them out of the array (a program's ragged last row block streams
  // only its rows).
  const std::optional<npu::ScalarOperand> rowBound = zeroFromClip(aTile, 0);
  // Likewise B's columns past a clip box's end: a block of columns wholly
  // past it holds zeros, and its accumulating matmul and weight load are
  // left out (a ragged last column block).
  const std::optional<npu::ScalarOperand> columnBound = zeroFromClip(bTile, 1);
  const int arrays = std::max(1, cx.machine.systolicArraysPerCore);
  // The dots of one accumulation chain share an array: their matmuls
  // accumulate into the one home without waiting for each other.
  int array = static_cast<int>(dots % arrays);
  if (auto it = root ? chainArrays.find(root->id) : chainArrays.end(); it != chainArrays.end())
    array = it->second;
  else if (continued >= 0)
    array = continued;
  else
    ++dots;
  if (root)
    chainArrays[root->id] = array;
  productArrays[cx.idOf(r)] = array;
  for (int64_t nb = 0; nb < nBlocks; ++nb) {
    for (int64_t kb = 0; kb < kBlocks; ++kb) {
      npu::Instruction &weights = cx.emit(npu::Opcode::MLoadWeights);
      weights.srcs = {bTile};
      weights.array = array;
      weights.kBlock = kb;
      weights.nBlock = nb;
      weights.precision = op.inputPrecision;
      const bool accumulate = !(startsFromZero && kb == 0);
      if (columnBound && accumulate)
        weights.scalars = {*columnBound};
      npu::Instruction &matmul = cx.emit(npu::Opcode::MMatmul);
      matmul.srcs = {aTile};
      matmul.dsts = {c};
      matmul.array = array;
      matmul.kBlock = kb;
      matmul.nBlock = nb;
      matmul.precision = op.inputPrecision;
      matmul.accumulate = accumulate;
      if (accumulate && (rowBound || columnBound))
        matmul.scalars = {rowBound ? *rowBound : npu::ScalarOperand::immediate(a->type.shape[0])};
      if (accumulate && columnBound)
        matmul.scalars.push_back(*columnBound);
    }
  }
  cx.setTile(r, c);
}

std::optional<npu::ScalarOperand> DotLowerer::zeroFromClip(int tile, size_t axis) const {
  if (!cx.out)
    return std::nullopt;
  for (auto it = cx.out->rbegin(); it != cx.out->rend(); ++it) {
    const std::vector<int> written = npu::writtenTiles(*it);
    if (std::find(written.begin(), written.end(), tile) == written.end())
      continue;
    const npu::DmaDescriptor &d = it->dma;
    if (it->opcode != npu::Opcode::DmaLoad || it->dsts.size() != 1 || !d.clipped() || d.clipHigh.size() != 2)
      return std::nullopt;
    const bool zeroFill = !d.fill.isRegister() && d.fill.intValue == 0 && d.fill.floatValue == 0.0 &&
                          !std::signbit(d.fill.floatValue);
    const bool fromZero = !d.clipLow[axis].isRegister() && d.clipLow[axis].intValue <= 0;
    if (!zeroFill || !fromZero)
      return std::nullopt;
    return d.clipHigh[axis];
  }
  return std::nullopt;
}

namespace {

/// A dot whose acc is a zero constant (or a splat of one) and whose result
/// has one use: the form `acc + tl.dot(a, b)` takes in TileIR.
bool zeroAccDot(const ir::Value *v, const std::vector<int> &uses) {
  const ir::Op *dot = v->definingOp;
  if (!dot || dot->code != ir::OpCode::Dot || uses.at(v->id) != 1)
    return false;
  const ir::Op *acc = dot->operands[2]->definingOp;
  if (acc && acc->code == ir::OpCode::Splat)
    acc = acc->operands[0]->definingOp;
  return acc && acc->code == ir::OpCode::Constant && acc->constant.intValue == 0 &&
         acc->constant.floatValue == 0.0;
}

/// The op of `block` that uses `v`, when exactly one does (nested blocks
/// included, as the use count is).
const ir::Op *onlyUser(const ir::Block &block, const ir::Value *v, const std::vector<int> &uses) {
  if (uses.at(v->id) != 1)
    return nullptr;
  for (const auto &op : block.ops)
    for (const ir::Value *operand : op->operands)
      if (operand == v)
        return op.get();
  return nullptr;
}

} // namespace

int DotLowerer::accumulateInPlace(const ir::Op &dot, const ir::Value *&root) {
  const ir::Value *acc = dot.operands[2];
  const ir::Value *d = dot.result();
  root = nullptr;
  if (!cx.isLazy(acc) || !cx.state(acc).lazy->uniform() || !cx.state(acc).lazy->base.isImmediateInt(0) ||
      (core::isFloat(d->type.dtype) && cx.state(acc).lazy->base.operand.floatValue != 0.0) ||
      cx.uses.at(d->id) != 1)
    return -1;
  const ir::Block *block = cx.currentBlock;
  if (!block || !block->parentOp || block->parentOp->code != ir::OpCode::For)
    return -1;
  // The one user: add(x, d) or add(d, x) later in this block.
  const ir::Op *add = onlyUser(*block, d, cx.uses);
  if (!add || add->code != ir::OpCode::Add || add->result()->type != d->type)
    return -1;
  const ir::Value *x = add->operands[0] == d ? add->operands[1] : add->operands[0];
  if (cx.uses.at(x->id) != 1)
    return -1;
  // x is a carried value used only here, or the sum of an earlier dot of this
  // chain (an unrolled loop: x = carried + dot0, then x + dot1, ...), which is
  // already in the carried value's home.
  if (x->ownerBlock == block && x->index != 0) {
    root = x;
  } else if (auto it = accumulatorRoots.find(x->id); it != accumulatorRoots.end()) {
    root = it->second;
  } else {
    return -1;
  }
  // The sum goes on through further `+ dot` of the chain to what the loop
  // carries on in the root's place.
  const ir::Op &yield = *block->ops.back();
  const size_t carried = static_cast<size_t>(root->index - 1);
  if (carried >= yield.operands.size())
    return -1;
  const ir::Value *sum = add->result();
  while (yield.operands[carried] != sum) {
    const ir::Op *next = onlyUser(*block, sum, cx.uses);
    if (!next || next->code != ir::OpCode::Add || next->result()->type != sum->type)
      return -1;
    const ir::Value *other = next->operands[0] == sum ? next->operands[1] : next->operands[0];
    if (other == sum || !zeroAccDot(other, cx.uses))
      return -1;
    sum = next->result();
  }
  const ValueState &home = cx.state(root);
  if (home.kind != ValueState::Kind::Tile || home.lazy || home.tile < 0 ||
      cx.tiles.at(home.tile).layout.laneAxis != 1 || cx.tiles.at(home.tile).layout.shape != d->type.shape)
    return -1;
  // The add is done by the matmuls: its result is the home.
  cx.lowered.insert(add);
  cx.canonical[add->result()->id] = cx.idOf(root);
  accumulatorRoots[add->result()->id] = root;
  return home.tile;
}

} // namespace npusim::compiler
