#pragma once
// Helpers shared by the planners of the library module (internal): typed
// access to a call's arguments with errors that name them, view arithmetic,
// block-size rules, kernel source instantiation and launch building.
#include "core/shape.h"
#include "core/error.h"
#include "core/operator_call.h"
#include "library/library.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npusim::library::detail {

/// Core cycles a loaded DMA run costs the estimates beyond its bytes: a DRAM
/// row opened in its channels (measured on tpuv3-like: a 3x3 512 -> 512
/// convolution's weights take 94 k cycles in runs of 512 bytes and 55 k in
/// runs of 1 KB, 18.4 k of it bandwidth).
inline constexpr double kDmaRunCycles = 4;

/// Throws core::RuntimeError "OP: message".
[[noreturn]] void fail(std::string_view op, const std::string &message);

using core::shapeString;

/// A call's arguments checked against its operator's schema (core/operator_call.h).
using CallArgs = core::CallArgs<TensorRef>;

int64_t numel(const TensorRef &t);
/// Checks rank, that shape and stride agree in length, and that sizes are not negative.
void expectRank(std::string_view op, const TensorRef &t, size_t rank, const std::string &what);
void expectShape(std::string_view op, const TensorRef &t, std::span<const int64_t> shape,
                 const std::string &what);
/// The view broadcast to `shape` (NumPy rules: trailing axes aligned, size-1
/// and missing leading axes get stride 0). Throws when it does not broadcast.
TensorRef broadcastTo(std::string_view op, const TensorRef &t, std::span<const int64_t> shape,
                      const std::string &what);
/// The view with a size-1, stride-0 axis inserted at `axis`.
TensorRef unsqueeze(const TensorRef &t, size_t axis);

/// Kernels index with 32-bit integers, as Inductor's do: throws unless every
/// element offset the view reaches, relative to its own offset, stays within
/// +-2^30 (room for the masked-off rows and columns a tile overhangs by).
void checkIndexRange(std::string_view op, const TensorRef &t, const std::string &what);
/// Throws when `out` may share elements with `input` in a way a tiled kernel
/// cannot honour (every input is read before the output is written in
/// PyTorch's semantics). `sameElementAllowed`: an output element that aliases
/// exactly the input element read for it (addmm into its own bias) is fine.
void checkNoOverlap(std::string_view op, const TensorRef &out, const TensorRef &input,
                    const std::string &what, bool sameElementAllowed);

/// Supported element types of floating-point kernels.
void expectFloat(std::string_view op, const TensorRef &t, const std::string &what);

int64_t ceilDiv(int64_t a, int64_t b);
using core::nextPowerOfTwo; // 1 for n <= 1
/// A power-of-two block for an axis of `size`: the next power of two of the
/// size, at least `lowest` and at most `highest` (both powers of two).
int64_t blockFor(int64_t size, int64_t lowest, int64_t highest);
/// Half the scratchpad in bytes: the tiles of one program must fit in it (the
/// other half double-buffers the next step's loads).
int64_t tileBudgetBytes(const MachineShape &machine);
/// The systolic array width as a block size (a power of two, at least 16).
int64_t laneBlock(const MachineShape &machine);

/// Eight hex digits of the 64-bit FNV-1a hash of `text`: a kernel name's
/// suffix that differs between bodies generated for differently shaped layers.
std::string textDigest(std::string_view text);

/// The text of a kernel source with every "{{KEY}}" replaced.
std::string instantiate(std::string_view text,
                        std::initializer_list<std::pair<std::string_view, std::string>> substitutions);
/// Triton's name of an element type ("fp32").
std::string tritonType(core::DType t);
/// The element type's name as a kernel source spells it in `tl.` casts and
/// constants ("float32", "bfloat16"; Triton's name for the others).
std::string tritonTypeName(core::DType t);

/// The axes of `shape` merged where every view walks them as one (an axis of
/// size 1 dropped), innermost last; strides of each view per merged axis. A
/// view of one element is one axis of size 1.
struct Merged {
  std::vector<int64_t> shape;
  std::vector<std::vector<int64_t>> strides; // [view][axis]
};
Merged merge(const std::vector<int64_t> &shape, const std::vector<std::vector<int64_t>> &strides);

/// A Python literal of `value` for a Triton constant of `dtype` ("1.5",
/// "float(\"inf\")", "7"; bools 0 or 1).
std::string literal(double value, core::DType dtype);

/// Builds one KernelLaunch.
class LaunchBuilder {
public:
  LaunchBuilder(std::string kernelName, std::string source);
  LaunchBuilder &constant(std::string name, int64_t value);
  LaunchBuilder &pointer(const TensorRef &t);
  LaunchBuilder &pointer(int buffer, int64_t elementOffset);
  LaunchBuilder &floatScalar(double value);
  LaunchBuilder &intScalar(int64_t value);
  LaunchBuilder &grid(int64_t x, int64_t y, int64_t z);
  KernelLaunch build() { return std::move(launch_); }

private:
  KernelLaunch launch_;
};

} // namespace npusim::library::detail
