// libFuzzer entry for `npusim check-kernel`: any bytes must either lower to
// verified TileIR or raise core::CompileError at a position inside the file.
// Anything else escaping (another exception, a crash, a hang, a sanitizer
// report) is a bug.
#include "triton/frontend.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view source(reinterpret_cast<const char *>(data), size);
  try {
    npusim::triton::KernelFile file = npusim::triton::loadKernel(source, "fuzz.py");
    auto function = npusim::triton::lowerKernel(file, npusim::triton::defaultConstexprs(file.metadata));
    if (function->numOps() < 0)
      __builtin_trap();
  } catch (const npusim::core::CompileError &error) {
    if (error.where().file != "fuzz.py" || error.where().line < 0 || error.where().col < 0)
      __builtin_trap();
  }
  return 0;
}
