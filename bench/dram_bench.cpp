// Simulated DRAM requests per wall second: a streaming read and random 64-byte
// reads, each through the whole memory system (NoC + DRAM model) of a preset
// and through the DRAM model alone. One requester keeps up to the preset's
// dmaOutstandingRequests requests in flight, sending as fast as the port takes
// them (tests/timing/dram_test_traffic.h). Rates are per second of this
// process's CPU time (on a shared machine wall time counts other work too);
// wall time is printed as well.
//
//   build/dram_bench [PRESET [REQUESTS [stream|random]]]
//   (default tpuv3-like, 2000000, both patterns)
#include "config/hardware.h"
#include "timing/dram_test_traffic.h"
#include "timing/memory/memory_system.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <stdexcept>
#include <string>

namespace {

using namespace npusim;

double cpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Result {
  double seconds, wallSeconds;
  timing::TimePs simulated;
  size_t completed;
};

template <class Port>
Result drive(timing::EventQueue &events, Port &port, std::vector<timing::MemoryRequest> requests,
             int outstanding) {
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = cpuSeconds();
  timing::traffic::TrafficDriver driver(events, port, std::move(requests), outstanding);
  const timing::TimePs end = driver.run();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  return {cpuSeconds() - cpuStart, wall.count(), end, driver.completed()};
}

void report(const char *what, size_t requests, uint32_t bytes, const Result &result) {
  std::printf(
      "%-26s %8zu x %3u B  %7.3f s CPU (%7.3f s wall)  %7.2f M requests/s  simulated %.1f us, %.1f GB/s\n",
      what, requests, bytes, result.seconds, result.wallSeconds,
      static_cast<double>(result.completed) / result.seconds / 1e6,
      static_cast<double>(result.simulated) * 1e-6,
      static_cast<double>(requests) * bytes / (static_cast<double>(result.simulated) * 1e-12) / 1e9);
}

} // namespace

int main(int argc, char **argv) {
  try {
    const std::string preset = argc > 1 ? argv[1] : "tpuv3-like";
    const size_t count = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2'000'000;
    const std::string only = argc > 3 ? argv[3] : "";
    if (!only.empty() && only != "stream" && only != "random")
      throw std::runtime_error("the pattern must be stream or random, not '" + only + "'");
    const config::HardwareConfig hardware = config::loadConfig(preset);
    const int outstanding = hardware.dmaOutstandingRequests;
    const uint32_t granule = static_cast<uint32_t>(hardware.dram.timing.accessBytes());
    std::printf("preset %s: %d DRAM channels (%s), %d-byte granules, %d requests in flight\n", preset.c_str(),
                hardware.dram.channels, hardware.dram.timing.name.c_str(), granule, outstanding);
    for (const bool random : {false, true}) {
      if (!only.empty() && random != (only == "random"))
        continue;
      const auto requests = [&](uint32_t bytes) {
        return random ? timing::traffic::randomRequests(count, uint64_t{1} << 30, bytes)
                      : timing::traffic::streamRequests(0, count * bytes, bytes);
      };
      {
        timing::EventQueue events;
        auto memory = timing::makeMemorySystem(hardware, events);
        report(random ? "random, NoC + DRAM" : "stream, NoC + DRAM", count, 64,
               drive(events, *memory, requests(64), outstanding));
      }
      {
        timing::EventQueue events;
        auto dram = timing::makeDramModel(hardware.dram, events);
        report(random ? "random, DRAM model alone" : "stream, DRAM model alone", count, granule,
               drive(events, *dram, requests(granule), outstanding));
      }
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "dram_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
