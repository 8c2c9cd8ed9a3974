// The block-size search (docs/compiler.md "Block-size search"): every
// power-of-two tiling near the largest tile, compiled and scored by the cost
// model; the cheapest wins. proposeBlockSizes' shrinking candidates follow when
// none of them fits.
#include "compiler/tiling.h"
#include "core/shape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <thread>

namespace npusim::compiler {

using core::nextPowerOfTwo;

namespace {

// Tiles up to 128x smaller than the largest are tried: smaller ones only add
// program instances (each paying its DMA round trip) for the same traffic.
constexpr int64_t kSmallestFraction = 128;
// A bound on compilations per kernel; the candidates are tried largest first.
constexpr size_t kMostCandidates = 128;

/// The largest power of two <= value that divides numel when it must.
int64_t divisible(const BlockParameter &parameter, int64_t value) {
  if (!parameter.mustDivide || parameter.numel <= 0)
    return value;
  while (value > 1 && parameter.numel % value != 0)
    value /= 2;
  return value;
}

std::string describe(const BlockChoice &choice) {
  std::string text;
  for (const auto &[name, value] : choice.values)
    text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return text.empty() ? "no block sizes" : text;
}

/// The elements of a candidate's largest tile. A pointwise or reduction
/// kernel's tile spans all its blocks; a template's blocks are those of a dot
/// whose operands are [M, K] and [K, N] and whose accumulator is [M, N], so its
/// largest tile is the product of the non-reduction blocks or the largest of
/// them times the reduction blocks.
int64_t tileElements(const std::vector<BlockParameter> &parameters, const BlockChoice &choice, bool dotTiles) {
  int64_t all = 1, outer = 1, widest = 1, reduction = 1;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const int64_t v = choice.values[i].second;
    all *= v;
    if (parameters[i].reduction) {
      reduction *= v;
    } else {
      outer *= v;
      widest = std::max(widest, v);
    }
  }
  return dotTiles ? std::max(outer, widest * reduction) : all;
}

std::vector<BlockChoice> enumerate(const std::vector<BlockParameter> &parameters, bool persistent,
                                   bool dotTiles, int64_t budget) {
  std::vector<std::vector<int64_t>> options;
  int64_t largest = 1;
  for (const BlockParameter &p : parameters) {
    const int64_t top = nextPowerOfTwo(std::max<int64_t>(1, p.numel));
    std::vector<int64_t> values;
    if (persistent && p.reduction) {
      values.push_back(top);
    } else {
      for (int64_t v = 1; v <= std::min(top, budget); v *= 2)
        if (!p.mustDivide || p.numel % v == 0)
          values.push_back(v);
    }
    if (values.empty())
      values.push_back(1);
    options.push_back(values);
    largest = dotTiles ? budget : std::min(budget, largest * values.back());
  }
  const int64_t smallest = std::max<int64_t>(1, largest / kSmallestFraction);
  std::vector<BlockChoice> choices;
  std::vector<size_t> at(parameters.size(), 0);
  for (;;) {
    BlockChoice choice;
    for (size_t i = 0; i < parameters.size(); ++i)
      choice.values.emplace_back(parameters[i].name, options[i][at[i]]);
    const int64_t tile = tileElements(parameters, choice, dotTiles);
    if (tile <= budget && tile >= smallest)
      choices.push_back(std::move(choice));
    size_t i = 0;
    while (i < at.size() && ++at[i] == options[i].size())
      at[i++] = 0;
    if (i == at.size())
      break;
  }
  auto product = [&](const BlockChoice &c) { return tileElements(parameters, c, dotTiles); };
  std::stable_sort(choices.begin(), choices.end(),
                   [&](const BlockChoice &a, const BlockChoice &b) { return product(a) > product(b); });
  if (choices.size() > kMostCandidates)
    choices.resize(kMostCandidates);
  return choices;
}

} // namespace

int64_t largestTileElements(const config::HardwareConfig &machine) {
  // A tile may reach 128 lane vectors per lane, or the whole bank over
  // proposeBlockSizes' 16 live tiles of 8 bytes, when its cost says the fewer,
  // longer DMA phases pay; such tiles run one instance at a time.
  const int64_t lanes = std::max(1, machine.lanes);
  const int64_t perLane = std::max<int64_t>(1, machine.spadBytesPerLane() / (16 * 8));
  const int64_t vector = std::max(1, machine.elementsPerLaneVector(4));
  return lanes * std::min(perLane, vector * 128);
}

int64_t instancesOf(const std::vector<BlockParameter> &parameters, const BlockChoice &choice) {
  int64_t instances = 1;
  for (size_t i = 0; i < parameters.size() && i < choice.values.size(); ++i)
    if (!parameters[i].reduction) {
      const int64_t block = std::max<int64_t>(1, choice.values[i].second);
      instances *= std::max<int64_t>(1, (parameters[i].numel + block - 1) / block);
    }
  return instances;
}

namespace {

/// One candidate lowered, compiled and scored, or why it was rejected.
struct Candidate {
  BlockChoice choice;
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  ProgramCost cost;
  std::string rejection;      // empty when it compiled
  std::string overflow;       // a ScratchpadOverflow's message
  std::exception_ptr failure; // anything else: the caller's, as in a serial search
};

void compileCandidate(Candidate &candidate, const std::vector<BlockParameter> &parameters,
                      const config::HardwareConfig &machine, const LowerCandidate &lower,
                      const std::map<std::string, int64_t> &scalarArguments) {
  try {
    candidate.function = lower(candidate.choice);
    candidate.program = compile(*candidate.function, machine);
  } catch (const ScratchpadOverflow &e) {
    candidate.rejection =
        describe(candidate.choice) + ": " + std::to_string(e.bytesNeeded) + " bytes per lane";
    candidate.overflow = e.what();
    return;
  } catch (const core::CompileError &e) {
    // A tiling the front end or the compiler cannot take (a static assert on
    // the block sizes, a construct of this shape): another one may do.
    candidate.rejection = describe(candidate.choice) + ": " + e.what();
    return;
  } catch (...) {
    candidate.failure = std::current_exception();
    return;
  }
  const int64_t instances = instancesOf(parameters, candidate.choice);
  candidate.cost = estimateCost(candidate.program, machine, instances, scalarArguments);
  // A double-buffered plan may also run one instance at a time: cheaper
  // where the DRAM is the bound and mixing the instances' loads and stores
  // costs more than the overlap gains.
  // The stride is changed in place and put back: a copy of the program would
  // cost more than the estimate.
  if (const int64_t stride = candidate.program.instanceBankStride; stride > 0) {
    candidate.program.instanceBankStride = 0;
    const ProgramCost serial = estimateCost(candidate.program, machine, instances, scalarArguments);
    if (serial.cycles < candidate.cost.cycles)
      candidate.cost = serial;
    else
      candidate.program.instanceBankStride = stride;
  }
}

/// Compiles candidates [begin, end), one thread each (the calling one
/// included). Each candidate is independent of the others, so the outcomes
/// are those of compiling them one after another.
void compileBatch(std::vector<Candidate> &candidates, size_t begin, size_t end,
                  const std::vector<BlockParameter> &parameters, const config::HardwareConfig &machine,
                  const LowerCandidate &lower, const std::map<std::string, int64_t> &scalarArguments) {
  std::vector<std::thread> pool;
  for (size_t i = begin + 1; i < end; ++i)
    pool.emplace_back(
        [&, i] { compileCandidate(candidates[i], parameters, machine, lower, scalarArguments); });
  if (begin < end)
    compileCandidate(candidates[begin], parameters, machine, lower, scalarArguments);
  for (std::thread &t : pool)
    t.join();
}

} // namespace

TilingChoice searchBlockSizes(std::string_view kind, const std::vector<BlockParameter> &parameters,
                              const config::HardwareConfig &machine, const LowerCandidate &lower,
                              const std::map<std::string, int64_t> &scalarArguments, int threads) {
  const bool persistent = kind == "persistent_reduction";
  const bool dotTiles = kind == "template";
  // NPUSIM_TILING_TRACE=1 prints every candidate's estimate on stderr.
  const char *traceVariable = std::getenv("NPUSIM_TILING_TRACE");
  const bool trace = traceVariable && *traceVariable && std::string_view(traceVariable) != "0";
  TilingChoice best;
  std::vector<BlockChoice> tried;
  auto isNew = [&](const BlockChoice &choice) {
    if (std::any_of(tried.begin(), tried.end(),
                    [&](const BlockChoice &t) { return t.values == choice.values; }))
      return false;
    tried.push_back(choice);
    return true;
  };
  // The compiled candidates within kNearTieMargin of the lowest estimate so
  // far, in candidate order, the best among them; the rest are freed as soon
  // as they are judged.
  struct Kept {
    size_t order = 0;
    Candidate candidate;
  };
  std::vector<Kept> kept;
  std::optional<size_t> bestOrder;
  const ProgramCost *bestCost = nullptr;
  double lowest = 0.0;
  size_t order = 0;
  // Candidates are judged in their order, whichever thread compiled them.
  auto judge = [&](Candidate &candidate) {
    if (candidate.failure)
      std::rethrow_exception(candidate.failure);
    if (!candidate.rejection.empty()) {
      best.rejected.push_back(std::move(candidate.rejection));
      best.lastOverflow = candidate.overflow.empty() ? best.lastOverflow : candidate.overflow;
      return;
    }
    ++best.candidatesCompiled;
    const ProgramCost &cost = candidate.cost;
    if (trace)
      std::fprintf(
          stderr,
          "tiling %s: %.0f cycles (instance %.0f x %lld%s; dram %.0f issue %.0f vector %.0f cross-lane %.0f "
          "scalar %.0f systolic %.0f; %.0f bytes per run)\n",
          describe(candidate.choice).c_str(), cost.cycles, cost.instanceCycles,
          static_cast<long long>(cost.instances),
          candidate.program.instanceBankStride > 0 ? ", two in flight" : ", one at a time", cost.dram,
          cost.dmaIssue, cost.vector, cost.crossLane, cost.scalar, cost.systolic, cost.bytesPerRun());
    // Within 0.1%, the longer store runs win (a DRAM turns writes around
    // more slowly than reads), then the earlier (larger) candidate.
    bool wins = true;
    if (bestCost) {
      const bool tie = std::abs(cost.cycles - bestCost->cycles) <= 1e-3 * bestCost->cycles;
      wins = !(tie ? cost.bytesPerStoreRun() <= bestCost->bytesPerStoreRun() : cost.cycles > bestCost->cycles);
    }
    lowest = kept.empty() ? cost.cycles : std::min(lowest, cost.cycles);
    const double within = lowest * (1.0 + kNearTieMargin);
    if (wins || cost.cycles <= within) {
      kept.push_back(Kept{order, std::move(candidate)});
      if (wins)
        bestOrder = order;
    }
    std::erase_if(kept, [&](const Kept &k) { return k.order != bestOrder && k.candidate.cost.cycles > within; });
    for (const Kept &k : kept)
      if (k.order == bestOrder)
        bestCost = &k.candidate.cost;
    ++order;
  };
  // The best moves into the result, and the first near-ties after it.
  auto finish = [&](bool withNearTies) {
    for (Kept &k : kept) {
      if (k.order == bestOrder) {
        best.blocks = std::move(k.candidate.choice);
        best.function = std::move(k.candidate.function);
        best.program = std::move(k.candidate.program);
        best.cost = k.candidate.cost;
      } else if (withNearTies && best.nearTies.size() + 1 < kMostTimedCandidates) {
        best.nearTies.push_back(TiledCandidate{std::move(k.candidate.choice), std::move(k.candidate.function),
                                               std::move(k.candidate.program), k.candidate.cost});
      }
    }
    kept.clear();
    bestCost = nullptr;
  };
  // NPUSIM_TILING_SEARCH=0 keeps proposeBlockSizes' first fit, for comparisons.
  const char *searchVariable = std::getenv("NPUSIM_TILING_SEARCH");
  if (!searchVariable || std::string_view(searchVariable) != "0") {
    std::vector<Candidate> candidates;
    for (BlockChoice &choice : enumerate(parameters, persistent, dotTiles, largestTileElements(machine)))
      if (isNew(choice))
        candidates.push_back(Candidate{std::move(choice), {}, {}, {}, {}, {}, {}});
    // In batches of `threads`, each judged (and its losers freed) before the
    // next: only that many compiled programs are held besides the near-ties.
    const size_t batch = static_cast<size_t>(std::max(1, threads));
    for (size_t begin = 0; begin < candidates.size(); begin += batch) {
      const size_t end = std::min(candidates.size(), begin + batch);
      compileBatch(candidates, begin, end, parameters, machine, lower, scalarArguments);
      for (size_t i = begin; i < end; ++i) {
        judge(candidates[i]);
        candidates[i] = Candidate{};
      }
    }
    finish(true);
  }
  if (best.function)
    return best;
  // Nothing near the largest tile fits: shrink as proposeBlockSizes does;
  // the first fit wins, with no near-ties.
  for (BlockChoice choice : proposeBlockSizes(kind, parameters, machine)) {
    for (size_t i = 0; i < choice.values.size(); ++i)
      choice.values[i].second = divisible(parameters[i], choice.values[i].second);
    if (!isNew(choice))
      continue;
    Candidate candidate{std::move(choice), {}, {}, {}, {}, {}, {}};
    compileCandidate(candidate, parameters, machine, lower, scalarArguments);
    judge(candidate);
    if (bestOrder)
      break;
  }
  finish(false);
  return best;
}

} // namespace npusim::compiler
