// npusim presets [NAME|FILE.yaml] [--keys]: the hardware presets built into the
// binary, one configuration resolved as YAML, or the table of every key.
#include "cli.h"

#include "config/hardware.h"
#include "core/error.h"

#include <cstdio>
#include <ostream>
#include <string>

namespace npusim::cli {

const char *const kPresetsUsage = R"(usage: npusim presets [NAME | FILE.yaml] [--keys]

Without an argument, lists the hardware presets built into npusim, one line each:
cores, lanes, systolic arrays per core, core clock, peak TFLOP/s of the chip (all
cores, 2 FLOP per MAC) and peak DRAM GB/s. With a preset name or a configuration
file, prints that configuration resolved (base, DRAM set and overrides applied)
as YAML with every key. docs/config.md describes the keys.

options:
  --keys     print the table of every configuration key (Markdown)
  --help     show this help

exit status: 0 success; 1 unknown preset or bad configuration file; 2 the command
line is wrong.
)";

namespace {

constexpr OptionSpec kPresetsOptions[] = {{"--keys", false, false}};

std::string summary(const config::HardwareConfig &c) {
  char text[256];
  std::snprintf(text, sizeof text,
                "%-12s %2d core%s %4d lanes %2d array%s %5.0f MHz %7.1f TFLOP/s %7.1f GB/s DRAM "
                "(%s, %d channel%s at %.0f MHz)",
                c.name.c_str(), c.numCores, c.numCores == 1 ? " " : "s", c.lanes, c.systolicArraysPerCore,
                c.systolicArraysPerCore == 1 ? " " : "s", c.coreFreqMhz, c.peakFlopsPerChip() / 1e12,
                c.dram.peakBytesPerSecond() / 1e9, c.dram.timing.name.c_str(), c.dram.channels,
                c.dram.channels == 1 ? "" : "s", c.dram.freqMhz);
  return text;
}

} // namespace

int runPresets(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kPresetsOptions, "presets");
  if (options.help) {
    out << kPresetsUsage;
    return kExitOk;
  }
  if (options.positionals.size() > 1)
    throw UsageError("expected at most one preset name or file, got " +
                     std::to_string(options.positionals.size()));
  try {
    if (options.has("--keys")) {
      if (!options.positionals.empty())
        throw UsageError("--keys takes no preset");
      out << config::keyTableMarkdown();
      return kExitOk;
    }
    if (!options.positionals.empty()) {
      out << config::toYaml(config::loadConfig(options.positionals.front()));
      return kExitOk;
    }
    const config::HardwareConfig defaults = config::defaultConfig();
    for (const std::string &name : config::presetNames()) {
      const config::HardwareConfig c = config::loadConfig(name);
      out << summary(c) << (c.name == defaults.name ? "  (default)" : "") << "\n";
    }
    return kExitOk;
  } catch (const core::InputError &e) {
    err << "npusim presets: error: " << e.what() << "\n";
    return kExitError;
  }
}

} // namespace npusim::cli
