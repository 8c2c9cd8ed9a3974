// The resolved configuration as YAML (every key, in the key table's order) and
// the peak numbers derived from it.
#include "config/hardware.h"
#include "config/keys.h"
#include "core/error.h"

#include <cmath>
#include <string>
#include <variant>

namespace npusim::config {

int64_t DramConfig::clockPeriodPs() const {
  if (freqMhz > 0.0)
    return config::clockPeriodPs(freqMhz);
  if (timing.tckPs <= 0.0)
    throw core::InputError("dram: neither freqMhz nor timing.tckPs is positive");
  return std::llround(timing.tckPs);
}

double DramConfig::peakBytesPerSecond() const {
  // Each channel moves one access (prefetch * bus width) per burstCycles DRAM cycles.
  const double secondsPerAccess =
      static_cast<double>(timing.burstCycles) * static_cast<double>(clockPeriodPs()) * 1e-12;
  return channels * (timing.accessBytes() / secondsPerAccess);
}

double HardwareConfig::peakFlopsPerCore() const {
  // Every array is lanes x lanes MACs, each MAC 2 FLOP per core cycle.
  const double macsPerCycle = double(systolicArraysPerCore) * lanes * lanes;
  return macsPerCycle * 2.0 * coreFreqMhz * 1e6;
}

namespace {

/// A word as a YAML scalar that reads back as the same text: plain where it
/// is made of characters no YAML syntax uses (a preset's words, a name like
/// tpuv3-like), double-quoted otherwise, so that a name holding ": ", " #",
/// quotes or line breaks does not turn into a comment or another key.
std::string yamlWord(const std::string &word) {
  auto plainSafe = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == '/' || c == '+';
  };
  // (The loader reads a word key's scalar as text, so words YAML would read
  // as numbers or booleans stay plain.)
  bool plain = !word.empty() && word.front() != '-';
  for (unsigned char c : word)
    plain = plain && plainSafe(c);
  if (plain)
    return word;
  std::string quoted = "\"";
  for (unsigned char c : word) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c == '\n') {
      quoted += "\\n";
    } else if (c == '\t') {
      quoted += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      quoted += "\\x";
      quoted += kHex[c >> 4];
      quoted += kHex[c & 15];
    } else {
      quoted += static_cast<char>(c); // UTF-8 bytes pass as they are
    }
  }
  return quoted + "\"";
}

template <class T> std::string yamlValue(const T &value) {
  if (const auto *word = std::get_if<std::string>(&value))
    return yamlWord(*word);
  return detail::formatValue(value);
}

std::string line(std::string_view key, const std::string &value, std::string_view unit,
                 std::string_view description, std::string_view indent) {
  std::string text = std::string(indent) + std::string(key) + ": " + value;
  const size_t column = 34;
  text.append(text.size() < column ? column - text.size() : 1, ' ');
  text += "# ";
  if (!unit.empty())
    text += std::string(unit) + ": ";
  return text + std::string(description) + "\n";
}

} // namespace

std::string toYaml(const HardwareConfig &config) {
  std::string out = "# npusim hardware configuration, resolved from " + config.source +
                    "\n# (docs/config.md describes every key)\n";
  for (const detail::Field<HardwareConfig> &f : detail::hardwareFields())
    out += line(f.key, yamlValue(f.get(config)), f.unit, f.description, "");
  out += std::string(detail::kTimingKey) + ":                      # the DRAM set's fields as used\n";
  for (const detail::Field<DramTiming> &f : detail::timingFields())
    out += line(f.key, yamlValue(f.get(config.dram.timing)), f.unit, f.description, "  ");
  return out;
}

} // namespace npusim::config
