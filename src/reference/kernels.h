#pragma once
// Whole-tile operations of the interpreter (internal to the reference module).
// Each takes its operand tiles and writes a result tile that the caller has
// already defined with the result's storage and element count; the switch on
// dtype happens once per call, outside the element loops. Errors are thrown as
// Fault and get their context (kernel, program, location) from the executor.
#include "core/axis_fold.h"
#include "ir/ir.h"
#include "reference/numeric.h"
#include "reference/tile.h"

#include <vector>

namespace npusim::reference {

// ---- elementwise.cpp -------------------------------------------------------
void fillConstant(const ir::Type &type, const ir::ConstantValue &value, Tile &r, int64_t n);
/// Add..Shr, Min, Max on operands of dtype dt (integer ops on integer dtypes).
/// Integer division and remainder by zero throw a Fault when divisionByZeroFaults,
/// else give all bits set (x / 0) and x (x % 0).
void binaryOp(ir::OpCode code, ir::NanMode nanMode, DType dt, const Tile &a, const Tile &b, Tile &r,
              int64_t n, bool divisionByZeroFaults = true);
/// Neg, Not, Abs.
void unaryOp(ir::OpCode code, DType dt, const Tile &a, Tile &r, int64_t n);
/// Compares operands of type t (pointers compare their encodings); r is i1.
void compareOp(ir::CmpPredicate p, const ir::Type &t, const Tile &a, const Tile &b, Tile &r, int64_t n);
void selectOp(const Tile &cond, const Tile &a, const Tile &b, Tile &r, int64_t n);
void castOp(DType from, DType to, const Tile &a, Tile &r, int64_t n);
void bitcastOp(const ir::Type &from, const ir::Type &to, const Tile &a, Tile &r, int64_t n);

// ---- math.cpp --------------------------------------------------------------
/// A math function on operands of float dtype dt (one to three of them).
void mathOp(ir::MathFn fn, DType dt, const std::vector<const Tile *> &operands, Tile &r, int64_t n);

// ---- shape.cpp -------------------------------------------------------------
void splatOp(const Tile &scalar, Tile &r, int64_t n);
/// Stretches size-1 dims of `from` (same rank as `to`, or rank 0) to `to`.
void broadcastOp(const Tile &a, const ir::Shape &from, const ir::Shape &to, Tile &r);
/// Result dim i is operand dim order[i].
void permuteOp(const Tile &a, const ir::Shape &from, const std::vector<int> &order, Tile &r);
/// r = a's elements [start, start + to[axis]) along `axis` (a is row-major over `from`).
void sliceOp(const Tile &a, const ir::Shape &from, int axis, int64_t start, const ir::Shape &to, Tile &r);

// ---- reduce.cpp ------------------------------------------------------------
/// A tile seen as [outer, length, inner] around a reduction axis.
using core::AxisSplit;
using core::splitAxis;

/// Sum, Prod, Max, Min, And, Or, Xor along the axis; r holds split.lanes() values.
void reduceOp(ir::ReduceKind kind, ir::NanMode nanMode, DType dt, const Tile &x, Tile &r,
              const AxisSplit &split);
/// ArgMax/ArgMin of (values, indices) -> (value, index); ties go to the smallest index.
void argReduceOp(bool isMax, ir::NanMode nanMode, DType valueType, const Tile &values, const Tile &indices,
                 Tile &rv, Tile &ri, const AxisSplit &split);
/// Inclusive scan with the builtin kinds; reverse scans from the end.
void scanOp(ir::ReduceKind kind, ir::NanMode nanMode, DType dt, const Tile &x, Tile &r,
            const AxisSplit &split, bool reverse);
/// Sort of keys along the axis through Triton's bitonic network
/// (core/sort_network.h): tl.sort without values; with values (indices that
/// follow their keys), Inductor's sort_with_index, stable or not; elements
/// whose valid (may be null) is false are padding.
void sortOp(DType keyType, const Tile &keys, const Tile *values, const Tile *valid, Tile &rk, Tile *rv,
            const AxisSplit &split, bool descending, bool stable);

/// Copies element k of every lane (x[o, k, in]) into a tile of split.lanes() elements.
void gatherLane(const Tile &x, const AxisSplit &split, int64_t k, Tile &r);
/// The inverse: r[o, k, in] = x[lane].
void scatterLane(const Tile &x, const AxisSplit &split, int64_t k, Tile &r);

// ---- poison.cpp ------------------------------------------------------------
// Propagation of division-by-zero poison (see executor.h): each function marks
// the result elements whose value depends on a poisoned operand element; the
// operand tiles given may or may not be poisoned. A poison byte is 0 or the id
// of the division that caused it. (splatOp, broadcastOp, permuteOp and
// Tile::copyFrom carry poison themselves.)
void orPoison(const Tile &a, Tile &r);
void selectPoison(const Tile &cond, const Tile &a, const Tile &b, Tile &r);
/// r[lane] |= any of x[o, :, in].
void reducePoison(const Tile &x, const AxisSplit &split, Tile &r);
/// r[o, k, in] |= any of x[o, 0..k, in] (x[o, k..end, in] when reverse).
void scanPoison(const Tile &x, const AxisSplit &split, bool reverse, Tile &r);
/// r[o, k, in] |= any of x[o, :, in] (sort moves elements along the line).
void linePoison(const Tile &x, const AxisSplit &split, Tile &r);
/// r[m, n] |= acc[m, n] or any of a[m, :] or any of b[:, n].
void dotPoison(const ir::Type &aType, const ir::Type &bType, const Tile &a, const Tile &b, const Tile &acc,
               Tile &r);
/// Every element of r, with the given division id.
void poisonAll(Tile &r, uint8_t id);

// ---- dot.cpp ---------------------------------------------------------------
struct DotScratch {
  std::vector<float> a, b, c;
  Tile convertedA, convertedB;
};
/// acc + a x b for a[(B,)M,K], b[(B,)K,N], acc[(B,)M,N].
void dotOp(const ir::Type &aType, const ir::Type &bType, const ir::Type &accType,
           ir::InputPrecision precision, const Tile &a, const Tile &b, const Tile &acc, Tile &r,
           DotScratch &scratch);

} // namespace npusim::reference
