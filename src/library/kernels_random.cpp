// randint.low_out on the NPU: every element of the result generated and
// stored, so that drawing random integers costs what it costs a device (a
// counter-based hash per element on the vector unit, then the store).
//
// A GPU's generator (Philox with the capture's seed and offset) cannot be
// reproduced here, and the bundle records what the capture drew (the call's
// `values`, docs/bundle-format.md): the runtime runs this kernel for its
// cycles and then writes the recorded values over its result, so every mode
// computes with the capture's numbers (docs/library-calls.md, "Random
// operators"). The hash is SplitMix64's finaliser on (seed + element index)
// in wrapping int64 arithmetic, reduced to [low, high) by a remainder;
// `FULL` (high - low does not fit in int64) keeps all 64 bits.
#include "library/planners.h"

#include <algorithm>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(N, BLOCK), 1, 1); element e of the result is out_ptr[e * STRIDE].
constexpr std::string_view kRandintSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}(out_ptr: "*{{OUT}}", seed: "i64", low: "i64",
             N: tl.constexpr, STRIDE: tl.constexpr, RANGE: tl.constexpr, FULL: tl.constexpr, BLOCK: tl.constexpr):
    e = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = e.to(tl.int64) + seed
    x = x ^ ((x >> 30) & 17179869183)
    x = x * -4658895280553007687
    x = x ^ ((x >> 27) & 137438953471)
    x = x * -7723592293110705685
    x = x ^ ((x >> 31) & 8589934591)
    if FULL:
        v = x
    else:
        v = low + (x & 9223372036854775807) % RANGE
    tl.store(out_ptr + e * STRIDE, v.to(tl.{{OUT}}), mask=e < N)
)TRITON";

} // namespace

CallPlan planRandint(const CallArgs &call, const MachineShape &machine) {
  const std::string_view op = call.op();
  const int64_t low = call.integer(0, "low"), high = call.integer(1, "high");
  if (low >= high)
    call.fail(1, "high", "must be larger than low (" + std::to_string(low) + " >= " + std::to_string(high) + ")");
  const TensorRef &out = call.out(0);
  if (!core::isInteger(out.dtype) || out.dtype == core::DType::Bool)
    call.fail(0, "out", "has dtype " + tritonType(out.dtype) + "; the NPU kernel writes integers");
  expectShape(op, out, call.integers(2, "size"), "out");
  checkIndexRange(op, out, "out");
  const Merged m = merge(out.shape, {out.stride});
  if (m.shape.size() != 1)
    fail(op, "the result's view " + shapeString(out.shape) + " is not one strided axis; it runs on the host");
  // high - low modulo 2^64; past 2^63 - 1 the range keeps every bit.
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  const bool full = range > static_cast<uint64_t>(INT64_MAX);
  CallPlan plan;
  plan.outputDefined.assign(call.numOuts(), true);
  const int64_t n = numel(out);
  if (n == 0)
    return plan;
  const int64_t block = blockFor(n, 16, std::max<int64_t>(laneBlock(machine), 1024));
  const std::string name = "npusim_randint_" + tritonType(out.dtype);
  LaunchBuilder launch(name, instantiate(kRandintSource, {{"NAME", name}, {"OUT", tritonType(out.dtype)}}));
  // The seed only makes the hash differ between calls of one bundle: the
  // values are overwritten with the capture's.
  launch.pointer(out).intScalar(static_cast<int64_t>(out.buffer) * 1000003 + out.offset).intScalar(low);
  launch.constant("N", n).constant("STRIDE", m.strides[0][0]);
  launch.constant("RANGE", full ? 1 : static_cast<int64_t>(range)).constant("FULL", full ? 1 : 0);
  launch.constant("BLOCK", block);
  launch.grid(ceilDiv(n, block), 1, 1);
  plan.launches.push_back(launch.build());
  return plan;
}

} // namespace npusim::library::detail
