#pragma once
// The hardware description: one NPU (cores, lanes, scratchpad, systolic arrays,
// DMA, vector and cross-lane units), its network on chip and its DRAM. Loaded
// from YAML (a preset name or a file), validated with errors that name the file,
// the line and the key. docs/config.md documents every key with its unit.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::config {

/// Picoseconds of one cycle of a clock of `mhz` megahertz as the simulator
/// steps it: rounded to the nearest picosecond (core and DRAM clocks alike).
inline int64_t clockPeriodPs(double mhz) { return static_cast<int64_t>(1.0e6 / mhz + 0.5); }

/// Timing and organisation of one DRAM standard, in DRAM clock cycles (tCK)
/// unless the name says otherwise. Named sets (hbm2, hbm3, ddr4, ...) are data in
/// configs/dram/; a config may override any field.
struct DramTiming {
  std::string name;         // "hbm2"
  double tckPs = 1000.0;    // DRAM clock period, picoseconds
  int burstCycles = 2;      // nBL: cycles one access occupies the data bus
  int nCL = 14, nRCDRead = 14, nRCDWrite = 12, nRP = 14, nRAS = 34, nRC = 48;
  int nWR = 16, nRTP = 5, nCWL = 5;
  int nCCDShort = 2, nCCDLong = 4, nRRDShort = 4, nRRDLong = 4;
  int nWTRShort = 6, nWTRLong = 8, nFAW = 15;
  int nRFC = 350, nREFI = 3900;
  // Organisation of one channel (a pseudo-channel for HBM).
  int bankGroups = 4, banksPerGroup = 4;
  int64_t rows = 65536;
  int columns = 128;
  int busWidthBits = 64; // data bus of one channel
  int prefetch = 4;      // bytes per access = prefetch * busWidthBits / 8

  int banks() const { return bankGroups * banksPerGroup; }
  int accessBytes() const { return prefetch * busWidthBits / 8; }
  bool operator==(const DramTiming &) const = default;
};

/// A field of the DRAM address mapping (docs/dram.md, "Address mapping").
enum class AddressField : uint8_t { Row, Bank, BankGroup, Rank, Column, Channel };

/// The fields of an address mapping string, most significant first: each of
/// Ro, Ba, Ra, Co and Ch exactly once, and optionally Bg (a bank-group digit
/// apart from the bank's). Empty when malformed, with the reason in `why`.
std::vector<AddressField> parseAddressMapping(std::string_view mapping, std::string *why = nullptr);

struct DramConfig {
  /// The DRAM model and the detailed model's scheduler, by the names they are
  /// registered under in the timing module (docs/dram.md): "detailed" (channels,
  /// banks, row buffers, refresh) or "fixed_latency"; "frfcfs".
  std::string model = "detailed";
  std::string scheduler = "frfcfs";
  int channels = 16;
  /// The DRAM's capacity, GiB: what a serving scenario's KV cache and
  /// weights share (docs/serving.md, "LLM serving"); the timing model does
  /// not read it.
  double capacityGiB = 16.0;
  double freqMhz = 940.0;  // DRAM clock; overrides the timing set's tCK when given
  DramTiming timing;       // the named set, with overrides applied
  int queueEntries = 64;   // read and write queue depth per channel
  int fixedLatencyCycles = 100; // DRAM cycles, FixedLatency model only
  /// Address mapping, most to least significant: Ro(w) Ba(nk, incl. group) Ra(nk) Co(lumn) Ch(annel).
  std::string addressMapping = "RoBaRaCoCh";

  /// Picoseconds of one DRAM clock cycle as the simulator steps it: the
  /// period of freqMhz when it is given (positive), else the timing set's
  /// tCK, rounded to the nearest picosecond (clockPeriodPs). Throws
  /// core::InputError when neither is positive.
  int64_t clockPeriodPs() const;
  /// Peak bandwidth of all channels, bytes per second: each channel moves
  /// accessBytes() every burstCycles cycles of clockPeriodPs(). The one
  /// figure the timing simulator, the rooflines, the cost model and the
  /// mapping search all use.
  double peakBytesPerSecond() const;
  bool operator==(const DramConfig &) const = default;
};

struct NocConfig {
  std::string model = "crossbar"; // registered name of the NoC model (docs/dram.md)
  int latencyCycles = 10;      // core cycles from a core to a DRAM channel and back (one way)
  // Core cycles; each core port and each channel port. 16 ports x 64 B x 940 MHz =
  // 962 GB/s keeps the crossbar above the presets' DRAM peaks (481 and 614 GB/s).
  int bytesPerCyclePerPort = 64;
  int portsPerCore = 16;
  bool operator==(const NocConfig &) const = default;
};

/// Cycles (core clock) from issue to result for each class of vector operation;
/// throughput is one vector register (vlen_bits per lane) per cycle per lane.
struct VectorLatencies {
  int simple = 2;         // add, sub, compare, select, logic, min/max, copy, casts
  int multiply = 3;       // mul, fma
  int divide = 12;        // div, rem, sqrt, rsqrt, recip
  int transcendental = 16; // exp, log, tanh, erf, pow, ...
  bool operator==(const VectorLatencies &) const = default;
};

struct HardwareConfig {
  std::string name;       // preset name or file stem
  std::string source;     // where it was loaded from (file path or "preset:NAME")
  int numCores = 1;
  double coreFreqMhz = 940.0;
  int lanes = 128;        // vector lanes per core; also the systolic array side
  int vlenBits = 256;     // one lane's vector register
  int spadKibPerLane = 128;
  int systolicArraysPerCore = 2;
  // Per core DMA engine. Little's law: ~480 GB/s of HBM2 at ~100 ns loaded latency
  // needs ~48 KB, 750 requests of 64 B, in flight; 512 keeps a stream near peak.
  int dmaOutstandingRequests = 512;
  int dmaRequestBytes = 64;        // DRAM request granule
  int crossLaneLatency = 4;        // core cycles per butterfly stage of the cross-lane unit
  /// 1: a reduction over a tile's last axis that fills the lanes keeps that axis
  /// on the lanes and reduces through the cross-lane unit, as a machine runs it
  /// whose vector memory lays DRAM's minor axis across the lanes (a TPU's tiled
  /// memory: putting rows on the lanes instead is a transpose through that same
  /// unit). 0: the largest kept axis goes on the lanes when it fills them, and
  /// each lane reduces its own elements. Read by the layout pass (docs/compiler.md).
  int reduceMinorAcrossLanes = 0;
  int scalarLatency = 1;           // core cycles per scalar instruction
  VectorLatencies vector;
  NocConfig noc;
  DramConfig dram;
  /// The energy table (docs/energy.md): a name of configs/energy/ (built into
  /// the binary) or a path to a YAML file of the same format.
  std::string energy = "7nm";
  /// 1: an idle unit's clock is gated, so it draws the table's gated fraction
  /// of its static power while idle; 0: every unit draws all of it all the time.
  int energyClockGating = 0;

  int64_t spadBytesPerLane() const { return int64_t{spadKibPerLane} * 1024; }
  /// Elements of a dtype of `elementBytes` bytes one lane processes per cycle.
  int elementsPerLaneVector(int elementBytes) const { return vlenBits / 8 / elementBytes; }
  /// Peak systolic-array throughput of one core, FLOP per second (2 per MAC).
  double peakFlopsPerCore() const;
  /// All cores together.
  double peakFlopsPerChip() const { return peakFlopsPerCore() * numCores; }
  bool operator==(const HardwareConfig &) const = default;
};

/// One YAML key as docs/config.md lists it; all come from the one key table in
/// src/config/keys.cpp. Keys of the `dram_timing` map are written "dram_timing.KEY".
struct KeyInfo {
  std::string key;
  std::string type;         // "integer", "number", "word" or "map"
  std::string unit;         // "" when the value has none
  std::string defaultValue; // as written in YAML, or a sentence when it depends on others
  std::string range;        // the accepted values
  std::string description;
};
std::vector<KeyInfo> configKeys();
/// docs/config.md's key table (Markdown), generated from configKeys().
std::string keyTableMarkdown();

/// The preset names built into the binary (configs/*.yaml at build time).
std::vector<std::string> presetNames();
/// The DRAM timing sets built into the binary (configs/dram/*.yaml at build time).
std::vector<std::string> dramTimingNames();
/// A named DRAM timing set; throws core::InputError for an unknown name.
DramTiming dramTiming(const std::string &name);
/// The energy tables built into the binary (configs/energy/*.yaml at build time).
std::vector<std::string> energyTableNames();
/// The YAML text of a built-in energy table; throws core::InputError for an
/// unknown name (with the nearest name).
std::string_view energyTableText(const std::string &name);
/// The default machine's preset; defaultConfig() loads it.
inline constexpr std::string_view kDefaultPreset = "tpuv3-like";
/// The default machine: the kDefaultPreset preset.
HardwareConfig defaultConfig();
/// A preset name ("tpuv4-like") or a path to a YAML file. Throws core::InputError
/// naming the file, the line and the key on any error.
/// A text without '/' that does not end in .yaml or .yml is a preset name.
HardwareConfig loadConfig(const std::string &nameOrPath);
/// Parses YAML text; `sourceName` is used in error messages, as the default name
/// (its file stem) and as the directory a relative `base:` path starts from.
HardwareConfig parseConfig(std::string_view yamlText, const std::string &sourceName);
/// The resolved configuration as YAML, every key present (written next to results).
std::string toYaml(const HardwareConfig &config);

} // namespace npusim::config
