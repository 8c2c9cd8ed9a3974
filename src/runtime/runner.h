#pragma once
// Running a bundle on the reference interpreter: storages, generated inputs,
// then every step in order (a launch on the interpreter, a call on the library
// implementations), with optional verification against the bundle's
// fingerprints and reference outputs.
#include "runtime/bundle.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::runtime {

struct RunOptions {
  /// Compare every fingerprint after its step (stopping at the first
  /// divergence) and the model's outputs at the end.
  bool verify = false;
};

/// What became of one step.
struct StepResult {
  size_t index = 0;
  std::string kind; // "launch" or "call"
  std::string name; // kernel or operator
  double wallMs = 0.0;
  int64_t programs = 0; // launches: program instances run
  int64_t fingerprintsCompared = 0;
  int64_t fingerprintsSkipped = 0; // results whose values PyTorch leaves unspecified
  /// "ok" (ran), "verified" (every fingerprint matched), "unverified" (verify,
  /// but the step has no fingerprints), "diverged" or "error".
  std::string result;
  std::string message; // for "diverged", "error" and skipped fingerprints
};

struct OutputResult {
  std::string name;
  std::string result; // "verified", "diverged" (or "unchecked" without --verify)
  std::string message;
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
  bool verify = false;
  bool completed = false; // every step ran (and, with verify, matched its fingerprints)
  bool verified = false;  // verify and nothing diverged
  std::string failure;    // the first error or divergence
};

/// Runs the bundle. Errors in a step (a failed launch, an unimplemented or
/// ill-formed call) and divergences end the run; they are reported in the
/// result (failure, and the step's result), not thrown.
RunReport runBundle(const Bundle &bundle, const RunOptions &options);

/// The report as JSON (docs/cli.md, "run"). Throws core::InputError naming the
/// file when it cannot be written.
void writeReport(const RunReport &report, const std::string &bundleName, const std::string &path);

} // namespace npusim::runtime
