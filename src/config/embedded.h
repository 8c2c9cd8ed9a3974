#pragma once
// The YAML files built into the binary: configs/*.yaml (presets) and
// configs/dram/*.yaml (DRAM timing sets) and configs/energy/*.yaml (energy
// tables, read by src/energy), generated at build time by
// cmake/embed_configs.cmake so that npusim works from any directory.
#include <span>
#include <string_view>

namespace npusim::config::detail {

struct EmbeddedFile {
  std::string_view name; // file stem: "tpuv3-like", "hbm2"
  std::string_view text;
};

std::span<const EmbeddedFile> embeddedPresets();
std::span<const EmbeddedFile> embeddedDramSets();
std::span<const EmbeddedFile> embeddedEnergyTables();

} // namespace npusim::config::detail
