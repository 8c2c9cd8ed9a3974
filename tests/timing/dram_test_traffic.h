#pragma once
// Test traffic for the memory side: a requester that sends a list of requests
// in order as fast as the port accepts them, and records when each completes.
#include "config/hardware.h"
#include "timing/event_queue.h"
#include "timing/memory_port.h"

#include <climits>
#include <cstdint>
#include <random>
#include <vector>

namespace npusim::timing::traffic {

class TrafficDriver {
public:
  TrafficDriver(EventQueue &events, MemoryPort &port, std::vector<MemoryRequest> requests,
                int maxOutstanding = INT_MAX)
      : events_(events), port_(port), requests_(std::move(requests)), maxOutstanding_(maxOutstanding),
        completions_(requests_.size(), -1) {
    port_.setRetryCallback([this] { pump(); });
    port_.setCompletionCallback([this](const MemoryRequest &request, TimePs at) {
      completions_.at(request.id) = at;
      lastCompletion_ = std::max(lastCompletion_, at);
      --outstanding_;
      ++completed_;
      pump();
    });
  }

  /// Starts sending at `at` and runs the event queue until everything completed.
  TimePs run(TimePs at = 0) {
    events_.schedule(at, [this] { pump(); });
    events_.run();
    return lastCompletion_;
  }

  TimePs completion(size_t index) const { return completions_.at(index); }
  TimePs lastCompletion() const { return lastCompletion_; }
  size_t completed() const { return completed_; }
  const std::vector<TimePs> &completions() const { return completions_; }

private:
  void pump() {
    while (next_ < requests_.size() && outstanding_ < maxOutstanding_ && port_.canAccept(requests_[next_])) {
      port_.accept(requests_[next_]);
      ++next_;
      ++outstanding_;
    }
  }

  EventQueue &events_;
  MemoryPort &port_;
  std::vector<MemoryRequest> requests_;
  int maxOutstanding_;
  std::vector<TimePs> completions_;
  size_t next_ = 0, completed_ = 0;
  int outstanding_ = 0;
  TimePs lastCompletion_ = 0;
};

/// Reads (or writes) of `requestBytes` covering [base, base + totalBytes), in address order; ids count from 0.
inline std::vector<MemoryRequest> streamRequests(uint64_t base, uint64_t totalBytes, uint32_t requestBytes,
                                                 bool write = false, int core = 0) {
  std::vector<MemoryRequest> requests;
  for (uint64_t offset = 0; offset < totalBytes; offset += requestBytes)
    requests.push_back(MemoryRequest{requests.size(), base + offset, requestBytes, write, core});
  return requests;
}

/// `count` reads of `requestBytes` at random aligned addresses below `spanBytes`, from a fixed seed.
inline std::vector<MemoryRequest> randomRequests(size_t count, uint64_t spanBytes, uint32_t requestBytes,
                                                 uint64_t seed = 12345) {
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<uint64_t> slot(0, spanBytes / requestBytes - 1);
  std::vector<MemoryRequest> requests;
  for (size_t i = 0; i < count; ++i)
    requests.push_back(MemoryRequest{i, slot(generator) * requestBytes, requestBytes, false, 0});
  return requests;
}

/// One core at 1000 MHz, DRAM at 1000 MHz (tCK 1 ns), so core and DRAM cycles are both 1000 ps.
inline config::HardwareConfig oneGigahertzMachine(int channels) {
  config::HardwareConfig hardware;
  hardware.numCores = 1;
  hardware.coreFreqMhz = 1000.0;
  hardware.dram.freqMhz = 1000.0;
  hardware.dram.channels = channels;
  return hardware;
}

} // namespace npusim::timing::traffic
