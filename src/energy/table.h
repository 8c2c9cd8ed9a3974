#pragma once
// An energy table: what each counted event costs in picojoules and what each
// unit draws while powered, in milliwatts, for one technology. Tables are data
// (configs/energy/*.yaml, built into the binary; or any YAML file of the same
// format), chosen by the config's `energy` key. docs/energy.md, "Tables".
#include "core/dtype.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace npusim::energy {

/// Static power of the units, milliwatts, per the instance each names.
struct StaticPower {
  double core = 0;             // per core: clock tree, instruction memory, control
  double scalar = 0;           // per core
  double dma = 0;              // per core
  double vectorPerLane = 0;    // per lane
  double crossLanePerLane = 0; // per lane
  double systolicPerPe = 0;    // per processing element (lanes x lanes per array)
  double spadPerMib = 0;       // per MiB of scratchpad
  double nocPerPort = 0;       // per NoC port: every core port and every channel port
  double dramPerChannel = 0;   // per DRAM channel
};

struct Table {
  std::string name;   // the built-in name, or the file's path
  std::string source; // "configs/energy/7nm.yaml" or the path
  /// pJ per useful MAC by dtype; absent where the table has no figure
  /// (those MACs are counted as unpriced, never charged zero silently).
  std::array<std::optional<double>, core::kNumDTypes> macPj{};
  std::array<double, 4> vectorOpPj{}; // per result element, machine::VectorClass order
  double crossLaneOpPj = 0;
  double scalarInstructionPj = 0;
  double spadReadPjPerByte = 0, spadWritePjPerByte = 0;
  double dmaDescriptorPj = 0;
  double nocFlitHopPj = 0;
  double dramActivatePj = 0;
  double dramReadPjPerBit = 0, dramWritePjPerBit = 0;
  double dramRefreshPj = 0; // per refresh command of one channel
  StaticPower staticMw;
  double gatedIdleFraction = 1.0; // of a gated unit's static power drawn while idle
};

/// The table a config names: a built-in name (config::energyTableNames()) or
/// a path to a YAML file. Throws core::InputError naming the file, the line
/// and the key: unknown or missing keys, values that are not non-negative
/// numbers, a gated fraction outside [0, 1].
Table loadTable(const std::string &nameOrPath);
/// Parses a table's YAML text; `source` names it in errors.
Table parseTable(std::string_view yamlText, const std::string &source, const std::string &name);

} // namespace npusim::energy
