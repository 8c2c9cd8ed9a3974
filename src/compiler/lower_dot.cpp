// tl.dot on the systolic arrays (docs/compiler.md "Dot"). The arrays are
// lanes x lanes and weight stationary: B[K, N] is cut into lanes x lanes blocks
// (K on the lanes, the last block zero padded); for each block (kBlock, nBlock)
// the weights are loaded and A[:, kBlock] (K on the lanes) streams through,
// accumulating into C[:, nBlock] (N on the lanes). C starts as a copy of acc.
// Arrays alternate so that loading the next block overlaps the current matmul.
#include "compiler/compiler_internal.h"

#include <algorithm>

namespace npusim::compiler {

void Lowering::lowerDot(const ir::Op &op) {
  const ir::Value *a = op.operands[0];
  const ir::Value *b = op.operands[1];
  const ir::Value *acc = op.operands[2];
  const ir::Value *r = op.result();
  if (a->type.rank() != 2)
    unsupported("a batched (rank-3) dot");
  const int64_t k = a->type.shape[1];
  const int64_t n = b->type.shape[1];
  const int aTile = tileOf(a, 1);
  const int bTile = tileOf(b, 0);
  int c = -1;
  if (isLazy(acc) && state(acc).lazy->uniform()) {
    c = materializeLazy(*state(acc).lazy, r->type.dtype, r->type.shape, 1, nameOf(r));
  } else {
    c = newTile(r->type.dtype, r->type.shape, 1, nameOf(r));
    copyTile(tileOf(acc, 1), c);
  }
  const int64_t lanes = machine.lanes;
  const int64_t kBlocks = (k + lanes - 1) / lanes;
  const int64_t nBlocks = (n + lanes - 1) / lanes;
  const int arrays = std::max(1, machine.systolicArraysPerCore);
  int64_t block = 0;
  for (int64_t nb = 0; nb < nBlocks; ++nb) {
    for (int64_t kb = 0; kb < kBlocks; ++kb, ++block) {
      const int array = static_cast<int>(block % arrays);
      npu::Instruction &weights = emit(npu::Opcode::MLoadWeights);
      weights.srcs = {bTile};
      weights.array = array;
      weights.kBlock = kb;
      weights.nBlock = nb;
      weights.precision = op.inputPrecision;
      npu::Instruction &matmul = emit(npu::Opcode::MMatmul);
      matmul.srcs = {aTile};
      matmul.dsts = {c};
      matmul.array = array;
      matmul.kBlock = kb;
      matmul.nBlock = nb;
      matmul.precision = op.inputPrecision;
      matmul.accumulate = true;
    }
  }
  setTile(r, c);
}

} // namespace npusim::compiler
