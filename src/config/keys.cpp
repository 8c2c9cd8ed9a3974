// The key table: every field of HardwareConfig and DramTiming with its YAML key,
// unit, range and meaning. Defaults are the member initialisers of hardware.h
// (read from a default-constructed struct), so they live in one place too.
#include "config/keys.h"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace npusim::config::detail {
namespace {

/// A field reached through `ref`, a generic lambda returning a reference to the member.
template <class T, class Ref>
Field<T> field(std::string_view key, Ref ref, std::string_view unit, double min, double max,
               std::string_view description) {
  using Member = std::remove_cvref_t<decltype(ref(std::declval<T &>()))>;
  Field<T> f;
  f.key = key;
  f.unit = unit;
  f.min = min;
  f.max = max;
  f.description = description;
  if constexpr (std::is_same_v<Member, double>) {
    f.kind = ValueKind::Real;
    f.set = [ref](T &t, const Value &v) { ref(t) = std::get<double>(v); };
    f.get = [ref](const T &t) { return Value(ref(t)); };
  } else if constexpr (std::is_integral_v<Member>) {
    f.kind = ValueKind::Integer;
    f.set = [ref](T &t, const Value &v) { ref(t) = static_cast<Member>(std::get<int64_t>(v)); };
    f.get = [ref](const T &t) { return Value(static_cast<int64_t>(ref(t))); };
  } else {
    static_assert(std::is_same_v<Member, std::string>);
    f.kind = ValueKind::Word;
    f.set = [ref](T &t, const Value &v) { ref(t) = std::get<std::string>(v); };
    f.get = [ref](const T &t) { return Value(ref(t)); };
  }
  return f;
}

template <class T>
Field<T> withConstraint(Field<T> f, std::string_view constraint,
                        std::function<std::string(const Value &)> check) {
  f.constraint = constraint;
  f.check = std::move(check);
  return f;
}

std::string powerOfTwo(const Value &v) {
  const int64_t n = std::get<int64_t>(v);
  return n > 0 && (n & (n - 1)) == 0 ? "" : "must be a power of two";
}

/// A machine name goes into reports, tables and file names: printable, and
/// no spaces at its ends (which a YAML file would not keep).
std::string printableName(const Value &v) {
  const std::string &name = std::get<std::string>(v);
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f)
      return "has a control character";
  if (name.front() == ' ' || name.back() == ' ')
    return "has spaces at its start or end";
  return "";
}

std::string multipleOf64(const Value &v) {
  return std::get<int64_t>(v) % 64 == 0 ? "" : "must be a multiple of 64 (whole 8-byte elements)";
}

/// RoBaRaCoCh and its permutations (parseAddressMapping).
std::string addressMapping(const Value &v) {
  std::string why;
  return parseAddressMapping(std::get<std::string>(v), &why).empty() ? why : "";
}

/// The name of a part registered in the timing module. The timing module
/// resolves it and rejects a name nobody registered; here only its spelling counts.
std::string registeredName(const Value &v) {
  const std::string &s = std::get<std::string>(v);
  bool wellFormed = !s.empty() && s[0] >= 'a' && s[0] <= 'z';
  for (char c : s)
    wellFormed = wellFormed && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  return wellFormed ? "" : "must be a registered name: lower-case letters, digits and '_'";
}

/// An energy table: a built-in name, or a YAML file (read when energy is
/// estimated, by src/energy, which names the file and line of any error).
std::string energyTable(const Value &v) {
  const std::string &s = std::get<std::string>(v);
  if (s.find('/') != std::string::npos || s.ends_with(".yaml") || s.ends_with(".yml"))
    return "";
  for (const std::string &name : energyTableNames())
    if (name == s)
      return "";
  std::string known;
  for (const std::string &name : energyTableNames())
    known += (known.empty() ? "" : ", ") + name;
  return "unknown energy table '" + s + "' (built in: " + known + "; or a path to a .yaml file)";
}

std::vector<Field<HardwareConfig>> makeHardwareFields() {
  using H = HardwareConfig;
  std::vector<Field<H>> f;
  Field<H> name = withConstraint(field<H>(
                                     "name", [](auto &c) -> auto & { return c.name; }, "", 0, 0,
                                     "machine name, shown in reports"),
                                 "printable text, no spaces at its ends", printableName);
  name.defaultNote = "the preset name or the file stem";
  f.push_back(name);
  f.push_back(field<H>(
      "num_cores", [](auto &c) -> auto & { return c.numCores; }, "cores", 1, 1024,
      "NPU cores, each with its own lanes, scratchpad and systolic arrays"));
  f.push_back(field<H>(
      "core_freq_mhz", [](auto &c) -> auto & { return c.coreFreqMhz; }, "MHz", 1, 100000, "core clock"));
  f.push_back(withConstraint(field<H>(
                                 "lanes", [](auto &c) -> auto & { return c.lanes; }, "lanes", 1, 4096,
                                 "vector lanes per core, also the side of each systolic array; a power of "
                                 "two for the butterfly cross-lane unit"),
                             "a power of two", powerOfTwo));
  f.push_back(withConstraint(field<H>(
                                 "vlen_bits", [](auto &c) -> auto & { return c.vlenBits; }, "bits", 64, 65536,
                                 "one lane's vector register"),
                             "a multiple of 64", multipleOf64));
  f.push_back(field<H>(
      "spad_kib_per_lane", [](auto &c) -> auto & { return c.spadKibPerLane; }, "KiB", 1, 1048576,
      "scratchpad per lane"));
  f.push_back(field<H>(
      "systolic_arrays_per_core", [](auto &c) -> auto & { return c.systolicArraysPerCore; }, "arrays", 1, 64,
      "weight-stationary systolic arrays of lanes x lanes per core"));
  f.push_back(field<H>(
      "dma_outstanding_requests", [](auto &c) -> auto & { return c.dmaOutstandingRequests; }, "requests", 1,
      65536, "DRAM requests one core's DMA engine keeps in flight"));
  f.push_back(withConstraint(field<H>(
                                 "dma_request_bytes", [](auto &c) -> auto & { return c.dmaRequestBytes; },
                                 "bytes", 8, 4096, "DRAM request granule of the DMA engine"),
                             "a power of two", powerOfTwo));
  f.push_back(field<H>(
      "cross_lane_latency", [](auto &c) -> auto & { return c.crossLaneLatency; }, "core cycles", 1, 1000,
      "per butterfly stage of the cross-lane unit"));
  f.push_back(field<H>(
      "reduce_minor_across_lanes", [](auto &c) -> auto & { return c.reduceMinorAcrossLanes; }, "", 0, 1,
      "1: a reduction over a tile's last axis that fills the lanes reduces across them (the minor axis "
      "stays on the lanes, as in a TPU's tiled vector memory); 0: the largest kept axis goes on the lanes "
      "and each lane reduces its own row"));
  f.push_back(field<H>(
      "scalar_latency", [](auto &c) -> auto & { return c.scalarLatency; }, "core cycles", 1, 1000,
      "per scalar instruction"));
  f.push_back(field<H>(
      "vector_latency_simple", [](auto &c) -> auto & { return c.vector.simple; }, "core cycles", 1, 1000,
      "issue to result: add, sub, compare, select, logic, min/max, copy, casts"));
  f.push_back(field<H>(
      "vector_latency_multiply", [](auto &c) -> auto & { return c.vector.multiply; }, "core cycles", 1, 1000,
      "issue to result: mul, fma"));
  f.push_back(field<H>(
      "vector_latency_divide", [](auto &c) -> auto & { return c.vector.divide; }, "core cycles", 1, 1000,
      "issue to result: div, rem, sqrt, rsqrt, recip"));
  f.push_back(field<H>(
      "vector_latency_transcendental", [](auto &c) -> auto & { return c.vector.transcendental; },
      "core cycles", 1, 1000, "issue to result: exp, log, tanh, erf, pow, ..."));
  f.push_back(withConstraint(field<H>(
                                 "noc_model", [](auto &c) -> auto & { return c.noc.model; }, "", 0, 0,
                                 "network between the cores and the DRAM channels; built in: crossbar"),
                             "a NoC model registered in src/timing", registeredName));
  f.push_back(field<H>(
      "noc_latency_cycles", [](auto &c) -> auto & { return c.noc.latencyCycles; }, "core cycles", 0, 100000,
      "crossbar from a core to a DRAM channel (one way)"));
  f.push_back(field<H>(
      "noc_bytes_per_cycle_per_port", [](auto &c) -> auto & { return c.noc.bytesPerCyclePerPort; },
      "bytes/core cycle", 1, 65536, "each core port and each channel port"));
  f.push_back(field<H>(
      "noc_ports_per_core", [](auto &c) -> auto & { return c.noc.portsPerCore; }, "ports", 1, 1024,
      "crossbar injection ports of one core"));
  Field<H> set = field<H>(
      kDramSetKey, [](auto &c) -> auto & { return c.dram.timing.name; }, "", 0, 0,
      "DRAM timing set: a file of configs/dram/, built into the binary");
  set.defaultNote = "hbm2";
  f.push_back(set);
  f.push_back(withConstraint(field<H>(
                                 "dram_model", [](auto &c) -> auto & { return c.dram.model; }, "", 0, 0,
                                 "built in: detailed (channels, banks, row buffers, refresh) and "
                                 "fixed_latency (every request takes dram_fixed_latency_cycles)"),
                             "a DRAM model registered in src/timing", registeredName));
  f.push_back(
      withConstraint(field<H>(
                         "dram_scheduler", [](auto &c) -> auto & { return c.dram.scheduler; }, "", 0, 0,
                         "command scheduler of the detailed model's channel controllers; built in: frfcfs"),
                     "a DRAM scheduler registered in src/timing", registeredName));
  f.push_back(field<H>(
      "dram_channels", [](auto &c) -> auto & { return c.dram.channels; }, "channels", 1, 1024,
      "DRAM channels (pseudo-channels for HBM)"));
  f.push_back(field<H>(
      "dram_capacity_gib", [](auto &c) -> auto & { return c.dram.capacityGiB; }, "GiB", 0.001, 1048576,
      "DRAM capacity: an LLM serving scenario's KV cache is this less the model's weights (docs/serving.md)"));
  Field<H> freq = field<H>(
      kDramFreqKey, [](auto &c) -> auto & { return c.dram.freqMhz; }, "MHz", 1, 100000,
      "DRAM clock; sets dram_timing.tck_ps to 1e6 / MHz");
  freq.defaultNote = "the DRAM set's clock, 1e6 / tck_ps";
  f.push_back(freq);
  f.push_back(field<H>(
      "dram_queue_entries", [](auto &c) -> auto & { return c.dram.queueEntries; }, "requests", 1, 65536,
      "read and write queue depth per channel"));
  f.push_back(field<H>(
      "dram_fixed_latency_cycles", [](auto &c) -> auto & { return c.dram.fixedLatencyCycles; }, "DRAM cycles",
      1, 1000000, "latency of every request, fixed_latency model only"));
  f.push_back(
      withConstraint(field<H>(
                         "dram_address_mapping", [](auto &c) -> auto & { return c.dram.addressMapping; }, "",
                         0, 0, "address bits, most to least significant: Row, Bank, Rank, Column, Channel"),
                     "a permutation of Ro Ba Ra Co Ch, optionally with Bg", addressMapping));
  f.push_back(withConstraint(field<H>(
                                 "energy", [](auto &c) -> auto & { return c.energy; }, "", 0, 0,
                                 "energy table (docs/energy.md): a file of configs/energy/, built into the "
                                 "binary, or a path to a YAML file of that format"),
                             "a built-in table (45nm, 7nm) or a path ending in .yaml", energyTable));
  f.push_back(field<H>(
      "energy_clock_gating", [](auto &c) -> auto & { return c.energyClockGating; }, "", 0, 1,
      "1: idle units are clock-gated and draw the table's gated fraction of their static power"));
  return f;
}

std::vector<Field<DramTiming>> makeTimingFields() {
  using D = DramTiming;
  std::vector<Field<D>> f;
  f.push_back(field<D>(
      kTckKey, [](auto &t) -> auto & { return t.tckPs; }, "ps", 100, 100000,
      "DRAM clock period (dram_freq_mhz sets it)"));
  f.push_back(field<D>(
      "burst_cycles", [](auto &t) -> auto & { return t.burstCycles; }, "tCK", 1, 64,
      "nBL: cycles one access occupies the data bus"));
  struct Cycles {
    std::string_view key;
    int D::*member;
    std::string_view description;
  };
  // Timing constraints in tCK, the names of the JEDEC standards and Ramulator.
  static const Cycles kCycles[] = {
      {"n_cl", &D::nCL, "read command to first data (CAS latency)"},
      {"n_rcd_read", &D::nRCDRead, "activate to read"},
      {"n_rcd_write", &D::nRCDWrite, "activate to write"},
      {"n_rp", &D::nRP, "precharge to activate"},
      {"n_ras", &D::nRAS, "activate to precharge"},
      {"n_rc", &D::nRC, "activate to activate, same bank"},
      {"n_wr", &D::nWR, "end of write data to precharge (write recovery)"},
      {"n_rtp", &D::nRTP, "read to precharge"},
      {"n_cwl", &D::nCWL, "write command to first data (CAS write latency)"},
      {"n_ccd_short", &D::nCCDShort, "column to column, different bank groups"},
      {"n_ccd_long", &D::nCCDLong, "column to column, same bank group"},
      {"n_rrd_short", &D::nRRDShort, "activate to activate, different bank groups"},
      {"n_rrd_long", &D::nRRDLong, "activate to activate, same bank group"},
      {"n_wtr_short", &D::nWTRShort, "end of write data to read, different bank groups"},
      {"n_wtr_long", &D::nWTRLong, "end of write data to read, same bank group"},
      {"n_faw", &D::nFAW, "window of four activates"},
      {"n_rfc", &D::nRFC, "refresh to activate (refresh cycle time)"},
      {"n_refi", &D::nREFI, "refresh interval"},
  };
  for (const Cycles &c : kCycles) {
    Field<D> x;
    x.key = c.key;
    x.kind = ValueKind::Integer;
    x.unit = "tCK";
    x.min = 1;
    x.max = 1000000;
    x.description = c.description;
    x.set = [m = c.member](D &t, const Value &v) { t.*m = static_cast<int>(std::get<int64_t>(v)); };
    x.get = [m = c.member](const D &t) { return Value(int64_t{t.*m}); };
    f.push_back(x);
  }
  f.push_back(field<D>(
      "bank_groups", [](auto &t) -> auto & { return t.bankGroups; }, "groups", 1, 64,
      "bank groups per channel"));
  f.push_back(field<D>(
      "banks_per_group", [](auto &t) -> auto & { return t.banksPerGroup; }, "banks", 1, 64,
      "banks per bank group"));
  f.push_back(field<D>(
      "rows", [](auto &t) -> auto & { return t.rows; }, "rows", 1, 16777216, "rows per bank"));
  f.push_back(field<D>(
      "columns", [](auto &t) -> auto & { return t.columns; }, "columns", 1, 65536, "columns per row"));
  f.push_back(withConstraint(field<D>(
                                 "bus_width_bits", [](auto &t) -> auto & { return t.busWidthBits; }, "bits",
                                 8, 1024, "data bus of one channel"),
                             "a power of two", powerOfTwo));
  f.push_back(field<D>(
      "prefetch", [](auto &t) -> auto & { return t.prefetch; }, "", 1, 64,
      "bus widths per access: access bytes = prefetch * bus_width_bits / 8"));
  return f;
}

std::string formatNumber(double v) {
  // Whole numbers as integers (to_chars would write 100000 as 1e+05), the rest in
  // the shortest form that reads back exactly.
  char buffer[64];
  const auto r = std::trunc(v) == v && std::abs(v) < 1e15
                     ? std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, 0)
                     : std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}

} // namespace

std::span<const Field<HardwareConfig>> hardwareFields() {
  static const std::vector<Field<HardwareConfig>> fields = makeHardwareFields();
  return fields;
}

std::span<const Field<DramTiming>> timingFields() {
  static const std::vector<Field<DramTiming>> fields = makeTimingFields();
  return fields;
}

std::string formatValue(const Value &value) {
  if (const auto *i = std::get_if<int64_t>(&value))
    return std::to_string(*i);
  if (const auto *d = std::get_if<double>(&value))
    return formatNumber(*d);
  return std::get<std::string>(value);
}

template <class T> std::string rangeText(const Field<T> &field) {
  std::string text;
  if (field.kind != ValueKind::Word) {
    text = formatNumber(field.min) + " .. " + formatNumber(field.max);
    if (!field.constraint.empty())
      text += ", ";
  }
  text += field.constraint;
  return text.empty() ? "a name" : text;
}

template std::string rangeText(const Field<HardwareConfig> &);
template std::string rangeText(const Field<DramTiming> &);

namespace {
constexpr std::string_view typeName(ValueKind kind) {
  switch (kind) {
  case ValueKind::Integer: return "integer";
  case ValueKind::Real: return "number";
  case ValueKind::Word: return "word";
  }
  return "";
}
} // namespace

} // namespace npusim::config::detail

namespace npusim::config {

std::vector<KeyInfo> configKeys() {
  using namespace detail;
  std::vector<KeyInfo> keys;
  keys.push_back({std::string(kBaseKey), "word", "", "none",
                  "a preset name or a YAML file (relative to this file)",
                  "start from that configuration and override its keys with this file's"});
  const HardwareConfig defaults;
  std::string setNames;
  for (const std::string &name : dramTimingNames())
    setNames += (setNames.empty() ? "" : ", ") + name;
  for (const Field<HardwareConfig> &f : hardwareFields())
    keys.push_back({std::string(f.key), std::string(typeName(f.kind)), std::string(f.unit),
                    f.defaultNote.empty() ? formatValue(f.get(defaults)) : std::string(f.defaultNote),
                    f.key == kDramSetKey ? setNames : rangeText(f), std::string(f.description)});
  keys.push_back({std::string(kTimingKey), "map", "", "none", "the keys dram_timing.* below",
                  "overrides fields of the DRAM timing set"});
  const DramTiming timingDefaults; // the numbers of the hbm2 set
  for (const Field<DramTiming> &f : timingFields()) {
    std::string def = formatValue(f.get(timingDefaults));
    if (f.key == kTckKey)
      def = "the set's; 1e6 / dram_freq_mhz when that is given";
    else
      def = "the set's (hbm2: " + def + ")";
    keys.push_back({std::string(kTimingKey) + "." + std::string(f.key), std::string(typeName(f.kind)),
                    std::string(f.unit), def, rangeText(f), std::string(f.description)});
  }
  return keys;
}

std::string keyTableMarkdown() {
  std::string out = "| key | type | unit | default | range | description |\n"
                    "|---|---|---|---|---|---|\n";
  for (const KeyInfo &k : configKeys())
    out += "| `" + k.key + "` | " + k.type + " | " + (k.unit.empty() ? "-" : k.unit) + " | " +
           k.defaultValue + " | " + k.range + " | " + k.description + " |\n";
  return out;
}

} // namespace npusim::config
