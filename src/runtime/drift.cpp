#include "runtime/drift.h"

#include "core/error.h"
#include "core/text_format.h"
#include "reference/host_calls.h"
#include "runtime/fingerprint.h"
#include "runtime/generator.h"
#include "runtime/optimizer_bound.h"
#include "runtime/runner_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

namespace npusim::runtime {

namespace {

using Storages = std::vector<std::unique_ptr<reference::Buffer>>;

/// The bundle's storages as a run starts: inputs generated, the others
/// poisoned (NaN, 0x5A bytes) as the runner poisons them.
Storages freshStorages(const Bundle &bundle) {
  Storages storages;
  for (const Storage &s : bundle.storages) {
    auto b = std::make_unique<reference::Buffer>();
    b->name = "storage " + std::to_string(s.id);
    b->dtype = s.dtype;
    b->bytes.resize(static_cast<size_t>(s.elements) * static_cast<size_t>(core::byteSize(s.dtype)));
    if (core::isFloat(s.dtype))
      reference::fillView(wholeStorage(*b), std::numeric_limits<double>::quiet_NaN());
    else
      std::fill(b->bytes.begin(), b->bytes.end(), uint8_t{0x5a});
    storages.push_back(std::move(b));
  }
  for (const Input &in : bundle.inputs)
    fillInput(*storages[static_cast<size_t>(in.tensor.storage)], in.init, bundle.seed);
  return storages;
}

/// Steps [begin, end) of `bundle` without outputs (and, unless kept, without
/// fingerprints): what a run on given storages needs to advance them.
Bundle slice(const Bundle &bundle, size_t begin, size_t end, bool keepFingerprints) {
  Bundle s;
  s.dir = bundle.dir;
  s.graphFile = bundle.graphFile;
  s.seed = bundle.seed;
  s.fingerprintSource = bundle.fingerprintSource;
  s.optimizer = bundle.optimizer;
  s.storages = bundle.storages;
  s.inputs = bundle.inputs;
  s.steps.assign(bundle.steps.begin() + static_cast<std::ptrdiff_t>(begin),
                 bundle.steps.begin() + static_cast<std::ptrdiff_t>(end));
  if (!keepFingerprints)
    for (Step &step : s.steps)
      step.fingerprints.clear();
  return s;
}

/// The drift of one storage as its last writer's fingerprints measure it,
/// and the scale (mean |device value|) it is relative to.
struct StorageDrift {
  double drift = 0.0;
  double scale = 0.0;
};

/// The drift of `storage` just after `writer` wrote it, at the samples of the
/// writer's fingerprints of it (the largest over them); nothing when the writer
/// has no fingerprint of it.
std::optional<StorageDrift> measureDrift(const Step &writer, int64_t storage, const Storages &storages) {
  std::optional<StorageDrift> d;
  for (const Fingerprint &f : writer.fingerprints) {
    const TensorRef *target = fingerprintTarget(writer, f);
    if (!target || target->storage != storage || f.elements <= 0)
      continue;
    const MeasuredDrift m = runtime::measureDrift(viewOf(storages, *target), f);
    if (!d)
      d = StorageDrift{};
    d->scale = std::max(d->scale, m.scale);
    d->drift = std::max(d->drift, m.drift);
  }
  return d;
}

/// x + drift * (|x| + scale) * r. In the odd perturbations r is uniform in
/// [-1, 1) from the bundle generator (seed: the perturbation, stream: the
/// storage), element by element. In the even ones it is one sign for the
/// whole storage (the generator's first draw): a different rounding upstream
/// (another reduction order) moves whole rows and channels together, and the
/// independent draws of a sum's terms cancel where correlated ones add up (a
/// batch-norm backward's sum of dy (x - mean) over 128 rows moved about 5
/// times farther than independent draws of its inputs' drift predicted).
void perturb(reference::Buffer &b, const StorageDrift &d, uint64_t perturbation, int64_t storage) {
  const reference::TensorView all = wholeStorage(b);
  std::vector<double> values = reference::readValues(all);
  const bool together = perturbation % 2 == 0;
  const double sign =
      uniformValue(generatorBits(perturbation, static_cast<uint64_t>(storage), 0), -1.0, 1.0) < 0 ? -1.0 : 1.0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double r =
        together ? sign : uniformValue(generatorBits(perturbation, static_cast<uint64_t>(storage), i), -1.0, 1.0);
    if (std::isfinite(values[i]))
      values[i] += d.drift * (std::fabs(values[i]) + d.scale) * r;
  }
  reference::writeValues(all, values);
}

bool isFingerprintDivergence(const RunReport &r) {
  if (r.steps.empty() || r.failure.empty())
    return false;
  const StepResult &last = r.steps.back();
  return last.result == Outcome::Diverged && last.npuCheck != "differs from the reference" &&
         last.message.find("diverges from the fingerprint") != std::string::npos;
}

using Bytes = std::map<int64_t, std::vector<uint8_t>>;

/// Whether `step`'s results in `storages` match all its fingerprints at the
/// fixed tolerance, whatever allowances they carry.
bool matchesDevice(const Bundle &bundle, const Step &step, const Storages &storages) {
  for (Fingerprint f : step.fingerprints) {
    const TensorRef *ref = fingerprintTarget(step, f);
    if (!ref)
      continue;
    if (!core::isFloat(bundle.storages[static_cast<size_t>(ref->storage)].dtype))
      return false; // a flipped float threshold is the class; integers stay exact
    f.sumDriftAllowance = 0.0;
    for (Sample &sample : f.samples)
      sample.driftAllowance = 0.0;
    if (!compareFingerprint(viewOf(storages, *ref), f).ok)
      return false;
  }
  return true;
}

Bytes saveBytes(const Storages &storages, const std::set<int64_t> &which) {
  Bytes saved;
  for (int64_t s : which)
    saved[s] = storages[static_cast<size_t>(s)]->bytes;
  return saved;
}

void restoreBytes(Storages &storages, const Bytes &saved) {
  for (const auto &[s, bytes] : saved)
    storages[static_cast<size_t>(s)]->bytes = bytes;
}

/// The drift of every float storage the steps so far wrote, as their last
/// writers' fingerprints measure it, as the sweep goes. A storage whose last
/// writer has no fingerprint of it (nor a graph input no step wrote) has none:
/// an allowance is never guessed.
struct ChainDrift {
  std::map<int64_t, StorageDrift> measured;

  void wrote(const Bundle &bundle, const Step &step, const Storages &storages) {
    for (int64_t s : writtenStorages(step)) {
      if (!core::isFloat(bundle.storages[static_cast<size_t>(s)].dtype))
        continue;
      if (const std::optional<StorageDrift> d = measureDrift(step, s, storages))
        measured[s] = *d;
      else
        measured.erase(s);
    }
  }

  StorageDrift of(int64_t s) const {
    const auto it = measured.find(s);
    return it == measured.end() ? StorageDrift{} : it->second;
  }
};

/// Sets the allowances of `step`'s fingerprints from kDriftPerturbations
/// reference runs of the step on `storages` (the state before it) perturbed by
/// `perturbed`; leaves the touched storages as they were.
DriftAnalysis allow(Bundle &bundle, size_t index, const std::map<int64_t, StorageDrift> &perturbed,
                    Storages &storages, const RunOptions &options) {
  Step &step = bundle.steps[index];
  DriftAnalysis analysis;
  analysis.step = index;
  for (const auto &[s, d] : perturbed)
    analysis.inputDrift = std::max(analysis.inputDrift, d.drift);
  std::set<int64_t> touched = writtenStorages(step);
  const std::set<int64_t> reads = readStorages(step);
  touched.insert(reads.begin(), reads.end());
  const Bytes before = saveBytes(storages, touched);
  const Bundle one = slice(bundle, index, index + 1, false);
  RunOptions reference;
  reference.threads = options.threads;
  std::vector<std::vector<std::vector<double>>> samples; // [run][fingerprint][sample]
  std::vector<std::vector<double>> sums;                 // [run][fingerprint]
  bool unperturbedMatches = false;
  std::optional<Bytes> deviceSide;
  for (int run = 0; run <= kDriftPerturbations; ++run) {
    restoreBytes(storages, before);
    if (run > 0)
      for (const auto &[s, d] : perturbed)
        perturb(*storages[static_cast<size_t>(s)], d, static_cast<uint64_t>(run), s);
    const RunReport r = runBundle(one, reference, storages);
    if (!r.failure.empty())
      throw core::RuntimeError("drift analysis of step " + std::to_string(index) + ": " + r.failure);
    // On its own inputs the step differs from the device beyond the fixed
    // tolerance, on inputs moved within their drift it matches: a threshold
    // that the inputs lie within their drift of (a ReLU6 mask) decides, and
    // the device took the other side. The chain goes on from that side.
    if (run == 0)
      unperturbedMatches = matchesDevice(bundle, step, storages);
    else if (!unperturbedMatches && !deviceSide && matchesDevice(bundle, step, storages)) {
      deviceSide = saveBytes(storages, writtenStorages(step));
      analysis.deviceSideRun = run;
    }
    samples.emplace_back();
    sums.emplace_back();
    for (const Fingerprint &f : step.fingerprints) {
      const TensorRef *ref = fingerprintTarget(step, f);
      std::vector<double> at;
      double sum = 0.0;
      if (ref && core::isFloat(bundle.storages[static_cast<size_t>(ref->storage)].dtype)) {
        const std::vector<double> values = reference::readValues(viewOf(storages, *ref));
        for (const Sample &s : f.samples)
          at.push_back(values[static_cast<size_t>(s.index)]);
        for (double v : values)
          if (std::isfinite(v))
            sum += v;
      }
      samples.back().push_back(std::move(at));
      sums.back().push_back(sum);
    }
  }
  restoreBytes(storages, before);
  for (size_t fi = 0; fi < step.fingerprints.size(); ++fi) {
    Fingerprint &f = step.fingerprints[fi];
    double sumSpread = 0.0;
    for (size_t run = 1; run < samples.size(); ++run)
      sumSpread = std::max(sumSpread, std::fabs(sums[run][fi] - sums[0][fi]));
    f.sumDriftAllowance = kDriftSafetyFactor * sumSpread;
    for (size_t si = 0; si < samples[0][fi].size(); ++si) {
      double spread = 0.0;
      for (size_t run = 1; run < samples.size(); ++run) {
        const double d = std::fabs(samples[run][fi][si] - samples[0][fi][si]);
        if (std::isfinite(d))
          spread = std::max(spread, d);
      }
      f.samples[si].driftAllowance = kDriftSafetyFactor * spread;
      analysis.largestAllowance = std::max(analysis.largestAllowance, f.samples[si].driftAllowance);
    }
  }
  analysis.note = "inputs' measured drift " + core::significantDigits(analysis.inputDrift, 3) +
                  " (relative), largest sample allowance " + core::significantDigits(analysis.largestAllowance, 3);
  if (deviceSide) {
    step.deviceSide = std::move(*deviceSide);
    analysis.note = "the device took the other side of a threshold its inputs lie within their drift of "
                    "(the reference on inputs perturbed within that drift, run " +
                    std::to_string(analysis.deviceSideRun) +
                    ", matches the device at the fixed tolerance); the chain goes on from that side; " +
                    analysis.note;
  }
  return analysis;
}

} // namespace

std::vector<DriftAnalysis> allowForDrift(Bundle &bundle, const RunOptions &options) {
  RunOptions advance;
  advance.verify = true;
  advance.mode = options.mode == Mode::Full ? Mode::Functional : options.mode;
  advance.machine = options.machine;
  advance.mapping = options.mapping;
  advance.mappingStrategy = options.mappingStrategy;
  advance.gemmKernel = options.gemmKernel;
  advance.convKernel = options.convKernel;
  advance.attentionKernel = options.attentionKernel;
  advance.threads = options.threads;
  Storages storages = freshStorages(bundle);
  AdamBound adam(bundle); // one over the slices: the optimizer's state before its step
  ChainDrift chain;
  std::vector<DriftAnalysis> analysed;
  for (size_t k = 0; k < bundle.steps.size(); ++k) {
    const Step &step = bundle.steps[k];
    std::set<int64_t> touched = writtenStorages(step);
    const std::set<int64_t> reads = readStorages(step);
    touched.insert(reads.begin(), reads.end());
    const Bytes before = saveBytes(storages, touched);
    const Bundle one = slice(bundle, k, k + 1, true);
    const RunReport r = Runner(one, advance, &storages, &adam).run();
    if (!r.failure.empty()) {
      if (!isFingerprintDivergence(r))
        break; // the run itself reports it
      const Bytes after = saveBytes(storages, touched);
      restoreBytes(storages, before);
      std::map<int64_t, StorageDrift> perturbed;
      for (int64_t s : reads)
        if (core::isFloat(bundle.storages[static_cast<size_t>(s)].dtype))
          if (const StorageDrift d = chain.of(s); d.drift > 0.0)
            perturbed[s] = d;
      if (perturbed.empty())
        break; // exact inputs: nothing to allow for
      analysed.push_back(allow(bundle, k, perturbed, storages, options));
      restoreBytes(storages, after);
      restoreBytes(storages, step.deviceSide);
    }
    chain.wrote(bundle, step, storages);
  }
  return analysed;
}

namespace {

bool isNpuMode(Mode mode) {
  return mode == Mode::Functional || mode == Mode::Full;
}

/// The NPU chain left the device's fingerprints at a step that matched the
/// reference on its own inputs: judge the run as two checks that need no
/// chain of NPU values to follow the device's. The reference chain (the
/// interpreter and the host calls, with the drift analysis) against the
/// device's fingerprints and outputs, and the whole NPU chain, step by step,
/// against the reference on the same inputs. Two valid float chains that
/// round differently part ways through ill-conditioned steps (a mask whose
/// input lies within rounding of its threshold flips element by element,
/// and nothing downstream can be compared with the device's values after it);
/// what either check finds wrong stays a failure.
RunReport judgeByTheReferenceChain(const Bundle &bundle, const std::vector<std::vector<Fingerprint>> &pristine,
                                   const RunReport &failed, const RunOptions &options) {
  const size_t left = failed.steps.back().index;
  Bundle reference = slice(bundle, 0, bundle.steps.size(), true);
  reference.outputs = bundle.outputs;
  for (size_t k = 0; k < reference.steps.size(); ++k) {
    reference.steps[k].fingerprints = pristine[k]; // without the NPU chain's allowances
    reference.steps[k].deviceSide.clear();
  }
  RunOptions referenceOptions = options;
  referenceOptions.mode = Mode::Reference;
  referenceOptions.tracePath.clear();
  referenceOptions.launchSink = nullptr;
  RunReport byReference = runBundleAllowingDrift(reference, referenceOptions);
  if (!byReference.verified) {
    RunReport r = failed;
    r.failure += " (the reference chain does not match the device either: " + byReference.failure + ")";
    return r;
  }
  Bundle npuChain = slice(bundle, 0, bundle.steps.size(), false); // no outputs: compared on the reference chain
  for (Step &step : npuChain.steps)
    step.deviceSide.clear();
  RunReport r = runBundle(npuChain, options);
  if (!r.failure.empty())
    return r; // an NPU step differs from the reference on its inputs, or fails
  r.outputs = byReference.outputs;
  r.fingerprintsCompared = byReference.fingerprintsCompared;
  r.fingerprintsSkipped = byReference.fingerprintsSkipped;
  r.optimizerBound = byReference.optimizerBound;
  r.derivedBounds = byReference.derivedBounds;
  r.stepsWithinDrift = byReference.stepsWithinDrift;
  for (size_t step : r.stepsWithinDrift)
    if (step < r.steps.size() && step < byReference.steps.size())
      r.steps[step].message = "reference chain " + byReference.steps[step].message;
  r.npuChainLeftDevice = left;
  r.npuChainNote = failed.failure;
  r.completed = byReference.completed && r.completed;
  r.verified = r.completed;
  return r;
}

} // namespace

RunReport runBundleAllowingDrift(Bundle &bundle, const RunOptions &options) {
  RunReport report = runBundle(bundle, options);
  if (!options.verify || options.mode == Mode::Timing || !isFingerprintDivergence(report))
    return report;
  std::vector<std::vector<Fingerprint>> pristine;
  for (const Step &step : bundle.steps)
    pristine.push_back(step.fingerprints);
  const auto byReferenceChain = [&](const RunReport &failed) {
    return isNpuMode(options.mode) && isFingerprintDivergence(failed)
               ? judgeByTheReferenceChain(bundle, pristine, failed, options)
               : failed;
  };
  std::vector<DriftAnalysis> analysed;
  try {
    analysed = allowForDrift(bundle, options);
  } catch (const std::exception &e) {
    report.failure += std::string(" (") + e.what() + ")";
    return report;
  }
  if (analysed.empty()) {
    report.failure += " (its inputs carry no measured drift)";
    return byReferenceChain(report);
  }
  report = runBundle(bundle, options);
  if (isFingerprintDivergence(report)) {
    const size_t failed = report.steps.back().index;
    const auto it = std::find_if(analysed.begin(), analysed.end(),
                                 [&](const DriftAnalysis &a) { return a.step == failed; });
    report.failure += it != analysed.end() ? " (beyond the drift of its inputs: " + it->note + ")"
                                           : std::string(" (its inputs carry no measured drift)");
    return byReferenceChain(report);
  }
  for (const DriftAnalysis &a : analysed)
    if (a.step < report.steps.size() && report.steps[a.step].result == Outcome::Verified) {
      report.stepsWithinDrift.push_back(a.step);
      report.steps[a.step].message = "verified with a drift allowance: " + a.note;
    }
  return report;
}

} // namespace npusim::runtime
