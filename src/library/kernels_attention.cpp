// Scaled dot-product attention as a flash-attention kernel.
#include "library/planners.h"

namespace npusim::library::detail {

CallPlan planEfficientAttention(const CallArgs &call, const MachineShape &) {
  fail(call.op(), "not planned yet");
}

} // namespace npusim::library::detail
