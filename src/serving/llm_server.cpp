// The LLM server (docs/serving.md, "LLM serving"): a vLLM-style iteration-level
// scheduler over a paged KV cache, each iteration timed on the NPU by running
// the model's decode and prefill bundles in timing mode at its real shapes.
#include "core/dtype.h"
#include "core/error.h"
#include "energy/energy.h"
#include "energy/table.h"
#include "runtime/loader.h"
#include "runtime/runner.h"
#include "serving/llm.h"
#include "serving/policies.h"
#include "serving/serving.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

namespace npusim::serving {
namespace {

/// Bytes of each input of the bundle loaded at `sizes`, by input name.
std::map<std::string, double> inputBytes(const std::string &dir, const runtime::SizeBinding &sizes) {
  const runtime::Bundle bundle = runtime::loadBundle(dir, sizes);
  std::map<std::string, double> out;
  for (const runtime::Input &input : bundle.inputs) {
    core::DType dtype = core::DType::Float32;
    for (const runtime::Storage &storage : bundle.storages)
      if (storage.id == input.tensor.storage)
        dtype = storage.dtype;
    out[input.name] = static_cast<double>(input.tensor.numel()) * core::byteSize(dtype);
  }
  return out;
}

double sum(const std::map<std::string, double> &bytes) {
  double total = 0;
  for (const auto &[name, b] : bytes)
    total += b;
  return total;
}

/// The captured value of each size symbol of the bundle, and its range.
std::map<std::string, runtime::SizeSymbol> symbolsOf(const std::string &dir) {
  std::map<std::string, runtime::SizeSymbol> out;
  for (const runtime::SizeSymbol &symbol : runtime::loadBundle(dir).sizes.symbols)
    out[symbol.name] = symbol;
  return out;
}

int64_t capturedValue(const std::map<std::string, runtime::SizeSymbol> &symbols, const std::string &name,
                      const std::string &dir) {
  const auto found = symbols.find(name);
  if (found == symbols.end())
    throw core::InputError(dir + ": the bundle has no dynamic size '" + name + "'");
  return found->second.captured;
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

Percentiles percentiles(std::vector<double> values) {
  Percentiles out;
  if (values.empty())
    return out;
  std::sort(values.begin(), values.end());
  out.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  out.p50 = percentile(values, 0.50);
  out.p90 = percentile(values, 0.90);
  out.p99 = percentile(values, 0.99);
  out.max = values.back();
  return out;
}

} // namespace

IterationTimer::IterationTimer(config::HardwareConfig machine) {
  auto ranges = std::make_shared<std::map<std::string, std::map<std::string, runtime::SizeSymbol>>>();
  runner_ = [machine = std::move(machine), ranges](const std::string &dir, const runtime::SizeBinding &sizes) {
    auto found = ranges->find(dir);
    if (found == ranges->end())
      found = ranges->emplace(dir, symbolsOf(dir)).first;
    // A size below its symbol's minimum (Dynamo specialises 0 and 1, so a
    // dynamic size starts at 2) is timed at the minimum.
    runtime::SizeBinding bound = sizes;
    for (auto &[name, value] : bound)
      if (const auto symbol = found->second.find(name); symbol != found->second.end())
        value = std::max(value, symbol->second.minimum);
    const runtime::Bundle bundle = runtime::loadBundle(dir, bound);
    runtime::RunOptions options;
    options.mode = runtime::Mode::Timing;
    options.machine = machine;
    options.threads = 1;
    const runtime::RunReport report = runtime::runBundle(bundle, options);
    if (!report.completed)
      throw core::RuntimeError(dir + " at " + bundle.sizes.describe() + ": the bundle did not run: " +
                               report.failure);
    return Timed{report.totalCycles, psOfUs(report.totalTimeUs), report.totalEnergy.totalPj()};
  };
}

IterationTimer::Timed IterationTimer::time(const std::string &bundle, const runtime::SizeBinding &sizes) {
  ++lookups_;
  const auto key = std::make_pair(bundle, sizes);
  if (const auto found = memo_.find(key); found != memo_.end())
    return found->second;
  ++runs_;
  return memo_.emplace(key, runner_(bundle, sizes)).first->second;
}

LlmModelBytes modelBytes(const LlmScenario &scenario) {
  LlmModelBytes out;
  if (scenario.weightsBytes && scenario.kvBytesPerToken)
    return {*scenario.weightsBytes, *scenario.kvBytesPerToken};
  const LlmBundleSpec &decode = scenario.decode;
  const auto symbols = symbolsOf(decode.bundle);
  // Without a batch size the bundle's batch is static: one sequence.
  const int64_t batch = decode.batch.empty() ? 1 : capturedValue(symbols, decode.batch, decode.bundle);
  runtime::SizeBinding base, grown;
  if (!decode.batch.empty()) {
    base[decode.batch] = batch;
    grown[decode.batch] = batch + 1;
  }
  if (!decode.past.empty()) {
    const int64_t past = capturedValue(symbols, decode.past, decode.bundle);
    base[decode.past] = past;
    grown[decode.past] = past + 1;
  }
  const auto atBase = inputBytes(decode.bundle, base), atGrown = inputBytes(decode.bundle, grown);
  // The weights: the inputs no size changes.
  for (const auto &[name, bytes] : atBase)
    if (atGrown.at(name) == bytes)
      out.weights += bytes;
  if (!decode.past.empty()) {
    // The cache: what one more cached token adds, per sequence.
    runtime::SizeBinding longer = base;
    ++longer[decode.past];
    out.kvPerToken = (sum(inputBytes(decode.bundle, longer)) - sum(atBase)) / static_cast<double>(batch);
  }
  if (scenario.weightsBytes)
    out.weights = *scenario.weightsBytes;
  if (scenario.kvBytesPerToken)
    out.kvPerToken = *scenario.kvBytesPerToken;
  if (!(out.kvPerToken > 0))
    throw core::InputError(decode.where + ": the decode bundle's inputs do not grow with '" + decode.past +
                           "': give llm.kv_bytes_per_token");
  return out;
}

namespace {

struct Live {
  const LlmRequest *request = nullptr;
  int64_t index = 0;
  int64_t generated = 0, computed = 0, target = 0, blocks = 0;
  int64_t preemptions = 0;
  TimePs firstToken = -1;
  bool done = false;
  double energyPj = 0; // its shares of the runs so far (LlmRequestResult::energyUj)
};

struct Scheduled {
  Live *live = nullptr;
  int64_t tokens = 0;
  bool decode = false;
};

} // namespace

double idleWatts(const config::HardwareConfig &machine) {
  // A launch of no work over one second: only static power is charged, every
  // unit idle (busy 0%).
  timing::LaunchTiming idle;
  idle.timePs = 1'000'000'000'000;
  return energy::estimate(idle, machine, energy::loadTable(machine.energy)).totalPj() * 1e-12;
}

LlmResult simulateLlm(const LlmScenario &scenario, const std::vector<LlmRequest> &requests,
                      const LlmModelBytes &bytes, IterationTimer &timer, double idlePowerWatts) {
  const LlmSchedulerSpec &sched = scenario.scheduler;
  LlmResult out;
  out.blockTokens = sched.blockTokens;
  out.kvBytesPerToken = bytes.kvPerToken;
  out.weightsBytes = bytes.weights;
  out.capacityBytes = scenario.machine.dram.capacityGiB * 1024.0 * 1024.0 * 1024.0;
  if (sched.kvBlocks) {
    out.kvBlocks = *sched.kvBlocks;
  } else {
    const double free = out.capacityBytes - bytes.weights;
    const double blockBytes = bytes.kvPerToken * static_cast<double>(sched.blockTokens);
    out.kvBlocks = free > 0 ? static_cast<int64_t>(std::floor(free / blockBytes)) : 0;
    if (out.kvBlocks < 1)
      throw core::InputError(scenario.path + ": the DRAM (dram_capacity_gib " +
                             std::to_string(scenario.machine.dram.capacityGiB) + ") less the weights (" +
                             std::to_string(bytes.weights) + " bytes) holds no KV block of " +
                             std::to_string(blockBytes) + " bytes");
  }
  const int64_t capacity = out.kvBlocks;
  std::vector<Live> lives(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    const LlmRequest &request = requests[i];
    lives[i].request = &request;
    lives[i].index = static_cast<int64_t>(i);
    // Its cache at the end: the prompt and every output token but the last.
    const int64_t most = ceilDiv(request.promptTokens + request.outputTokens - 1, sched.blockTokens);
    if (most > capacity)
      throw core::InputError(scenario.trace.where + ": request " + std::to_string(i) + " (" +
                             std::to_string(request.promptTokens) + " prompt and " +
                             std::to_string(request.outputTokens) + " output tokens) needs " +
                             std::to_string(most) + " KV blocks; the cache has " + std::to_string(capacity));
  }

  std::deque<Live *> waiting;
  std::vector<Live *> running; // in admission order
  size_t next = 0;             // the next request to arrive
  int64_t freeBlocks = capacity;
  TimePs now = 0;
  auto release = [&freeBlocks](Live &live) {
    freeBlocks += live.blocks;
    live.blocks = 0;
  };

  while (true) {
    while (next < lives.size() && lives[next].request->arrival <= now)
      waiting.push_back(&lives[next++]);
    if (running.empty() && waiting.empty()) {
      if (next == lives.size())
        break;
      now = lives[next].request->arrival;
      continue;
    }
    int64_t budget = sched.tokenBudget;
    std::vector<Scheduled> scheduled;
    int64_t preempted = 0;
    // The running requests, oldest first: each its next chunk or decode,
    // preempting the newest running request while the blocks run short.
    for (size_t i = 0; i < running.size() && budget > 0; ++i) {
      Live &live = *running[i];
      const bool decode = live.computed >= live.target;
      const int64_t tokens = decode ? 1 : std::min(live.target - live.computed, budget);
      const int64_t need = ceilDiv(live.computed + tokens, sched.blockTokens) - live.blocks;
      bool self = false;
      while (need > freeBlocks) {
        Live &victim = *running.back();
        running.pop_back();
        release(victim);
        victim.computed = 0;
        ++victim.preemptions;
        ++preempted;
        waiting.push_front(&victim);
        if (&victim == &live) {
          self = true;
          break;
        }
      }
      if (self)
        break;
      freeBlocks -= std::max<int64_t>(need, 0);
      live.blocks += std::max<int64_t>(need, 0);
      scheduled.push_back({&live, tokens, decode});
      budget -= tokens;
    }
    // Then the waiting requests in order, while the batch, the budget and the
    // free blocks allow (none after a preemption).
    while (preempted == 0 && !waiting.empty() && budget > 0 &&
           static_cast<int64_t>(running.size()) < sched.maxBatch) {
      Live &live = *waiting.front();
      live.target = live.request->promptTokens + live.generated;
      const int64_t tokens = std::min(live.target, budget);
      const int64_t need = ceilDiv(tokens, sched.blockTokens);
      if (need > freeBlocks)
        break;
      waiting.pop_front();
      freeBlocks -= need;
      live.blocks = need;
      running.push_back(&live);
      scheduled.push_back({&live, tokens, false});
      budget -= tokens;
    }
    if (scheduled.empty())
      throw core::RuntimeError(scenario.path + ": the scheduler made no progress at " +
                               std::to_string(static_cast<double>(now) / 1e6) + " us");

    // The iteration on the NPU: one decode run per distinct cached length
    // (rounded up to past_bucket), one prefill run per chunk.
    LlmIteration iteration;
    iteration.start = now;
    iteration.preempted = preempted;
    std::map<int64_t, std::vector<Live *>> decodeGroups; // cached length -> sequences
    TimePs time = 0;
    double energyPj = 0;
    for (const Scheduled &s : scheduled) {
      if (s.decode) {
        const int64_t past = scenario.decode.past.empty() ? 0 : ceilDiv(s.live->computed, sched.pastBucket) * sched.pastBucket;
        decodeGroups[past].push_back(s.live);
        ++iteration.decodes;
      } else {
        const IterationTimer::Timed t = timer.time(scenario.prefill.bundle, {{scenario.prefill.tokens, s.tokens}});
        time += t.time;
        iteration.cycles += t.cycles;
        energyPj += t.energyPj;
        s.live->energyPj += t.energyPj;
        iteration.prefillTokens += s.tokens;
        ++iteration.prefillChunks;
      }
    }
    for (const auto &[past, group] : decodeGroups) {
      // A bundle without a batch size decodes one sequence per run: `count` runs.
      const auto count = static_cast<int64_t>(group.size());
      const int64_t runs = scenario.decode.batch.empty() ? count : 1;
      runtime::SizeBinding sizes;
      if (!scenario.decode.batch.empty())
        sizes[scenario.decode.batch] = count;
      if (!scenario.decode.past.empty())
        sizes[scenario.decode.past] = past;
      const IterationTimer::Timed t = timer.time(scenario.decode.bundle, sizes);
      time += t.time * runs;
      iteration.cycles += t.cycles * runs;
      iteration.decodeRuns += runs;
      energyPj += t.energyPj * static_cast<double>(runs);
      for (Live *live : group)
        live->energyPj += t.energyPj * static_cast<double>(runs) / static_cast<double>(count);
    }
    iteration.energyUj = energyPj * 1e-6;
    out.runsEnergyUj += iteration.energyUj;
    iteration.batch = static_cast<int64_t>(scheduled.size());
    now += time;
    iteration.end = now;
    for (const Scheduled &s : scheduled) {
      Live &live = *s.live;
      live.computed += s.tokens;
      if (s.decode || live.computed == live.target) {
        ++live.generated; // a decode step, or the last chunk of a prefill, samples a token
        if (live.firstToken < 0)
          live.firstToken = now;
      }
      if (live.generated == live.request->outputTokens) {
        live.done = true;
        release(live);
        running.erase(std::find(running.begin(), running.end(), &live));
        LlmRequestResult result;
        result.index = live.index;
        result.arrival = live.request->arrival;
        result.firstToken = live.firstToken;
        result.finish = now;
        result.promptTokens = live.request->promptTokens;
        result.outputTokens = live.request->outputTokens;
        result.preemptions = live.preemptions;
        result.energyUj = live.energyPj * 1e-6;
        out.requests.push_back(result);
      }
    }
    iteration.running = static_cast<int64_t>(running.size());
    iteration.usedBlocks = capacity - freeBlocks;
    out.preemptions += preempted;
    out.peakBlocks = std::max(out.peakBlocks, capacity - freeBlocks);
    out.peakBatch = std::max(out.peakBatch, iteration.batch);
    out.iterations.push_back(iteration);
  }

  std::sort(out.requests.begin(), out.requests.end(),
            [](const LlmRequestResult &a, const LlmRequestResult &b) { return a.index < b.index; });
  std::vector<double> ttft, tpot, e2e, energy;
  TimePs first = requests.empty() ? 0 : requests.front().arrival;
  for (const LlmRequestResult &r : out.requests) {
    ttft.push_back(r.ttftUs());
    if (r.outputTokens > 1)
      tpot.push_back(r.tpotUs());
    e2e.push_back(r.e2eUs());
    energy.push_back(r.energyUj);
    out.outputTokens += r.outputTokens;
    out.promptTokens += r.promptTokens;
    out.makespan = std::max(out.makespan, r.finish);
  }
  out.ttftUs = percentiles(ttft);
  out.tpotUs = percentiles(tpot);
  out.e2eUs = percentiles(e2e);
  out.energyPerRequestUj = percentiles(energy);
  // The machine idles between iterations (waiting for arrivals) at its
  // static power.
  TimePs busy = 0;
  for (const LlmIteration &it : out.iterations)
    busy += it.end - it.start;
  out.idleEnergyUj = idlePowerWatts * static_cast<double>(std::max<TimePs>(0, out.makespan - busy)) * 1e-6;
  out.energyUj = out.runsEnergyUj + out.idleEnergyUj;
  out.energyPerOutputTokenUj = out.outputTokens > 0 ? out.energyUj / static_cast<double>(out.outputTokens) : 0.0;
  if (out.makespan > first) {
    const double seconds = static_cast<double>(out.makespan - first) / 1.0e12;
    out.outputTokensPerSecond = static_cast<double>(out.outputTokens) / seconds;
    out.tokensPerSecond = static_cast<double>(out.outputTokens + out.promptTokens) / seconds;
    out.requestsPerSecond = static_cast<double>(out.requests.size()) / seconds;
  }
  out.distinctShapes = timer.runs();
  out.timingLookups = timer.lookups();
  return out;
}

} // namespace npusim::serving
