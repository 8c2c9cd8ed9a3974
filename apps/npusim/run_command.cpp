// npusim run BUNDLE: a captured model, step by step, on the reference
// interpreter and the library-call implementations, optionally verified.
#include "cli.h"
#include "outputs.h"
#include "progress.h"

#include "config/hardware.h"
#include "core/error.h"
#include "core/output_file.h"
#include "report/run_page.h"
#include "runtime/drift.h"
#include "runtime/loader.h"
#include "runtime/mapping_file.h"
#include "runtime/runner.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

namespace npusim::cli {

const char *const kRunUsage =
    R"(usage: npusim run BUNDLE [--mode full|timing|functional|reference] [--config CFG]
                  [--verify] [--report OUT.json] [--trace OUT.json] [--mapping FILE.json]
                  [--mapping-strategy NAME] [--gemm-kernel NAME] [--conv-kernel NAME]
                  [--attention-kernel NAME] [--top N] [--threads N]
                  [--html OUT.html] [--quiet] [--set NAME=VALUE,...]

Runs a captured model bundle (docs/bundle-format.md) step by step. Inputs are
regenerated from the bundle's seed. Every kernel launch and library call (aten.mm,
aten.convolution, attention, ...) is compiled for the NPU and run there:

  full        values on the functional simulator and cycles on the timing simulator (default)
  timing      cycles only: values are computed only where they steer the timing (gathered
              addresses, data-dependent control flow) and in the steps those read from; the
              report says which and why
  functional  values only
  reference   the reference interpreter and npusim's host implementations of library calls

options:
  --config CFG        the NPU: a preset name (npusim presets) or a YAML file; default tpuv3-like
  --verify            after every step compare the written tensors with the bundle's
                      fingerprints (stop at the first divergence), and at the end compare
                      the outputs with the reference values (rtol = atol = 1e-4, integers
                      exact); in the functional and full modes also compare every buffer a
                      step writes with the reference interpreter (or host call) run
                      on the same inputs, stopping at the first divergence; a
                      fingerprint divergence on inputs that earlier steps computed is
                      allowed for what their measured drift can explain (the run is
                      repeated; a "drift:" line lists such steps)
  --report OUT.json   write a JSON report: every step's kind, name, wall time, result and,
                      on the NPU, block sizes, cycles, unit utilisation, DRAM traffic and
                      roofline; totals; peak memory
  --trace OUT.json    write a Chrome/Perfetto trace of the timed run (timing and full modes)
  --mapping FILE.json tiles for the library GEMMs and convolutions by GEMM shape:
                      {"M_N_K": {"TILE_M": 512, "TILE_N": 128, "TILE_K": 128}}; other shapes
                      use the mapping strategy (docs/library-kernels.md)
  --mapping-strategy NAME  how the library GEMMs and convolutions choose their tiles:
                      search (default: ranked by the cost model), first_fit (the
                      largest tiles that fit, no cost model), or any other registered
                      strategy
  --gemm-kernel NAME  the kernel of mm, addmm, bmm and baddbmm: tiled, resident,
                      pipelined, deep-k or vector (a call it cannot run goes to the host); default: each
                      distinct call timed with every kernel that can run it, the
                      fastest kept
  --conv-kernel NAME  the kernel of aten.convolution: implicit (the one the layer's
                      shape selects), shifted or window (stride-1 same-size
                      layers of one group, channels-last or NCHW), relayout or relayout-window (operands
                      that are not channels-last, and the pixels a 1x1 layer with
                      a stride reads, turned into scratch buffers around the
                      channels-last kernel the shape selects, or the window kernel);
                      layers a kernel cannot run go to the host; default: timed
                      like the GEMMs'
  --attention-kernel NAME  the kernel of the attention calls: rows (the scores by
                      query rows) or columns (transposed: queries on the lanes);
                      default: timed like the GEMMs'
  --all-timed         (timing and full) fail, listing them, when steps ran on the
                      host, where they take no cycles
  --top N             print the N steps with the most cycles, each with its share of the
                      total, its time over the roofline (compute against the bytes it
                      cannot avoid), its DRAM bytes over those, and what bounds it (timing and full;
                      default 5)
  --html OUT.html     write one self-contained page: summary, sortable step table, roofline,
                      unit utilisation and DRAM bandwidth over time, verification
  --quiet             no progress line (it shows only when stderr is a terminal)
  --threads N         threads to use, default the machine's cores: with two or more, the
                      timing and full modes time launches on threads of their own while
                      the next one runs on the functional simulator (the same values and
                      cycles with any N)
  --set NAME=VALUE,... bind a bundle's dynamic sizes (docs/bundle-format.md, "Dynamic
                      sizes"; default: the captured values); a name the bundle does not
                      have, a value outside its range or failing a guard is an error.
                      Away from the captured values the bundle's fingerprints do not
                      apply: --verify compares the NPU with npusim's reference only
  --help              show this help

exit status: 0 the bundle ran (and, with --verify, matched); 1 the bundle, the config is
malformed, a step failed or a result diverged; 2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kRunOptions[] = {
    {"--mode", true, false},    {"--verify", false, false},
    {"--report", true, false},  {"--config", true, false},
    {"--trace", true, false},   {"--mapping", true, false},
    {"--top", true, false},     {"--mapping-strategy", true, false},
    {"--threads", true, false}, {"--html", true, false},
    {"--quiet", false, false},  {"--gemm-kernel", true, false},
    {"--conv-kernel", true, false},  {"--attention-kernel", true, false},
    {"--all-timed", false, false}, {"--set", true, false},
};

/// The report JSON, with the machine's summary and roofs on the NPU modes.
nlohmann::json reportDocument(const runtime::RunReport &report, const std::string &bundle,
                              const config::HardwareConfig &machine) {
  nlohmann::json doc = nlohmann::json::parse(runtime::reportJson(report, bundle));
  if (report.mode != runtime::Mode::Reference)
    doc["machine_config"] = report::machineJson(machine);
  return doc;
}

/// The value of an option that takes a positive integer.
long long positiveInteger(const char *option, const std::string &text) {
  size_t used = 0;
  long long value = -1;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used != text.size() || value < 1)
    throw UsageError(std::string(option) + " expects a positive integer, got '" + text + "'");
  return value;
}

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", ms);
  return text;
}

/// The end of the verification line, and lines naming what the optimizer's bound
/// judged (docs/bundle-format.md, "Optimizer steps").
void printOptimizerBound(const runtime::OptimizerBoundReport &b, std::ostream &out) {
  if (b.optimizer.empty()) {
    out << ")\n";
    return;
  }
  const std::string rule = b.optimizer == "adamw" ? "AdamW" : "Adam";
  out << "; " << b.withinRounding() << " elements of " << b.parametersWithinRounding() << " parameters judged by the "
      << rule << " bound: gradient within rounding of zero";
  if (b.epsRegime() > 0)
    out << "; " << b.epsRegime() << " elements within Adam's eps-regime allowance";
  out << ")\n";
  size_t unmeasured = 0;
  for (const runtime::OptimizerBoundReport::Parameter &p : b.parameters) {
    unmeasured += p.measured ? 0 : 1;
    if (p.withinRounding == 0 && p.epsRegime == 0)
      continue;
    out << "  " << b.optimizer << " bound: " << p.name << ": " << p.withinRounding << " of " << p.elements
        << " elements within rounding of zero";
    if (!p.withinRoundingIndices.empty()) {
      // The first 16 here; the report lists 64.
      const size_t listed = std::min<size_t>(p.withinRoundingIndices.size(), 16);
      out << " (";
      for (size_t i = 0; i < listed; ++i)
        out << (i ? " " : "") << p.withinRoundingIndices[i];
      out << (static_cast<int64_t>(listed) < p.withinRounding ? " ...)" : ")");
    }
    if (p.epsRegime > 0)
      out << ", " << p.epsRegime << " within the eps-regime allowance";
    out << "\n";
  }
  if (unmeasured > 0)
    out << "  " << b.optimizer << " bound: " << unmeasured << " of " << b.parameters.size()
        << " parameters not measured (no fingerprint or output of their exp_avg after the step): the fixed tolerance\n";
  for (const std::string &why : b.notCovered)
    out << "  " << b.optimizer << " bound: not applied to " << why << "\n";
}

/// The run's energy (docs/energy.md): totals, power, the parts' shares, and
/// what the table could not price, loudly.
void printEnergy(std::ostream &out, const runtime::RunReport &r) {
  const energy::Energy &e = r.totalEnergy;
  char line[256];
  std::snprintf(line, sizeof line, "energy: table=%s%s total_uj=%.3f dynamic_uj=%.3f static_uj=%.3f average_w=%.3f",
                r.energyTable.c_str(), r.energyClockGating ? " (clock gating)" : "", e.totalPj() * 1e-6,
                e.dynamicTotalPj() * 1e-6, e.staticTotalPj() * 1e-6, e.averageWatts());
  out << line;
  if (!r.steps.empty()) {
    std::snprintf(line, sizeof line, " peak_step_w=%.3f (step %zu)", r.peakStepWatts, r.peakPowerStep);
    out << line;
  }
  if (r.tokens && r.energyPerTokenUj) {
    std::snprintf(line, sizeof line, " tokens%s=%lld energy_per_token_uj=%.6f", r.tokensTrained ? "_trained" : "",
                  static_cast<long long>(*r.tokens), *r.energyPerTokenUj);
    out << line;
  }
  out << "\n  shares:";
  const double total = e.totalPj();
  for (int k = 0; k < energy::kNumParts; ++k) {
    const auto part = static_cast<energy::Part>(k);
    std::snprintf(line, sizeof line, " %s %.1f%%", std::string(energy::partName(part)).c_str(),
                  total > 0 ? 100.0 * e.partPj(part) / total : 0.0);
    out << line;
  }
  out << "\n";
  if (e.unpricedMacs > 0)
    out << "energy: " << e.unpricedMacs << " MACs of dtypes table " << r.energyTable
        << " has no mac_pj figure for are charged nothing\n";
  if (!r.tokensAbsent.empty())
    out << "energy: no energy per token: " << r.tokensAbsent << "\n";
  if (e.requestsWithoutRowStatistics > 0)
    out << "energy: " << e.requestsWithoutRowStatistics
        << " DRAM requests ran on a model without row statistics: their activations are not charged\n";
}

void printSummary(const std::string &bundle, const runtime::RunReport &r, std::ostream &out) {
  out << "bundle " << bundle << ": " << r.steps.size() << " of " << r.totalSteps << " steps ran ("
      << r.launches << " launches, " << r.calls << " calls), " << r.kernels << " kernels ("
      << r.compiledKernels << " compiled), wall_ms=" << milliseconds(r.wallMs) << " (launches "
      << milliseconds(r.launchMs) << ", calls " << milliseconds(r.callMs) << ", lowering "
      << milliseconds(r.lowerMs) << "), peak_rss_kib=" << r.peakRssKiB << "\n";
  if (!r.sizes.symbols.empty()) {
    // docs/bundle-format.md, "Dynamic sizes".
    out << "sizes: " << r.sizes.describe() << " ("
        << (r.sizes.atCaptured ? "the captured sizes"
            : r.sizes.recorded ? "recorded at capture too: the device's fingerprints of these sizes apply"
                               : "not the captured sizes: no device fingerprints here, verification is the NPU "
                                 "against npusim's reference")
        << "); " << r.sizes.guardsChecked << " guards checked";
    if (!r.sizes.guardsNotChecked.empty()) {
      out << ", " << r.sizes.guardsNotChecked.size() << " NOT checked (a form npusim cannot evaluate):";
      for (const std::string &g : r.sizes.guardsNotChecked)
        out << " '" << g << "'";
    }
    out << "\n";
  }
  if (r.mode != runtime::Mode::Reference) {
    int64_t hostCalls = 0, valueSteps = 0;
    for (const runtime::StepResult &s : r.steps) {
      hostCalls += s.executedOn == "host" ? 1 : 0;
      valueSteps += s.valuesComputed ? 1 : 0;
    }
    out << "npu: mode=" << runtime::name(r.mode) << " machine=" << r.machine
        << " compile_ms=" << milliseconds(r.compileMs) << " near_tie_launches=" << r.nearTieLaunches
        << " near_tie_timings=" << r.nearTieTimings << " kernel_rankings=" << r.kernelRankings;
    if (r.mode == runtime::Mode::Timing || r.mode == runtime::Mode::Full)
      out << " cycles=" << r.totalCycles << " time_us=" << milliseconds(r.totalTimeUs)
          << " timing_ms=" << milliseconds(r.timingMs) << " threads=" << r.threads;
    if (r.mode == runtime::Mode::Timing)
      out << " steps_with_values=" << valueSteps << " held_storage_bytes=" << r.heldStorageBytes << " of "
          << r.storageBytes;
    if (r.verify)
      out << " buffers_compared_with_reference=" << r.buffersCompared
          << " reference_ms=" << milliseconds(r.npuCheckMs);
    out << " host_calls=" << hostCalls << "\n";
    if (r.mode == runtime::Mode::Timing || r.mode == runtime::Mode::Full)
      printEnergy(out, r);
    // Instructions the streamed timing appended too late to be sure of their
    // start (docs/timing.md, "Memory of a launch"): those steps' cycles may
    // differ from their launches timed whole, so say which.
    if (r.lateInstructions > 0) {
      out << "late: " << r.lateInstructions << (r.lateInstructions == 1 ? " instruction" : " instructions")
          << " started later than with every instance appended before the launch began; the cycles of";
      for (const runtime::StepResult &s : r.steps)
        if (s.timed && s.timing.lateInstructions > 0)
          out << " step " << s.index << " " << s.name << " (" << s.timing.lateInstructions << ");";
      out << " may differ\n";
    }
    // A step on the host takes no simulated time: say which, loudly.
    if (hostCalls > 0 && (r.mode == runtime::Mode::Timing || r.mode == runtime::Mode::Full)) {
      out << "untimed: " << hostCalls
          << (hostCalls == 1 ? " step ran on the host and takes" : " steps ran on the host and take")
          << " no cycles:";
      for (const runtime::StepResult &s : r.steps)
        if (s.executedOn == "host")
          out << " step " << s.index << " " << s.name << ";";
      out << "\n";
    }
  }
  if (!r.verify) {
    out << "verification: off (give --verify)" << (r.failure.empty() ? "" : "; the run failed") << "\n";
    return;
  }
  size_t outputsOk = 0;
  for (const runtime::OutputResult &o : r.outputs)
    outputsOk += o.result == runtime::Outcome::Verified ? 1 : 0;
  out << "verification: " << (r.verified ? "passed" : "FAILED") << " (" << r.fingerprintsCompared
      << (r.fingerprintSource == "npusim-reference" ? " fingerprints (from npusim's reference) compared, "
                                                    : " fingerprints compared, ")
      << r.fingerprintsSkipped << " skipped as unspecified; ";
  if (r.completed && !r.sizes.hasFingerprints())
    out << "outputs not compared: no reference values at " << r.sizes.describe()
        << "; every step's NPU buffers compared with npusim's reference";
  else if (r.completed)
    out << outputsOk << " of " << r.outputs.size() << " outputs match";
  else
    out << "outputs not compared";
  printOptimizerBound(r.optimizerBound, out);
  for (const runtime::DerivedBoundUse &u : r.derivedBounds) {
    // docs/bundle-format.md, "Derived bounds of library calls".
    out << "derived bound: step " << u.step << " (" << u.op << "): " << u.samplesWithinAllowance
        << " samples matched within the " << u.what << " bound";
    if (u.what == "LayerNorm")
      out << "; " << u.constantRows << " of " << u.rows << " rows constant within rounding";
    out << "\n";
  }
  if (!r.stepsWithinDrift.empty()) {
    // docs/bundle-format.md, "Drift analysis".
    out << "drift: " << r.stepsWithinDrift.size() << " steps matched with their inputs' drift allowed for:";
    for (size_t step : r.stepsWithinDrift)
      out << " " << step;
    out << "\n";
    for (size_t step : r.stepsWithinDrift)
      out << "  step " << step << " (" << r.steps[step].name << "): " << r.steps[step].message << "\n";
  }
  if (r.npuChainLeftDevice) {
    // docs/bundle-format.md, "When the NPU chain leaves the device's".
    out << "chain: the NPU's values left the device's fingerprints at step " << *r.npuChainLeftDevice
        << "; the run was judged by the reference chain against the device and by every NPU step against "
           "the reference on the same inputs\n  "
        << r.npuChainNote << "\n";
  }
}

/// The `count` timed steps with the most cycles, costliest first.
void printTopSteps(const runtime::RunReport &r, size_t count, std::ostream &out) {
  std::vector<const runtime::StepResult *> timed;
  for (const runtime::StepResult &s : r.steps)
    if (s.timed)
      timed.push_back(&s);
  std::stable_sort(timed.begin(), timed.end(),
                   [](const runtime::StepResult *a, const runtime::StepResult *b) {
                     return a->timing.cycles > b->timing.cycles;
                   });
  timed.resize(std::min(count, timed.size()));
  out << "top " << timed.size() << " steps by cycles:\n";
  for (const runtime::StepResult *s : timed) {
    char line[128];
    const double share =
        r.totalCycles > 0 ? 100.0 * static_cast<double>(s->timing.cycles) / static_cast<double>(r.totalCycles)
                          : 0.0;
    const int64_t moved = s->timing.dramBytesRead + s->timing.dramBytesWritten;
    const double traffic = s->timing.compulsoryBytes > 0 ? static_cast<double>(moved) /
                                                               static_cast<double>(s->timing.compulsoryBytes)
                                                         : 0.0;
    std::snprintf(line, sizeof line, "  %5zu %12lld cycles %5.1f%% %8.2fx roofline %6.2fx bytes  ", s->index,
                  static_cast<long long>(s->timing.cycles), share, s->timing.boundRatio, traffic);
    out << line << runtime::stepBound(s->timing) << "  " << s->name;
    if (!s->blockSizes.empty())
      out << " (" << s->blockSizes << ")";
    out << "\n";
  }
}

} // namespace

int runRun(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kRunOptions, "run");
  if (options.help) {
    out << kRunUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "run needs a bundle directory"
                                                 : "run takes one bundle directory");
  runtime::RunOptions runOptions;
  runOptions.mode = runtime::Mode::Full;
  if (auto mode = options.get("--mode")) {
    if (*mode == "functional")
      runOptions.mode = runtime::Mode::Functional;
    else if (*mode == "timing")
      runOptions.mode = runtime::Mode::Timing;
    else if (*mode == "full")
      runOptions.mode = runtime::Mode::Full;
    else if (*mode == "reference")
      runOptions.mode = runtime::Mode::Reference;
    else
      throw UsageError("--mode expects full, timing, functional or reference, got '" + *mode + "'");
  }
  runOptions.verify = options.has("--verify");
  if (runOptions.verify && runOptions.mode == runtime::Mode::Timing)
    throw UsageError("--verify needs values: use --mode full (values and cycles) or functional");
  if (auto trace = options.get("--trace")) {
    if (runOptions.mode != runtime::Mode::Timing && runOptions.mode != runtime::Mode::Full)
      throw UsageError("--trace needs cycles: use --mode full or timing");
    runOptions.tracePath = *trace;
  }
  const bool timed = runOptions.mode == runtime::Mode::Timing || runOptions.mode == runtime::Mode::Full;
  size_t top = timed ? 5 : 0;
  if (auto text = options.get("--top")) {
    if (runOptions.mode != runtime::Mode::Timing && runOptions.mode != runtime::Mode::Full)
      throw UsageError("--top needs cycles: use --mode full or timing");
    top = static_cast<size_t>(positiveInteger("--top", *text));
  }
  if (auto strategy = options.get("--mapping-strategy")) {
    const std::vector<std::string> known = runtime::mappingStrategies();
    if (std::find(known.begin(), known.end(), *strategy) == known.end()) {
      std::string names;
      for (const std::string &n : known)
        names += (names.empty() ? "" : ", ") + n;
      throw UsageError("--mapping-strategy: '" + *strategy + "' is not a registered mapping strategy (" +
                       names + ")");
    }
    runOptions.mappingStrategy = *strategy;
  }
  auto namesOf = [](const std::vector<std::string> &known) {
    std::string names;
    for (const std::string &n : known)
      names += (names.empty() ? "" : ", ") + n;
    return names;
  };
  if (auto kernel = options.get("--gemm-kernel")) {
    const std::vector<std::string> known = runtime::gemmKernels();
    if (std::find(known.begin(), known.end(), *kernel) == known.end())
      throw UsageError("--gemm-kernel expects one of " + namesOf(known) + ", got '" + *kernel + "'");
    runOptions.gemmKernel = *kernel;
  }
  if (auto kernel = options.get("--conv-kernel")) {
    const std::vector<std::string> known = runtime::convKernels();
    if (std::find(known.begin(), known.end(), *kernel) == known.end())
      throw UsageError("--conv-kernel expects one of " + namesOf(known) + ", got '" + *kernel + "'");
    runOptions.convKernel = *kernel;
  }
  if (auto kernel = options.get("--attention-kernel")) {
    const std::vector<std::string> known = runtime::attentionKernels();
    if (std::find(known.begin(), known.end(), *kernel) == known.end())
      throw UsageError("--attention-kernel expects one of " + namesOf(known) + ", got '" + *kernel + "'");
    runOptions.attentionKernel = *kernel;
  }
  if (auto text = options.get("--threads"))
    runOptions.threads = static_cast<int>(std::min<long long>(positiveInteger("--threads", *text), 1024));
  const std::string bundle = options.positionals.front();
  OutputFiles outputs;
  for (const char *option : {"--report", "--html", "--trace"})
    outputs.add(options, option);
  if (!outputs.check(bundle, err))
    return kExitError;
  try {
    runOptions.machine = machineOption(options);
    if (auto mapping = options.get("--mapping"))
      runOptions.mapping = runtime::loadMapping(*mapping);
    runtime::SizeBinding sizes;
    if (auto set = options.get("--set"))
      sizes = runtime::parseSizeBinding(*set, "--set");
    runtime::Bundle loaded = runtime::loadBundle(bundle, sizes);
    ProgressLine progress(err, !options.has("--quiet"));
    if (progress.shown())
      runOptions.onStep = [&progress](size_t step, size_t steps, const std::string &name) {
        progress.update(step, steps, "step " + std::to_string(step) + " " + name);
      };
    const runtime::RunReport report = runtime::runBundleAllowingDrift(loaded, runOptions);
    progress.clear();
    printSummary(bundle, report, out);
    if (top > 0)
      printTopSteps(report, top, out);
    if (options.has("--report") || options.has("--html")) {
      const nlohmann::json doc = reportDocument(report, bundle, runOptions.machine);
      outputs.write(
          "--report",
          [&doc](const std::string &path) {
            core::writeFileAtomically(
                path, doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                "--report " + path);
          },
          bundle, err);
      outputs.write(
          "--html", [&doc](const std::string &path) { report::runPage(doc).write(path, "--html " + path); },
          bundle, err);
    }
    if (report.traceEventsDropped > 0)
      err << bundle << ": note: "
          << traceCapNote(*options.get("--trace"), report.traceEventsKept, report.traceEventsDropped) << "\n";
    if (!report.failure.empty())
      err << bundle << ": error: " << report.failure << "\n";
    bool untimed = false;
    if (options.has("--all-timed") &&
        (runOptions.mode == runtime::Mode::Timing || runOptions.mode == runtime::Mode::Full))
      for (const runtime::StepResult &s : report.steps)
        if (s.executedOn == "host") {
          err << bundle << ": error: --all-timed: step " << s.index << " " << s.name
              << " ran on the host and takes no cycles (" << s.message << ")\n";
          untimed = true;
        }
    return report.failure.empty() && !outputs.failed() && !untimed ? kExitOk : kExitError;
  } catch (const std::exception &e) {
    err << bundle << ": error: " << e.what() << "\n";
  } catch (...) {
    err << bundle << ": error: internal error (unknown exception)\n";
  }
  return kExitError;
}

} // namespace npusim::cli
