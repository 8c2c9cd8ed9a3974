#pragma once
// Running a bundle: storages, generated inputs, then every step in order. In
// reference mode a launch runs on the interpreter and a call on the library
// implementations; in the NPU modes both are compiled for the NPU and run on
// the functional simulator (values), the timing simulator (cycles) or both.
// Verification compares with the bundle's fingerprints and reference outputs,
// and in the NPU modes every written buffer with the reference interpreter.
#include "config/hardware.h"
#include "energy/energy.h"
#include "library/library.h"
#include "npu/execution.h"
#include "reference/interpreter.h"
#include "runtime/bundle.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::runtime {

enum class Mode : uint8_t {
  Reference,  // the interpreter and the host calls
  Functional, // NPU programs on the functional simulator: values
  Timing,     // NPU programs on the timing simulator; values only where they steer it
  Full,       // values and cycles in one run
};
const char *name(Mode mode);

struct RunOptions {
  /// Compare every fingerprint after its step (stopping at the first
  /// divergence) and the model's outputs at the end; in the functional and
  /// full modes also every buffer each step writes against the reference
  /// interpreter (or host call) on the same inputs.
  bool verify = false;
  Mode mode = Mode::Reference;
  config::HardwareConfig machine; // the NPU modes' machine
  /// Chrome/Perfetto trace of the timed steps (timing and full modes); empty: none.
  std::string tracePath;
  /// External GEMM tiles for the library calls, by "M_N_K" (--mapping FILE.json).
  std::map<std::string, library::GemmTiles> mapping;
  /// The mapping strategy of the shapes `mapping` does not name (--mapping-strategy NAME).
  std::string mappingStrategy = "search";
  /// The GEMM kernel of mm, addmm, bmm and baddbmm (library::gemmKernels());
  /// empty: in the NPU modes each distinct call is timed with every kernel
  /// that can run it (the timing simulator, from an idle machine) and the
  /// fastest is used (docs/library-kernels.md, "GEMM kernels").
  std::string gemmKernel;
  /// The kernel of aten.convolution (library::convKernels()); empty: timed
  /// like the GEMMs' where more than one can run the layer.
  std::string convKernel;
  /// The kernel of the attention calls (library::attentionKernels()); empty:
  /// timed like the GEMMs'.
  std::string attentionKernel;
  /// Threads the run may use (--threads); 0: the machine's cores. With two or
  /// more, the timing modes time launches on threads of their own while the
  /// next launch runs on the functional simulator. Values and cycles do not
  /// depend on it.
  int threads = 0;
  /// Timing and full modes: when set, every NPU launch's program and
  /// instance traces go here instead of to the timing simulator, in launch
  /// order (the serving module times several bundles together); the steps
  /// then carry no timing. `program` lives only during the call: the traces
  /// point into it.
  std::function<void(const npu::Program &program, std::vector<npu::InstanceTrace> &&traces,
                     const std::string &launchName)>
      launchSink;
  /// Called before each step with its index, the bundle's step count and the
  /// step's kernel or operator (a progress line); empty: nothing is called.
  std::function<void(size_t step, size_t steps, const std::string &name)> onStep;
  /// Timing and full modes: called as the functional simulator finishes each
  /// program instance of a launch, with the instances done and the launch's
  /// total, and once with `timing` set when the launch goes to the timing
  /// simulator (a progress line for one long launch); empty: nothing is called.
  std::function<void(int64_t done, int64_t total, bool timing)> onInstance;
};

/// options.threads, or the machine's cores when it is 0 (at least 1).
int effectiveThreads(const RunOptions &options);

/// Cycles and utilisation of one step on the NPU (timing and full modes).
struct StepTiming {
  int64_t cycles = 0;    // core clock
  double timeUs = 0.0;
  std::vector<std::pair<std::string, double>> unitBusyPercent; // per unit kind, averaged over cores
  int64_t dramBytesRead = 0, dramBytesWritten = 0;
  double achievedGBs = 0.0;
  double rowHitRate = 0.0;
  int64_t macs = 0;
  /// The bound no schedule can beat: the larger of computeUs and the step's
  /// compulsory bytes (runtime/compulsory_bytes.h) at the DRAM's peak.
  double rooflineUs = 0.0;
  double boundRatio = 0.0;  // simulated time / roofline bound
  double memoryUs = 0.0;    // the DRAM bytes the program moved, at the peak bandwidth
  double computeUs = 0.0;   // the arrays' MACs, or the vector elements, at their peak
  int64_t compulsoryBytes = 0; // every input element read once, every output element written once
  /// Instructions its launches appended too late to be sure of their start
  /// (timing::LaunchTiming::lateInstructions): nonzero, the cycles may differ
  /// from the launch timed with every instance appended before it started.
  int64_t lateInstructions = 0;
  /// The step's launches priced by the machine's energy table (docs/energy.md).
  energy::Energy energy;
};

/// What became of a step, or of a model output. The report spells it as
/// name(Outcome) does.
enum class Outcome : uint8_t {
  Ok,         // "ok": the step ran (no verification asked for)
  Verified,   // "verified": every fingerprint (or the output) matched
  Unverified, // "unverified": verification asked for, but the step has no fingerprints
  Unchecked,  // "unchecked": an output, without verification
  Diverged,   // "diverged"
  Error,      // "error": the step failed
};
const char *name(Outcome outcome);

/// What bounds a timed step (docs/cli.md "run"): "DRAM bandwidth", "DMA
/// issue/latency", "systolic fill/drain", "vector", "cross-lane" or "scalar".
std::string stepBound(const StepTiming &timing);

/// What became of one step.
struct StepResult {
  size_t index = 0;
  Step::Kind kind = Step::Kind::Launch;
  std::string name; // kernel or operator
  double wallMs = 0.0;
  int64_t programs = 0; // launches: program instances run
  int64_t fingerprintsCompared = 0;
  int64_t fingerprintsSkipped = 0; // results whose values PyTorch leaves unspecified
  Outcome result = Outcome::Ok;
  std::string message; // for Diverged, Error and skipped fingerprints
  // NPU modes.
  std::string executedOn;  // "npu", or "host" for a call without an NPU implementation
  std::string blockSizes;  // "XBLOCK=1024 (chosen for the machine)"
  int64_t npuLaunches = 0; // NPU program launches the step took (a call may take several)
  bool valuesComputed = true;
  std::string valuesReason; // timing mode: why values were computed
  std::string npuCheck;     // "matches the reference" / the divergence
  StepTiming timing;
  bool timed = false;
};

struct OutputResult {
  std::string name;
  Outcome result = Outcome::Unchecked; // Verified or Diverged with verification
  std::string message;
  /// FNV-1a over the output's elements in row-major order, each as the bytes
  /// of a double (float dtypes) or an int64: equal in two runs that computed
  /// the same output bit for bit.
  uint64_t valuesHash = 0;
};

/// What verification judged by an Adam-family optimizer's bound
/// (docs/bundle-format.md, "Optimizer steps"); empty `optimizer` when the bundle
/// describes none (or verification was off).
struct OptimizerBoundReport {
  std::string optimizer; // model.optimizer's name ("adamw", "adam")
  struct Parameter {
    std::string name;
    int64_t elements = 0;
    /// A fingerprint of its exp_avg, or an output of its storage, measured the
    /// first moment's rounding; without one every element keeps the fixed tolerance.
    bool measured = false;
    /// Elements judged by the bound: first moment (on a first step, the gradient)
    /// within its measured rounding of zero; the first 64 of their logical indices.
    int64_t withinRounding = 0;
    std::vector<int64_t> withinRoundingIndices;
    /// Elements that matched the device or the reference only through the
    /// eps-regime allowance (in some comparison).
    int64_t epsRegime = 0;
  };
  std::vector<Parameter> parameters;   // every parameter with Adam state
  std::vector<std::string> notCovered; // parameters the rule cannot judge, and why

  int64_t withinRounding() const;
  int64_t parametersWithinRounding() const;
  int64_t epsRegime() const;
};

/// A library call whose result was compared with a derived bound's allowance
/// (docs/bundle-format.md, "Derived bounds of library calls"), where it mattered.
struct DerivedBoundUse {
  size_t step = 0;
  std::string op;   // "aten.native_layer_norm"
  std::string what; // "LayerNorm", "softmax"
  int64_t rows = 0;
  int64_t constantRows = 0;           // LayerNorm: rows constant within rounding
  int64_t samplesWithinAllowance = 0; // fingerprint samples that matched only through it
};

struct RunReport {
  std::vector<StepResult> steps; // the steps that ran, the failing one last
  std::vector<OutputResult> outputs;
  size_t totalSteps = 0;
  int64_t launches = 0, calls = 0;
  int64_t kernels = 0;         // distinct kernel files launched
  int64_t compiledKernels = 0; // distinct (kernel file, constexprs) lowered
  int64_t fingerprintsCompared = 0, fingerprintsSkipped = 0;
  double wallMs = 0.0;   // the whole run, setup included
  double launchMs = 0.0; // interpreter time
  double callMs = 0.0;   // library-call time
  double lowerMs = 0.0;  // lowering kernels to TileIR
  int64_t peakRssKiB = 0;
  /// The bundle's storages' bytes, and the bytes whose contents the run held:
  /// all of them, but in timing mode only the storages of the steps that
  /// compute values (StepResult::valuesComputed).
  int64_t storageBytes = 0, heldStorageBytes = 0;
  Mode mode = Mode::Reference;
  std::string machine;    // the NPU modes' configuration name
  int64_t totalCycles = 0; // timing and full modes: the steps' cycles added up
  int64_t lateInstructions = 0; // the steps' StepTiming::lateInstructions added up
  double totalTimeUs = 0.0;
  /// Timing and full modes: the timed steps' energy added up, the table that
  /// priced it (the machine's `energy` key), whether idle units were clock
  /// gated, and the step of the highest average power (docs/energy.md).
  energy::Energy totalEnergy;
  std::string energyTable;
  bool energyClockGating = false;
  double peakStepWatts = 0.0;
  size_t peakPowerStep = 0;
  /// Timing and full modes, a language model only (runtime/tokens.h): the
  /// tokens one run processes and the run's energy over them, uJ; absent for
  /// any other bundle (docs/energy.md, "Energy per token"). A bundle with an
  /// `input_ids` input that is not recognised says why in `tokensAbsent`.
  std::optional<int64_t> tokens;
  std::optional<double> energyPerTokenUj;
  bool tokensTrained = false; // a training step: the tokens are those it trains on
  std::string tokensAbsent;
  double compileMs = 0.0;    // compiling kernels for the NPU
  /// Distinct launches whose block sizes were chosen by timing the search's
  /// near-ties (docs/compiler.md, "Timed near-ties"), and the candidates timed
  /// for them (a repeated launch reuses its choice and counts once).
  int64_t nearTieLaunches = 0, nearTieTimings = 0;
  /// Distinct library calls whose kernel was chosen by timing each kernel
  /// that can run them (docs/library-kernels.md, "GEMM kernels"); a call of
  /// the same shapes on other storages of the same sizes reuses the choice.
  int64_t kernelRankings = 0;
  double timingMs = 0.0;     // CPU time timing launches (timing and full modes), on whichever thread timed them
  int threads = 1;           // the threads the run used (RunOptions::threads resolved)
  double npuCheckMs = 0.0;   // running the reference for the NPU-vs-reference comparison
  /// Instruction events the --trace file kept and left out: it keeps the
  /// first timing::TraceRecorder::kDefaultMaxEvents (docs/timing.md).
  int64_t traceEventsKept = 0, traceEventsDropped = 0;
  int64_t buffersCompared = 0; // NPU-vs-reference buffer comparisons
  bool verify = false;
  std::string fingerprintSource; // the bundle's fingerprint_source: what verify compares with
  /// The bundle's dynamic sizes as this run bound them (runtime/sizes.h; empty
  /// symbols: static sizes). Away from the captured values there are no
  /// fingerprints: verification is the NPU against npusim's reference.
  SizeSummary sizes;
  /// Steps whose fingerprints matched only with the drift analysis's allowance
  /// (runBundleAllowingDrift, runtime/drift.h), in step order; their results'
  /// messages say by how much.
  std::vector<size_t> stepsWithinDrift;
  /// NPU modes: the step where the chain of NPU values left the device's
  /// fingerprints beyond what the drift analysis allows, while the reference
  /// chain matched them (runBundleAllowingDrift, runtime/drift.h); the run was
  /// then judged by the reference chain against the device and by every NPU
  /// step against the reference on the same inputs. `npuChainNote` is the
  /// divergence as that step reported it. Absent when the NPU chain kept to them.
  std::optional<size_t> npuChainLeftDevice;
  std::string npuChainNote;
  OptimizerBoundReport optimizerBound;
  /// Steps where a derived bound of a library call mattered, in step order.
  std::vector<DerivedBoundUse> derivedBounds;
  bool completed = false; // every step ran (and, with verify, matched its fingerprints)
  bool verified = false;  // verify and nothing diverged
  std::string failure;    // the first error or divergence
};

/// Runs the bundle. Errors in a step (a failed launch, an unimplemented or
/// ill-formed call) and divergences end the run; they are reported in the
/// result (failure, and the step's result), not thrown.
RunReport runBundle(const Bundle &bundle, const RunOptions &options);

/// The same on the caller's storages, one per bundle storage (its dtype and
/// element count), as they are: no input is generated and no storage filled,
/// and every step's results stay in them (the Python API's run_graph). A
/// mismatched storage ends the run before any step, named in the failure.
RunReport runBundle(const Bundle &bundle, const RunOptions &options,
                    std::vector<std::unique_ptr<reference::Buffer>> &storages);

/// A timed step's "timing" object of the report (docs/cli.md, "run") as JSON
/// text: cycles, time, unit busy percentages, DRAM traffic, roofline, bound.
std::string timingJson(const StepTiming &timing);

/// The report as JSON text (docs/cli.md, "run"): what writeReport writes, and
/// what the Python API's run_bundle returns as a dict.
std::string reportJson(const RunReport &report, const std::string &bundleName);

/// The report as JSON (docs/cli.md, "run"). Throws core::InputError naming the
/// file when it cannot be written.
void writeReport(const RunReport &report, const std::string &bundleName, const std::string &path);

/// The mode spelled as name(Mode) spells it ("full", "timing", "functional",
/// "reference"), or nothing for any other text.
std::optional<Mode> parseMode(std::string_view text);

} // namespace npusim::runtime
