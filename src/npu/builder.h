#pragma once
// A small helper to put NPU programs together (tests, the compiler): declares
// arguments, registers and tiles (placed one after another in the bank), and
// appends instructions, with Loop and If bodies opened and closed in order.
#include "npu/program.h"

#include <string>
#include <vector>

namespace npusim::npu {

class ProgramBuilder {
public:
  ProgramBuilder(std::string kernelName, int lanes, int64_t spadBytesPerLane);

  int pointerArgument(const std::string &argumentName, DType pointee);
  int scalarArgument(const std::string &argumentName, DType dtype);
  int reg(const std::string &regName, DType dtype);
  /// A tile at the next free bank offset (aligned to 32 bytes).
  int tile(const std::string &tileName, DType dtype, std::vector<int64_t> shape, int laneAxis = 0);
  int tileAt(const std::string &tileName, DType dtype, std::vector<int64_t> shape, int laneAxis,
             int64_t bankOffset);

  /// Appends to the innermost open body; the reference stays valid until the
  /// next append to the same body.
  Instruction &emit(Instruction instruction);

  Instruction &move(int dstReg, ScalarOperand value);
  Instruction &argument(int dstReg, int argumentIndex);
  Instruction &programId(int dstReg, int axis);
  Instruction &numPrograms(int dstReg, int axis);
  Instruction &scalarOp(int dstReg, ElementFunction function, std::vector<ScalarOperand> operands);
  Instruction &scalarLoad(int dstReg, int pointerArgumentIndex, ScalarOperand element);
  Instruction &scalarStore(int pointerArgumentIndex, ScalarOperand element, ScalarOperand value);
  /// Strided DMA: element i of the tile at base + sum_a strides[a] * i[a].
  Instruction &dmaLoad(int dst, int pointerArgumentIndex, ScalarOperand base, std::vector<ScalarOperand> strides,
                       int mask = -1, ScalarOperand fill = {});
  Instruction &dmaStore(int src, int pointerArgumentIndex, ScalarOperand base,
                        std::vector<ScalarOperand> strides, int mask = -1);
  Instruction &dmaGather(int dst, int pointerArgumentIndex, ScalarOperand base, int indexTile, int mask = -1,
                         ScalarOperand fill = {});
  Instruction &dmaScatter(int src, int pointerArgumentIndex, ScalarOperand base, int indexTile, int mask = -1);
  Instruction &dmaAtomic(core::AtomicKind kind, int oldValues, int src, int pointerArgumentIndex,
                         ScalarOperand base, int indexTile, int mask = -1);
  Instruction &splat(int dst, ScalarOperand value);
  /// dst[i] = start + sum_a steps[a] * i[a].
  Instruction &iota(int dst, ScalarOperand start, std::vector<ScalarOperand> steps);
  Instruction &elementwise(int dst, ElementFunction function, std::vector<int> srcs);
  /// VReduce/XReduce/VScan/XScan: `opcode` picks the unit and the form.
  Instruction &reduce(Opcode opcode, core::ReduceKind kind, int axis, std::vector<int> dsts,
                      std::vector<int> srcs);
  Instruction &sort(Opcode opcode, int axis, bool descending, std::vector<int> dsts, std::vector<int> srcs);
  Instruction &broadcast(Opcode opcode, int dst, int src);
  Instruction &relayout(int dst, int src, std::vector<int> permutation = {});
  Instruction &loadWeights(int array, int weights, int64_t kBlock, int64_t nBlock);
  Instruction &matmul(int array, int c, int a, int64_t kBlock, int64_t nBlock, bool accumulate = true);
  Instruction &assertTrue(int conditionTile, std::string message);

  void beginLoop(int inductionReg, ScalarOperand lower, ScalarOperand upper, ScalarOperand step);
  void endLoop();
  void beginIf(ScalarOperand condition);
  void beginElse();
  void endIf();

  /// Sets spadBytesUsed (the highest tile end) and validates.
  Program finish();

  Program &program() { return program_; }

  static ElementFunction function(ElementOp op, DType operandType);
  static ElementFunction function(ElementOp op, DType operandType, DType resultType);
  static ElementFunction math(core::MathFn fn, DType dtype);
  static ElementFunction compare(core::CmpPredicate predicate, DType operandType);

private:
  Program program_;
  std::vector<std::vector<Instruction> *> open_;
  int64_t nextOffset_ = 0;
};

} // namespace npusim::npu
