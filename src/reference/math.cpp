// Math functions (tl.math / libdevice), computed by core::mathValues (shared
// with the NPU simulators): fp32 uses the float versions of the C library
// functions, fp64 the double ones; fp16 and bf16 compute in fp32 and round once.
#include "reference/kernels.h"

#include <string>

namespace npusim::reference {

void mathOp(ir::MathFn fn, DType dt, const std::vector<const Tile *> &operands, Tile &r, int64_t n) {
  if (static_cast<int>(operands.size()) != ir::arity(fn))
    throw Fault("internal: math." + std::string(ir::name(fn)) + " arity");
  const double *x = operands[0]->f();
  const double *y = operands.size() > 1 ? operands[1]->f() : nullptr;
  const double *z = operands.size() > 2 ? operands[2]->f() : nullptr;
  if (ir::producesBool(fn))
    core::mathValues(fn, dt, x, y, z, nullptr, r.i(), n);
  else
    core::mathValues(fn, dt, x, y, z, r.f(), nullptr, n);
}

} // namespace npusim::reference
