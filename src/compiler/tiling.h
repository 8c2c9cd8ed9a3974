#pragma once
// The static cost of a compiled NPU program and the block-size search built on
// it (docs/compiler.md "Cost model" and "Block-size search").
#include "compiler/compiler.h"
#include "ir/ir.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::compiler {

/// What bounds a program's estimated time.
enum class CostBound { DramBandwidth, DmaIssue, Systolic, Vector, CrossLane, Scalar };
std::string_view name(CostBound bound);

/// A launch's estimate from the program text alone. Unit times are per program
/// instance in core cycles; `cycles` is the launch.
struct ProgramCost {
  int64_t dmaInstructions = 0;
  int64_t dmaRequests = 0; // after splitting runs into dmaRequestBytes granules
  int64_t dmaRuns = 0;     // contiguous DRAM runs
  double dmaBytes = 0;     // bytes the DMA instructions name
  int64_t storeRuns = 0;   // of DmaStore and DmaAtomic alone
  double storeBytes = 0;
  double dramAccessBytes = 0; // bytes the DRAM moves: whole accesses per request
  double scalar = 0, vector = 0, crossLane = 0, systolic = 0;
  double dmaIssue = 0; // requests in flight against the round trip (Little's law)
  double dram = 0;     // DRAM accesses at peak bandwidth
  int64_t instances = 1;
  double instanceCycles = 0;
  double cycles = 0;
  CostBound bound = CostBound::Scalar;

  /// Mean bytes per contiguous run of all DMA instructions (0 without DMA).
  double bytesPerRun() const { return dmaRuns ? dmaBytes / static_cast<double>(dmaRuns) : 0.0; }
  double bytesPerStoreRun() const { return storeRuns ? storeBytes / static_cast<double>(storeRuns) : 0.0; }
};

/// Estimates one launch of `program` with `instances` program instances.
/// `scalarArguments` (xnumel, ...) resolve loop bounds read from arguments.
ProgramCost estimateCost(const npu::Program &program, const config::HardwareConfig &machine,
                         int64_t instances, const std::map<std::string, int64_t> &scalarArguments = {});

/// Lowers the kernel with one candidate's block sizes (the caller owns the
/// front end: the compiler does not depend on it).
using LowerCandidate = std::function<std::unique_ptr<ir::Function>(const BlockChoice &)>;

/// One compiled candidate of the search.
struct TiledCandidate {
  BlockChoice blocks;
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  ProgramCost cost;
};

/// Candidates whose estimates are within this fraction of the lowest are
/// near-ties the estimate cannot rank: it sees neither the DRAM's row-buffer
/// hits nor the latency each pass of an instance exposes, which move the
/// timing simulator's cycles of DRAM-bound tilings by up to 2x at one estimate
/// (docs/compiler.md, "Timed near-ties"). The estimate's gaps that matter are
/// tens of percent; 2% takes exact ties and rounding-level differences only.
constexpr double kNearTieMargin = 0.02;
/// At most this many near-ties, the estimate's choice included, go to the
/// caller to be timed: each costs one timing of the launch.
constexpr size_t kMostTimedCandidates = 4;

/// The cheapest candidate, compiled.
struct TilingChoice {
  BlockChoice blocks;
  std::unique_ptr<ir::Function> function;
  npu::Program program;
  ProgramCost cost;
  /// The other near-ties (estimate within kNearTieMargin of the lowest), at
  /// most kMostTimedCandidates - 1 of them, in candidate order (largest tiles
  /// first): the caller may time them against the choice and keep the fastest.
  std::vector<TiledCandidate> nearTies;
  int candidatesCompiled = 0;
  /// One line per candidate that did not fit: "XBLOCK=1024: 140000 bytes per lane".
  std::vector<std::string> rejected;
  /// The last overflow's message, for an error when nothing fitted.
  std::string lastOverflow;
};

/// Enumerates block sizes for `parameters` (kind as for proposeBlockSizes),
/// lowers and compiles each with `lower`, scores the programs with
/// estimateCost and returns the cheapest. `function` is null when no candidate
/// fits the scratchpad (then `rejected` lists them all); `nearTies` holds the
/// other candidates the estimate cannot tell from it. The candidates are
/// compiled on up to `threads` threads, `lower` called from each (so it must
/// be safe to call concurrently); the choice does not depend on the count.
TilingChoice searchBlockSizes(std::string_view kind, const std::vector<BlockParameter> &parameters,
                              const config::HardwareConfig &machine, const LowerCandidate &lower,
                              const std::map<std::string, int64_t> &scalarArguments = {}, int threads = 1);

/// Program instances of a launch with these block sizes: the product over the
/// non-reduction parameters of ceil(numel / block).
int64_t instancesOf(const std::vector<BlockParameter> &parameters, const BlockChoice &choice);

/// The most elements the search lets one tile (the product of the block sizes)
/// have on `machine`.
int64_t largestTileElements(const config::HardwareConfig &machine);

} // namespace npusim::compiler
