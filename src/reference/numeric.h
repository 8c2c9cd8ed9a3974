#pragma once
// The element numerics the interpreter uses live in core (core/numeric.h,
// core/element_math.h), shared with the NPU simulators; this header brings
// them into the reference module's namespace.
#include "core/element_math.h"
#include "core/numeric.h"

namespace npusim::reference {

using core::DType;
/// An error inside a tile operation. The executor adds the kernel, the program
/// id and the source location and rethrows it as core::RuntimeError.
using Fault = core::ElementFault;

using core::bitsOf;
using core::DTypeTag;
using core::erfinv;
using core::floatMax;
using core::floatMin;
using core::floatToInt;
using core::fromBits;
using core::fromFloat32;
using core::intLess;
using core::intToDoubleRoundOdd;
using core::intToFloat;
using core::isFloatType;
using core::isUnsignedType;
using core::nextAfterIn;
using core::roundBFloat16;
using core::roundFloat;
using core::roundFloatTo;
using core::roundHalf;
using core::roundToTF32;
using core::toBits;
using core::visitFloat;
using core::visitInt;
using core::wrapInt;
using core::wrapIntTo;

} // namespace npusim::reference
