// npusim run BUNDLE: a captured model, step by step, on the reference
// interpreter and the library-call implementations, optionally verified.
#include "cli.h"

#include "core/error.h"
#include "runtime/loader.h"
#include "runtime/runner.h"

#include <cstdio>
#include <ostream>

namespace npusim::cli {

const char *const kRunUsage =
    R"(usage: npusim run BUNDLE [--mode reference] [--verify] [--report OUT.json]
                  [--config CFG] [--trace OUT.json]

Runs a captured model bundle (docs/bundle-format.md) step by step: kernel launches on
the reference interpreter, library calls (aten.mm, aten.convolution, attention, ...) on
npusim's implementations of them. Inputs are regenerated from the bundle's seed.

options:
  --verify            after every step compare the written tensors with the bundle's
                      fingerprints (stop at the first divergence), and at the end compare
                      the outputs with the reference values (rtol = atol = 1e-4, integers exact)
  --report OUT.json   write a JSON report: every step's kind, name, wall time and result,
                      totals, peak memory
  --mode MODE         reference (the only mode until the NPU compiler is built)
  --config, --trace   not available yet (the hardware configurations and the timing
                      simulator are not built)
  --help              show this help

exit status: 0 the bundle ran (and, with --verify, matched); 1 the bundle is malformed, a
step failed or a result diverged; 2 the command line is wrong or the mode is not available.
)";

namespace {

constexpr OptionSpec kOptions[] = {
    {"--mode", true, false},   {"--verify", false, false}, {"--report", true, false},
    {"--config", true, false}, {"--trace", true, false},
};

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", ms);
  return text;
}

void printSummary(const std::string &bundle, const runtime::RunReport &r, std::ostream &out) {
  out << "bundle " << bundle << ": " << r.steps.size() << " of " << r.totalSteps << " steps ran ("
      << r.launches << " launches, " << r.calls << " calls), " << r.kernels << " kernels ("
      << r.compiledKernels << " compiled), wall_ms=" << milliseconds(r.wallMs) << " (launches "
      << milliseconds(r.launchMs) << ", calls " << milliseconds(r.callMs) << ", lowering "
      << milliseconds(r.lowerMs) << "), peak_rss_kib=" << r.peakRssKiB << "\n";
  if (!r.verify) {
    out << "verification: off (give --verify)" << (r.failure.empty() ? "" : "; the run failed") << "\n";
    return;
  }
  size_t outputsOk = 0;
  for (const runtime::OutputResult &o : r.outputs)
    outputsOk += o.result == "verified" ? 1 : 0;
  out << "verification: " << (r.verified ? "passed" : "FAILED") << " (" << r.fingerprintsCompared
      << " fingerprints compared, " << r.fingerprintsSkipped << " skipped as unspecified; ";
  if (r.completed)
    out << outputsOk << " of " << r.outputs.size() << " outputs match)\n";
  else
    out << "outputs not compared)\n";
}

} // namespace

int runRun(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kOptions, "run");
  if (options.help) {
    out << kRunUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 1)
    throw UsageError(options.positionals.empty() ? "run needs a bundle directory"
                                                 : "run takes one bundle directory");
  if (auto mode = options.get("--mode")) {
    if (*mode == "functional" || *mode == "timing" || *mode == "full")
      throw NotAvailableError("--mode " + *mode + ": not available yet: the NPU compiler is not built");
    if (*mode != "reference")
      throw UsageError("--mode expects reference, functional, timing or full, got '" + *mode + "'");
  }
  if (options.has("--config"))
    throw NotAvailableError("--config: not available yet: the hardware presets (src/config) are not built");
  if (options.has("--trace"))
    throw NotAvailableError("--trace: not available yet: the timing simulator is not built");
  const std::string bundle = options.positionals.front();
  runtime::RunOptions runOptions;
  runOptions.verify = options.has("--verify");
  try {
    const runtime::Bundle loaded = runtime::loadBundle(bundle);
    const runtime::RunReport report = runtime::runBundle(loaded, runOptions);
    printSummary(bundle, report, out);
    if (auto path = options.get("--report"))
      runtime::writeReport(report, bundle, *path);
    if (!report.failure.empty()) {
      err << bundle << ": error: " << report.failure << "\n";
      return kExitError;
    }
    return kExitOk;
  } catch (const std::exception &e) {
    err << bundle << ": error: " << e.what() << "\n";
  } catch (...) {
    err << bundle << ": error: internal error (unknown exception)\n";
  }
  return kExitError;
}

} // namespace npusim::cli
