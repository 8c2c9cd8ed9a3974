// libFuzzer entry for the bundle loader: any bytes as graph.json must either
// load or raise core::InputError naming graph.json (a kernel file the bytes
// point at may also fail to parse, with a located core::CompileError). Kernel
// and reference files are looked up in a real bundle (NPUSIM_FUZZ_BUNDLE_DIR),
// so that valid-looking graphs reach the checks behind the file look-ups.
// Anything else escaping (another exception, a crash, a hang, a sanitizer
// report) is a bug.
#include "runtime/loader.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  const std::string graphFile = "fuzz/graph.json";
  try {
    npusim::runtime::Bundle bundle = npusim::runtime::parseBundle(text, NPUSIM_FUZZ_BUNDLE_DIR, graphFile);
    (void)bundle;
  } catch (const npusim::core::InputError &error) {
    if (std::string_view(error.what()).rfind(graphFile, 0) != 0)
      __builtin_trap();
  } catch (const npusim::core::CompileError &error) {
    if (error.where().line < 0 || error.where().col < 0)
      __builtin_trap();
  }
  return 0;
}
