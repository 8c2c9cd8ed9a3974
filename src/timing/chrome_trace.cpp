#include "timing/chrome_trace.h"

#include <algorithm>
#include <cstdio>

namespace npusim::timing {

namespace {

/// Chrome traces count microseconds; picoseconds keep six decimals.
std::string micros(TimePs ps) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%lld.%06lld", static_cast<long long>(ps / 1'000'000),
                static_cast<long long>(ps % 1'000'000));
  return buffer;
}

std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
        out += escaped;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

} // namespace

void TraceRecorder::beginLaunch(const std::string &kernel, int numCores, const std::vector<std::string> &slotNames) {
  numCores_ = std::max(numCores_, numCores);
  if (slotNames.size() > slotNames_.size())
    slotNames_ = slotNames;
  Launch launch;
  launch.kernel = kernel;
  launch.begin = offset_;
  launch.end = offset_;
  launches_.push_back(std::move(launch));
}

void TraceRecorder::addInstruction(int core, int slot, std::string_view name, TimePs start, TimePs end,
                                   int64_t instance) {
  if (instructions_.size() >= maxEvents_) {
    ++dropped_;
    return;
  }
  instructions_.push_back(Instruction{name, core, slot, offset_ + start, offset_ + end, instance,
                                      static_cast<int>(launches_.size()) - 1});
}

void TraceRecorder::addDramTransfer(TimePs at, int64_t bytes, bool write) {
  if (launches_.empty())
    return;
  auto &bandwidth = launches_.back().bandwidth;
  const int64_t key = at / kBandwidthBucketPs;
  auto found = bandwidth.find(key);
  if (found == bandwidth.end()) {
    // Samples are capped as instructions are: a trace of a huge grid stays bounded.
    if (buckets_ >= maxEvents_) {
      ++droppedSamples_;
      return;
    }
    ++buckets_;
    found = bandwidth.emplace(key, std::pair<int64_t, int64_t>{0, 0}).first;
  }
  (write ? found->second.second : found->second.first) += bytes;
}

void TraceRecorder::endLaunch(TimePs duration) {
  if (launches_.empty())
    return;
  launches_.back().end = offset_ + duration;
  offset_ += duration;
}

void TraceRecorder::write(std::ostream &out) const {
  const int dramPid = numCores_;
  const int launchPid = numCores_ + 1;
  bool first = true;
  auto event = [&out, &first](const std::string &json) {
    out << (first ? "\n" : ",\n") << json;
    first = false;
  };
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  auto processName = [&event](int pid, const std::string &name) {
    event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(pid) +
          ",\"tid\":0,\"args\":{\"name\":" + jsonString(name) + "}}");
    event("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(pid) +
          ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
  };
  for (int core = 0; core < numCores_; ++core) {
    processName(core, "core " + std::to_string(core));
    for (size_t slot = 0; slot < slotNames_.size(); ++slot)
      event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(core) +
            ",\"tid\":" + std::to_string(slot) + ",\"args\":{\"name\":" + jsonString(slotNames_[slot]) + "}}");
  }
  processName(dramPid, "DRAM");
  processName(launchPid, "launches");

  for (const Launch &launch : launches_)
    event("{\"ph\":\"X\",\"name\":" + jsonString(launch.kernel) + ",\"pid\":" + std::to_string(launchPid) +
          ",\"tid\":0,\"ts\":" + micros(launch.begin) + ",\"dur\":" + micros(launch.end - launch.begin) + "}");

  for (const Instruction &instruction : instructions_)
    event("{\"ph\":\"X\",\"name\":" + jsonString(instruction.name) + ",\"pid\":" +
          std::to_string(instruction.core) + ",\"tid\":" + std::to_string(instruction.slot) +
          ",\"ts\":" + micros(instruction.start) + ",\"dur\":" + micros(instruction.end - instruction.start) +
          ",\"args\":{\"launch\":" + jsonString(launches_[static_cast<size_t>(instruction.launch)].kernel) +
          ",\"instance\":" + std::to_string(instruction.instance) + "}}");

  // Bandwidth in GB/s per bucket; bytes per picosecond times 1000 is GB/s.
  for (const Launch &launch : launches_) {
    int64_t previousBucket = -2;
    for (const auto &[bucket, bytes] : launch.bandwidth) {
      const TimePs at = launch.begin + bucket * kBandwidthBucketPs;
      if (bucket != previousBucket + 1 && previousBucket >= 0)
        event("{\"ph\":\"C\",\"name\":\"bandwidth GB/s\",\"pid\":" + std::to_string(dramPid) + ",\"ts\":" +
              micros(launch.begin + (previousBucket + 1) * kBandwidthBucketPs) + ",\"args\":{\"read\":0,\"write\":0}}");
      const double scale = 1000.0 / static_cast<double>(kBandwidthBucketPs);
      event("{\"ph\":\"C\",\"name\":\"bandwidth GB/s\",\"pid\":" + std::to_string(dramPid) + ",\"ts\":" +
            micros(at) + ",\"args\":{\"read\":" + std::to_string(static_cast<double>(bytes.first) * scale) +
            ",\"write\":" + std::to_string(static_cast<double>(bytes.second) * scale) + "}}");
      previousBucket = bucket;
    }
    if (previousBucket >= 0)
      event("{\"ph\":\"C\",\"name\":\"bandwidth GB/s\",\"pid\":" + std::to_string(dramPid) + ",\"ts\":" +
            micros(launch.begin + (previousBucket + 1) * kBandwidthBucketPs) + ",\"args\":{\"read\":0,\"write\":0}}");
  }
  out << "\n],\"otherData\":{\"droppedInstructionEvents\":" << dropped_ << ",\"maxInstructionEvents\":" << maxEvents_
      << ",\"droppedBandwidthSamples\":" << droppedSamples_ << "}}\n";
}

} // namespace npusim::timing
