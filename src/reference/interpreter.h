#pragma once
// The reference interpreter: runs one launch of a TileIR function with Triton's
// semantics, program instance by program instance, over host buffers. It is the
// golden that every compiled NPU program is checked against.
#include "core/dtype.h"
#include "core/error.h"
#include "ir/ir.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::reference {

/// Host memory that a pointer argument addresses: a whole storage, elements of
/// one dtype, little-endian bytes as numpy and PyTorch lay them out.
struct Buffer {
  std::string name; // used in error messages
  core::DType dtype = core::DType::Float32;
  std::vector<uint8_t> bytes;

  int64_t numElements() const { return static_cast<int64_t>(bytes.size()) / core::byteSize(dtype); }
};

/// A scalar argument value; integers (and bool) use intValue, floats floatValue.
struct Scalar {
  int64_t intValue = 0;
  double floatValue = 0.0;
};

/// One argument per ir::Function parameter, in order.
struct Argument {
  Buffer *buffer = nullptr;  // pointer parameters: the storage...
  int64_t elementOffset = 0; // ...and where the pointer points, in elements
  Scalar scalar;             // scalar parameters
};

struct Grid {
  int64_t x = 1, y = 1, z = 1;
};

struct LaunchStats {
  int64_t programs = 0;
  int64_t opsExecuted = 0;
  int64_t elementsProcessed = 0; // sum over executed ops of their result elements
};

/// What integer division or remainder by zero does. Masked-off lanes of
/// Inductor kernels routinely divide by the `other` value 0 of a masked load
/// (`tmp0 // tmp1` with both loaded under xmask), so an immediate error would
/// reject correct kernels.
enum class DivisionByZero : uint8_t {
  /// The quotient is all bits set and the remainder the dividend (RISC-V's
  /// values, as docs/tileir.md defines them), and those elements are poisoned:
  /// a core::RuntimeError names the kernel, the program, the division's source
  /// location and the op that uses one of them at an active element (as a
  /// stored value or address, a load address or mask, an assert condition, a
  /// branch condition or a loop bound). Masked-off lanes never fault.
  ErrorWhenUsed,
  /// A core::RuntimeError at the division itself, whatever uses the result.
  Error,
  /// Never an error: RISC-V's values only (docs/tileir.md §5.4).
  RiscV,
};

/// Options of a launch; the limits keep a hostile kernel or launch from hanging
/// or exhausting memory.
struct LaunchOptions {
  DivisionByZero integerDivisionByZero = DivisionByZero::ErrorWhenUsed;
  /// A For loop that would run more iterations than this is an error.
  int64_t maxLoopIterations = int64_t{1} << 31;
  /// The largest tile (in elements) a value may have; larger ones are an error.
  int64_t maxTileElements = int64_t{1} << 27;
};

/// Runs every program instance of the grid (x fastest). Throws
/// core::RuntimeError naming the kernel, the program id, the source line and,
/// for memory errors, the buffer and element offset; buffers written before
/// the error keep their new contents.
LaunchStats runLaunch(const ir::Function &function, const Grid &grid, std::vector<Argument> &arguments);
LaunchStats runLaunch(const ir::Function &function, const Grid &grid, std::vector<Argument> &arguments,
                      const LaunchOptions &options);

} // namespace npusim::reference
