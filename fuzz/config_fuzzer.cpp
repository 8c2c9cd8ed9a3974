// libFuzzer entry for the hardware-description loader: any bytes as a YAML
// config must either give a configuration or raise core::InputError naming the
// file; bytes that are not UTF-8, control characters YAML does not allow, and
// a second YAML document always raise it
// (seeds: fuzz/corpus/config). Anything else escaping (another exception, a crash, a hang, a
// sanitizer report) is a bug.
#include "config/hardware.h"
#include "core/error.h"
#include "core/text_input.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  const std::string file = "fuzz.yaml";
  try {
    const npusim::config::HardwareConfig config = npusim::config::parseConfig(text, file);
    // A configuration is UTF-8 text of YAML's printable characters
    // (fuzz/corpus/config has the cases).
    try {
      npusim::core::checkYamlCharacters(text, file);
    } catch (const npusim::core::InputError &) {
      __builtin_trap();
    }
    // What loads must write back to YAML that loads to the same machine.
    if (!(npusim::config::parseConfig(npusim::config::toYaml(config), file) == config))
      __builtin_trap();
  } catch (const npusim::core::InputError &error) {
    if (std::string_view(error.what()).rfind(file, 0) != 0)
      __builtin_trap();
  }
  return 0;
}
