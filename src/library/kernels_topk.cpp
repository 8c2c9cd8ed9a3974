// aten.topk as an iterative-maximum kernel.
#include "library/planners.h"

namespace npusim::library::detail {

CallPlan planTopk(const CallArgs &call, const MachineShape &) {
  fail(call.op(), "not planned yet");
}

} // namespace npusim::library::detail
