#pragma once
// Chrome / Perfetto trace of simulated launches (the JSON "traceEvents"
// format): one complete event ("ph": "X") per executed instruction, with
// pid = core and tid = unit, a DRAM process with bandwidth counters, and a
// launch track naming each kernel. Launches follow each other on one time axis.
#include "timing/event_queue.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::timing {

class TraceRecorder {
public:
  /// Instruction events kept over all launches; later ones are counted, not
  /// kept, so a model of hundreds of launches still gives a trace Perfetto
  /// opens (about 100 bytes of JSON per event).
  static constexpr size_t kDefaultMaxEvents = 1'000'000;
  /// Width of one DRAM bandwidth sample.
  static constexpr TimePs kBandwidthBucketPs = 100'000; // 100 ns

  explicit TraceRecorder(size_t maxEvents = kDefaultMaxEvents) : maxEvents_(maxEvents) {}

  /// Starts a launch placed after everything recorded so far. `slotNames`
  /// names the units (the tids) of every core.
  void beginLaunch(const std::string &kernel, int numCores, const std::vector<std::string> &slotNames);
  void addInstruction(int core, int slot, std::string_view name, TimePs start, TimePs end, int64_t instance);
  void addDramTransfer(TimePs at, int64_t bytes, bool write);
  /// Ends the current launch, which took `duration` picoseconds.
  void endLaunch(TimePs duration);

  size_t keptEvents() const { return instructions_.size(); }
  size_t droppedEvents() const { return dropped_; }
  /// DRAM transfers whose bandwidth sample was left out: the samples (one per
  /// 100 ns with traffic) are capped at the same number as instructions.
  size_t droppedSamples() const { return droppedSamples_; }
  /// The whole trace as JSON.
  void write(std::ostream &out) const;

private:
  struct Instruction {
    std::string_view name; // static opcode names
    int core, slot;
    TimePs start, end; // absolute, launch offset included
    int64_t instance;
    int launch;
  };
  struct Launch {
    std::string kernel;
    TimePs begin = 0, end = 0;
    std::map<int64_t, std::pair<int64_t, int64_t>> bandwidth; // bucket -> bytes read, written
  };

  size_t maxEvents_;
  size_t dropped_ = 0;
  size_t buckets_ = 0, droppedSamples_ = 0;
  int numCores_ = 0;
  std::vector<std::string> slotNames_;
  std::vector<Launch> launches_;
  std::vector<Instruction> instructions_;
  TimePs offset_ = 0; // start of the current launch
};

} // namespace npusim::timing
