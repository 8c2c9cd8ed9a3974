// The launch loop: storages, inputs, steps, verification.
#include "runtime/runner.h"

#include "runtime/runner_internal.h"

#include "core/npy.h"
#include "reference/host_calls.h"
#include "reference/interpreter.h"
#include "runtime/call_bounds.h"
#include "runtime/clock_internal.h"
#include "runtime/compulsory_bytes.h"
#include "runtime/fingerprint.h"
#include "runtime/generator.h"
#include "runtime/optimizer_bound.h"
#include "runtime/tokens.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <sys/mman.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace npusim::runtime {

namespace {

uint64_t valuesHash(const reference::TensorView &v) {
  uint64_t hash = 14695981039346656037ull;
  auto add = [&](const void *p, size_t n) {
    for (size_t k = 0; k < n; ++k) {
      hash ^= static_cast<const uint8_t *>(p)[k];
      hash *= 1099511628211ull;
    }
  };
  if (core::isFloat(v.buffer->dtype))
    for (double x : reference::readValues(v))
      add(&x, sizeof x);
  else
    for (int64_t x : reference::readIntegers(v))
      add(&x, sizeof x);
  return hash;
}

int64_t peakRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss; // KiB on Linux
}

/// The contents of a storage no input initialises: NaN for floats and 0x5A
/// bytes for integers, so that reading it before it is written shows.
void fillUnwritten(reference::Buffer &b) {
  const auto fill16 = [&](uint16_t bits) {
    for (size_t i = 0; i + 1 < b.bytes.size(); i += 2)
      std::memcpy(b.bytes.data() + i, &bits, 2);
  };
  switch (b.dtype) {
  case core::DType::Float16: fill16(0x7e00); return;
  case core::DType::BFloat16: fill16(0x7fc0); return;
  case core::DType::Float32: {
    const uint32_t bits = 0x7fc00000u;
    for (size_t i = 0; i + 3 < b.bytes.size(); i += 4)
      std::memcpy(b.bytes.data() + i, &bits, 4);
    return;
  }
  case core::DType::Float64: {
    const uint64_t bits = 0x7ff8000000000000ull;
    for (size_t i = 0; i + 7 < b.bytes.size(); i += 8)
      std::memcpy(b.bytes.data() + i, &bits, 8);
    return;
  }
  default: std::fill(b.bytes.begin(), b.bytes.end(), uint8_t{0x5a}); return;
  }
}

uint64_t storageBytes(const Storage &s) {
  return static_cast<uint64_t>(s.elements) * static_cast<uint64_t>(core::byteSize(s.dtype));
}

std::string constexprKey(const std::string &kernel, const triton::ConstexprBindings &constexprs) {
  std::string key = kernel;
  for (const auto &[name, value] : constexprs)
    key += "|" + name + "=" + triton::toString(value);
  return key;
}

void addTensors(const CallValue &v, std::set<int64_t> &storages) {
  if (v.kind == CallValue::Kind::Tensor)
    storages.insert(v.tensor.storage);
  for (const CallValue &e : v.list)
    addTensors(e, storages);
}

} // namespace

std::set<int64_t> readStorages(const Step &step) {
  std::set<int64_t> reads;
  if (step.kind == Step::Kind::Launch) {
    for (const LaunchArg &a : step.args)
      if (a.isTensor)
        reads.insert(a.tensor.storage);
  } else {
    for (const CallValue &v : step.callArgs)
      addTensors(v, reads);
  }
  return reads;
}

std::set<int64_t> writtenStorages(const Step &step) {
  std::set<int64_t> writes;
  if (step.kind == Step::Kind::Launch) {
    for (int64_t a : step.writes)
      if (step.args[static_cast<size_t>(a)].isTensor)
        writes.insert(step.args[static_cast<size_t>(a)].tensor.storage);
  } else {
    for (const auto &o : step.out)
      if (o)
        writes.insert(o->storage);
  }
  return writes;
}

const TensorRef *fingerprintTarget(const Step &step, const Fingerprint &f) {
  const size_t t = static_cast<size_t>(f.target);
  if (step.kind == Step::Kind::Launch)
    return &step.args[t].tensor;
  return step.out[t] ? &*step.out[t] : nullptr;
}

const char *name(Outcome outcome) {
  switch (outcome) {
  case Outcome::Ok: return "ok";
  case Outcome::Verified: return "verified";
  case Outcome::Unverified: return "unverified";
  case Outcome::Unchecked: return "unchecked";
  case Outcome::Diverged: return "diverged";
  case Outcome::Error: return "error";
  }
  return "error";
}

namespace {

/// Why `storages` cannot stand for the bundle's storages, or "".
std::string givenStoragesProblem(const Bundle &bundle,
                                 const std::vector<std::unique_ptr<reference::Buffer>> &given) {
  if (given.size() != bundle.storages.size())
    return "the run was given " + std::to_string(given.size()) + " storages for the bundle's " +
           std::to_string(bundle.storages.size());
  for (size_t i = 0; i < given.size(); ++i) {
    const Storage &s = bundle.storages[i];
    if (!given[i] || given[i]->dtype != s.dtype || given[i]->numElements() != s.elements)
      return "storage " + std::to_string(i) + ": the run was given " +
             (given[i] ? std::to_string(given[i]->numElements()) + " elements of " +
                             std::string(core::tritonName(given[i]->dtype))
                       : std::string("no buffer")) +
             " for " + std::to_string(s.elements) + " elements of " + std::string(core::tritonName(s.dtype));
  }
  return "";
}

} // namespace

const char *name(Mode mode) {
  switch (mode) {
  case Mode::Reference: return "reference";
  case Mode::Functional: return "functional";
  case Mode::Timing: return "timing";
  case Mode::Full: return "full";
  }
  return "reference";
}

std::optional<Mode> parseMode(std::string_view text) {
  for (Mode mode : {Mode::Reference, Mode::Functional, Mode::Timing, Mode::Full})
    if (text == name(mode))
      return mode;
  return std::nullopt;
}

Runner::Runner(const Bundle &bundle, const RunOptions &options,
               std::vector<std::unique_ptr<reference::Buffer>> *storages, AdamBound *adam)
    : bundle_(bundle), options_(options), given_(storages), adam_(adam) {
  if (!adam_ && options_.verify && bundle_.optimizer.isAdam()) {
    ownAdam_ = std::make_unique<AdamBound>(bundle_);
    adam_ = ownAdam_.get();
  }
  if (!options_.verify)
    adam_ = nullptr;
}
Runner::~Runner() = default;

const ir::Function &Runner::lowered(const Step &step) {
  const std::string key = constexprKey(step.name, step.constexprs);
  auto it = compiled_.find(key);
  if (it != compiled_.end())
    return *it->second;
  const auto start = Clock::now();
  std::unique_ptr<ir::Function> function = triton::lowerKernel(*step.kernel, step.constexprs);
  report_.lowerMs += millisecondsSince(start);
  return *compiled_.emplace(key, std::move(function)).first->second;
}

std::vector<bool> Runner::heldStorages(const std::vector<std::string> &reasons,
                                       const std::set<int> &contentsNeeded) const {
  std::vector<bool> held(buffers_.size(), options_.mode != Mode::Timing);
  for (int s : contentsNeeded)
    held[static_cast<size_t>(s)] = true;
  for (size_t i = 0; i < bundle_.steps.size(); ++i)
    if (!reasons[i].empty() && bundle_.steps[i].kind == Step::Kind::Call)
      for (int64_t s : writtenStorages(bundle_.steps[i]))
        held[static_cast<size_t>(s)] = true;
  return held;
}

std::map<const reference::Buffer *, int64_t> Runner::absentStorages(const std::vector<bool> &held) const {
  std::map<const reference::Buffer *, int64_t> absent;
  for (size_t i = 0; i < held.size(); ++i)
    if (!held[i] && storageBytes(bundle_.storages[i]) > 0)
      absent.emplace(buffers_[i].get(), static_cast<int64_t>(storageBytes(bundle_.storages[i])));
  return absent;
}

void Runner::fillStorages(const std::vector<bool> &held) {
  // Each storage is filled on its own (its inputs in bundle order), so the
  // storages can be split among threads without changing a byte: by bytes,
  // each to the least loaded thread.
  std::vector<std::vector<const Input *>> inputsOf(buffers_.size());
  for (const Input &in : bundle_.inputs)
    inputsOf[static_cast<size_t>(in.tensor.storage)].push_back(&in);
  const auto fill = [&](size_t storage) {
    if (inputsOf[storage].empty())
      fillUnwritten(*buffers_[storage]);
    for (const Input *in : inputsOf[storage])
      fillInput(*buffers_[storage], in->init, bundle_.seed);
  };
  const size_t threads = static_cast<size_t>(std::max(1, effectiveThreads(options_)));
  std::vector<std::vector<size_t>> share(threads);
  std::vector<size_t> load(threads, 0);
  for (size_t storage = 0; storage < buffers_.size(); ++storage) {
    if (!held[storage])
      continue;
    const size_t t = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    share[t].push_back(storage);
    load[t] += buffers_[storage]->bytes.size();
  }
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t)
    if (!share[t].empty())
      helpers.emplace_back([&, t] {
        for (size_t storage : share[t])
          fill(storage);
      });
  for (size_t storage : share[0])
    fill(storage);
  for (std::thread &helper : helpers)
    helper.join();
}

std::vector<reference::Argument> Runner::launchArguments(const Step &step, const ir::Function &function) {
  std::vector<reference::Argument> arguments;
  for (const ir::Parameter &param : function.parameters()) {
    size_t index = step.argNames.size();
    for (size_t i = 0; i < step.argNames.size(); ++i)
      if (step.argNames[i] == param.name && !step.args[i].isConstant)
        index = i;
    if (index == step.argNames.size())
      throw core::RuntimeError("internal error: TileIR parameter " + param.name +
                               " is not a run-time parameter");
    const LaunchArg &arg = step.args[index];
    reference::Argument a;
    if (arg.isTensor) {
      a.buffer = buffers_[static_cast<size_t>(arg.tensor.storage)].get();
      a.buffer->name = param.name + " (storage " + std::to_string(arg.tensor.storage) + ")";
      a.elementOffset = arg.tensor.offset;
    } else {
      a.scalar.intValue = arg.intValue;
      a.scalar.floatValue = arg.floatValue;
    }
    arguments.push_back(a);
  }
  return arguments;
}

void Runner::runLaunch(const Step &step, StepResult &result, bool computeValues) {
  const ir::Function &function = lowered(step);
  kernelsLaunched_.insert(step.name);
  std::vector<reference::Argument> arguments = launchArguments(step, function);
  const auto start = Clock::now();
  if (onNpu()) {
    const bool compare = options_.verify && options_.mode != Mode::Timing;
    npu_->launch(step, function, arguments, computeValues, compare, result);
  } else {
    const reference::Grid grid{step.grid[0], step.grid[1], step.grid[2]};
    const reference::LaunchStats stats = reference::runLaunch(function, grid, arguments);
    result.programs = stats.programs;
  }
  result.wallMs = millisecondsSince(start);
  report_.launchMs += result.wallMs;
}

void Runner::runCall(const Step &step, StepResult &result, std::vector<bool> &defined, bool computeValues) {
  std::vector<reference::HostCallValue> args;
  args.reserve(step.callArgs.size());
  for (const CallValue &c : step.callArgs)
    args.push_back(core::mapTensors<reference::TensorView>(c, [&](const TensorRef &t) { return view(t); }));
  std::vector<reference::TensorView> outViews(step.out.size());
  std::vector<const reference::TensorView *> outs(step.out.size(), nullptr);
  for (size_t i = 0; i < step.out.size(); ++i)
    if (step.out[i]) {
      outViews[i] = view(*step.out[i]);
      outs[i] = &outViews[i];
    }
  const auto start = Clock::now();
  // Timing mode: a call whose values no later step's addresses or control need
  // takes no simulated time on the host, so it is not run (its storages may
  // hold no contents).
  const bool valuesUnneeded = options_.mode == Mode::Timing && !computeValues;
  if (!step.recorded.empty()) {
    // A random operator: the NPU draws the numbers for their cycles, then the
    // values the capture drew (Inductor's seeds for tl.rand) replace its own,
    // which no GPU generator would reproduce (docs/library-calls.md, "Random
    // operators"). Without an NPU plan it takes no simulated time.
    const bool timed = onNpu() && NpuSteps::callOnNpu(step.name) &&
                       npu_->call(step, args, outs, buffers_, computeValues, false, result).has_value();
    if (onNpu() && !timed)
      result.executedOn = "host";
    if (valuesUnneeded) {
      result.message = timed ? "timed on the NPU; timing mode needs none of the values the capture's generator drew"
                             : "not run: timing mode needs none of the values the capture's generator drew" +
                                   (result.message.empty() ? std::string() : " (" + result.message + ")");
    } else {
      for (const RecordedValues &r : step.recorded) {
        if (!r.integers.empty())
          reference::writeIntegers(outViews[r.out], r.integers);
        else
          reference::writeValues(outViews[r.out], r.floats);
      }
      defined.assign(step.out.size(), true);
      result.message = std::string(timed ? "timed on the NPU, then " : "") +
                       "wrote the values the capture's generator drew" +
                       (result.message.empty() ? std::string() : " (" + result.message + ")");
    }
    result.wallMs = millisecondsSince(start);
    report_.callMs += result.wallMs;
    return;
  }
  std::optional<std::vector<bool>> onDevice;
  if (onNpu() && NpuSteps::callOnNpu(step.name)) {
    const bool compare = options_.verify && options_.mode != Mode::Timing;
    onDevice = npu_->call(step, args, outs, buffers_, computeValues, compare, result);
  } else if (onNpu()) {
    result.message = "ran on the host: " + step.name + " has no NPU implementation";
  }
  if (onDevice) {
    defined = std::move(*onDevice);
  } else if (valuesUnneeded) {
    result.executedOn = "host";
    result.message = "not run on the host: timing mode needs none of its values" +
                     (result.message.empty() ? std::string() : " (" + result.message + ")");
  } else {
    if (onNpu())
      result.executedOn = "host";
    defined = reference::runHostCall(step.name, args, outs);
  }
  result.wallMs = millisecondsSince(start);
  report_.callMs += result.wallMs;
}

bool Runner::verifyStep(const Step &step, const std::vector<bool> &defined, StepResult &result) {
  if (step.fingerprints.empty()) {
    result.result = Outcome::Unverified;
    return true;
  }
  for (const Fingerprint &f : step.fingerprints) {
    const size_t target = static_cast<size_t>(f.target);
    const bool isLaunch = step.kind == Step::Kind::Launch;
    if (!isLaunch && target < defined.size() && !defined[target]) {
      ++result.fingerprintsSkipped;
      result.message = "out[" + std::to_string(target) + "] not compared: its values are unspecified";
      continue;
    }
    const TensorRef &ref = isLaunch ? step.args[target].tensor : *step.out[target];
    const std::string buffer = isLaunch ? step.argNames[target] + " (args[" + std::to_string(target) + "])"
                                        : "out[" + std::to_string(target) + "]";
    const std::optional<ElementRule> rule = adam_ ? adam_->ruleFor(ref) : std::nullopt;
    const std::optional<CallBound> callBound =
        rule || isLaunch ? std::nullopt : callResultBound(step, target, buffers_);
    // A 16-bit float result is judged by its format's rounding at its depth.
    const std::optional<ElementRule> rounding =
        rule || callBound
            ? std::nullopt
            : roundingRule(buffers_[static_cast<size_t>(ref.storage)]->dtype, depths_.step[result.index],
                           f.elements > 0 ? f.absSum / static_cast<double>(f.elements) : 0.0, f.absSum);
    const ElementRule *judge = rule ? &*rule : callBound ? &callBound->rule : rounding ? &*rounding : nullptr;
    const Comparison c = compareFingerprint(view(ref), f, judge);
    if (rule)
      adam_->noteComparison(ref, c);
    if (callBound && (callBound->constantRows > 0 || !c.withinAllowance.empty()))
      report_.derivedBounds.push_back({result.index, step.name, callBound->what, callBound->rows,
                                       callBound->constantRows, static_cast<int64_t>(c.withinAllowance.size())});
    ++result.fingerprintsCompared;
    if (!c.ok) {
      result.result = Outcome::Diverged;
      result.message = buffer + " diverges from the fingerprint (" + f.path + "): " + c.message;
      report_.failure = stepTitle(step, result.index) + ": " + result.message;
      return false;
    }
  }
  result.result = Outcome::Verified;
  return true;
}

void Runner::verifyOutputs() {
  for (const Output &o : bundle_.outputs) {
    OutputResult r;
    r.name = o.name;
    const reference::TensorView v = view(o.tensor);
    if (!o.hasFingerprint) { // sizes other than the captured: nothing recorded to compare with
      r.result = Outcome::Unverified;
      r.message = "no reference values at " + bundle_.sizes.describe() + " (captured at other sizes)";
      r.valuesHash = valuesHash(v);
      report_.outputs.push_back(r);
      continue;
    }
    std::optional<ElementRule> rule = adam_ ? adam_->ruleFor(o.tensor) : std::nullopt;
    const bool byAdam = rule.has_value();
    if (!rule) {
      const Fingerprint &f = o.fingerprint;
      rule = roundingRule(buffers_[static_cast<size_t>(o.tensor.storage)]->dtype,
                          depths_.storage[static_cast<size_t>(o.tensor.storage)],
                          f.elements > 0 ? f.absSum / static_cast<double>(f.elements) : 0.0, f.absSum);
    }
    std::string problem;
    if (!o.reference.empty()) {
      const core::NpyArray array = core::readNpy((bundle_.dir / o.reference).string());
      const Comparison c = compareWithReference(v, array, rule ? &*rule : nullptr);
      if (byAdam)
        adam_->noteComparison(o.tensor, c);
      if (!c.ok)
        problem = "against " + o.reference + ": " + c.message;
    }
    const Comparison f = compareFingerprint(v, o.fingerprint, rule ? &*rule : nullptr);
    if (byAdam)
      adam_->noteComparison(o.tensor, f);
    if (!f.ok)
      problem += (problem.empty() ? "" : "; ") + std::string("against its fingerprint: ") + f.message;
    r.result = problem.empty() ? Outcome::Verified : Outcome::Diverged;
    r.message = problem;
    r.valuesHash = valuesHash(v);
    if (!problem.empty() && report_.failure.empty())
      report_.failure = "output " + o.name + " diverges " + problem;
    report_.outputs.push_back(r);
  }
}

namespace {

/// Sizes `bytes` to `size` zero bytes. A large storage (a model's weights run
/// to hundreds of megabytes) asks the kernel for transparent huge pages before
/// its first touch, so that zeroing it takes one page fault per 2 MiB instead
/// of one per 4 KiB: on a virtual machine the faults, not the zeroing, were
/// most of the time to set a model's storages up. Where the kernel gives no
/// huge pages this changes nothing.
void allocateStorage(std::vector<uint8_t> &bytes, size_t size) {
  constexpr size_t kHugePage = size_t{2} << 20;
  if (size >= 4 * kHugePage && bytes.capacity() < size) {
    bytes.reserve(size); // allocated, not yet touched
    const auto begin = reinterpret_cast<uintptr_t>(bytes.data());
    const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const uintptr_t last = (begin + size) & ~(kHugePage - 1);
    if (last > first)
      madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
  }
  bytes.resize(size);
}

} // namespace

RunReport Runner::run() {
  const auto start = Clock::now();
  report_.totalSteps = bundle_.steps.size();
  report_.verify = options_.verify;
  report_.fingerprintSource = bundle_.fingerprintSource;
  report_.sizes = bundle_.sizes;
  report_.mode = options_.mode;
  report_.threads = effectiveThreads(options_);
  if (options_.verify)
    depths_ = valueDepths(bundle_);
  const auto failEarly = [&](const std::string &why) {
    report_.failure = why;
    report_.wallMs = millisecondsSince(start);
    report_.peakRssKiB = peakRssKiB();
    return report_;
  };
  if (given_) {
    if (std::string problem = givenStoragesProblem(bundle_, *given_); !problem.empty())
      return failEarly(problem);
    buffers_ = std::move(*given_);
  } else {
    // The storages' buffers, their contents not yet held: timing mode holds
    // only those of the steps that compute values.
    for (const Storage &s : bundle_.storages) {
      auto b = std::make_unique<reference::Buffer>();
      b->name = "storage " + std::to_string(s.id);
      b->dtype = s.dtype;
      buffers_.push_back(std::move(b));
    }
  }

  bool failed = false;
  std::vector<std::string> reasons(bundle_.steps.size());
  std::set<int> contentsNeeded;
  if (onNpu()) {
    report_.machine = options_.machine.name;
    report_.energyTable = options_.machine.energy;
    report_.energyClockGating = options_.machine.energyClockGating != 0;
    try {
      npu_ = std::make_unique<NpuSteps>(options_, report_);
      if (options_.mode == Mode::Timing) {
        if (!given_)
          npu_->setAbsent(absentStorages(std::vector<bool>(buffers_.size(), false)));
        reasons = valueReasons(contentsNeeded);
      }
    } catch (const std::exception &e) {
      report_.failure = e.what();
      failed = true;
    }
  }
  for (const Storage &s : bundle_.storages)
    report_.storageBytes += static_cast<int64_t>(storageBytes(s));
  if (given_) {
    report_.heldStorageBytes = report_.storageBytes;
  } else if (!failed) {
    const std::vector<bool> held = heldStorages(reasons, contentsNeeded);
    uint64_t heldBytes = 0;
    for (size_t i = 0; i < held.size(); ++i)
      heldBytes += held[i] ? storageBytes(bundle_.storages[i]) : 0;
    // Refuse what cannot fit rather than let the kernel's OOM killer end the process.
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && pageSize > 0 &&
        heldBytes > static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize))
      return failEarly("the bundle's storages need " + std::to_string(heldBytes >> 20) +
                       " MiB, more than this machine's memory");
    try {
      for (size_t i = 0; i < held.size(); ++i)
        if (held[i])
          allocateStorage(buffers_[i]->bytes, static_cast<size_t>(storageBytes(bundle_.storages[i])));
    } catch (const std::bad_alloc &) {
      return failEarly("out of memory allocating the bundle's storages");
    }
    fillStorages(held);
    if (npu_)
      npu_->setAbsent(absentStorages(held));
    report_.heldStorageBytes = static_cast<int64_t>(heldBytes);
  }

  for (size_t i = 0; i < bundle_.steps.size() && !failed; ++i) {
    if (npu_ && npu_->timingFailed())
      break; // collectTimings below names the step
    const Step &step = bundle_.steps[i];
    if (options_.onStep)
      options_.onStep(i, bundle_.steps.size(), step.name);
    StepResult result;
    result.index = i;
    result.kind = step.kind;
    result.name = step.name;
    if (onNpu())
      result.executedOn = "npu";
    const bool computeValues = options_.mode != Mode::Timing || !reasons[i].empty();
    result.valuesComputed = computeValues;
    result.valuesReason = options_.mode == Mode::Timing ? reasons[i] : "";
    std::vector<bool> defined;
    try {
      if (adam_)
        adam_->beforeStep(step, buffers_);
      if (step.kind == Step::Kind::Launch) {
        ++report_.launches;
        runLaunch(step, result, computeValues);
      } else {
        ++report_.calls;
        runCall(step, result, defined, computeValues);
      }
      if (result.result == Outcome::Diverged) {
        report_.failure = stepTitle(step, i) + ": " + result.message;
        failed = true;
      } else {
        result.result = Outcome::Ok;
      }
      if (!failed && options_.verify && !step.deviceSide.empty()) {
        // The drift analysis found the device on the other side of a threshold.
        for (const auto &[storage, bytes] : step.deviceSide)
          buffers_[static_cast<size_t>(storage)]->bytes = bytes;
      }
      if (!failed && adam_)
        adam_->measure(step, buffers_);
      if (!failed && options_.verify && !verifyStep(step, defined, result))
        failed = true;
    } catch (const std::bad_alloc &) {
      result.result = Outcome::Error;
      result.message = "out of memory";
      failed = true;
    } catch (const std::exception &e) {
      result.result = Outcome::Error;
      result.message = e.what();
      failed = true;
    }
    if (result.result == Outcome::Error)
      report_.failure = stepTitle(step, i) + ": " + result.message;
    report_.steps.push_back(std::move(result));
  }
  if (npu_) {
    if (const std::optional<NpuSteps::TimingFailure> f = npu_->collectTimings(report_.steps)) {
      // The run ends at the step whose launch failed to time, as it does
      // when the launch is timed in this thread.
      report_.steps.resize(std::min(report_.steps.size(), f->step + 1));
      StepResult &s = report_.steps.back();
      s.result = Outcome::Error;
      s.message = f->message;
      report_.failure = stepTitle(bundle_.steps[s.index], s.index) + ": " + s.message;
      report_.launches = report_.calls = 0;
      for (const StepResult &kept : report_.steps)
        ++(kept.kind == Step::Kind::Launch ? report_.launches : report_.calls);
      failed = true;
    }
  }
  // The honest roofline: each timed step's compute bound against the bytes
  // it cannot avoid, not against what its program moved (nor the parts of
  // its storages the programs never needed: a gather's table, a cache's
  // unused tail).
  const double peakBytesPerUs = options_.machine.dram.peakBytesPerSecond() * 1e-6;
  for (StepResult &s : report_.steps)
    if (s.timed && s.index < bundle_.steps.size()) {
      StepTiming &t = s.timing;
      const std::optional<TouchedByStorage> touched = npu_ ? npu_->touched(s.index, buffers_) : std::nullopt;
      t.compulsoryBytes =
          compulsoryBytes(bundle_.steps[s.index], bundle_.storages, touched ? &*touched : nullptr).total();
      t.rooflineUs = std::max(t.computeUs, peakBytesPerUs > 0.0 ? static_cast<double>(t.compulsoryBytes) / peakBytesPerUs : 0.0);
      t.boundRatio = t.rooflineUs > 0.0 ? t.timeUs / t.rooflineUs : 0.0;
    }
  for (const StepResult &s : report_.steps) {
    report_.fingerprintsCompared += s.fingerprintsCompared;
    report_.fingerprintsSkipped += s.fingerprintsSkipped;
    if (s.timed) {
      report_.totalCycles += s.timing.cycles;
      report_.lateInstructions += s.timing.lateInstructions;
      report_.totalTimeUs += s.timing.timeUs;
      report_.totalEnergy.add(s.timing.energy);
      if (const double watts = s.timing.energy.averageWatts(); watts > report_.peakStepWatts) {
        report_.peakStepWatts = watts;
        report_.peakPowerStep = s.index;
      }
    }
  }
  if (!failed && options_.verify) {
    try {
      verifyOutputs();
    } catch (const std::exception &e) {
      report_.failure = std::string("comparing the outputs: ") + e.what();
    }
  }
  if (npu_) {
    try {
      npu_->finish();
    } catch (const std::exception &e) {
      // The trace is an output of its own: its error joins any other.
      report_.failure += (report_.failure.empty() ? "" : "; ") + std::string(e.what());
    }
  }
  if (adam_)
    report_.optimizerBound = adam_->report();
  report_.completed = !failed;
  if (options_.mode == Mode::Timing || options_.mode == Mode::Full) {
    // Energy per token: only a whole run's energy is a run's worth of tokens.
    std::string why;
    if (const std::optional<LanguageModelTokens> lm = languageModelTokens(bundle_, &why); !lm)
      report_.tokensAbsent = why;
    else if (!report_.completed)
      report_.tokensAbsent = "the run did not complete";
    else {
      report_.tokens = lm->tokens();
      report_.tokensTrained = lm->trainingStep;
      report_.energyPerTokenUj = report_.totalEnergy.totalPj() * 1e-6 / static_cast<double>(lm->tokens());
    }
  }
  report_.verified = options_.verify && !failed && report_.failure.empty();
  report_.kernels = static_cast<int64_t>(kernelsLaunched_.size());
  report_.compiledKernels = static_cast<int64_t>(compiled_.size());
  report_.wallMs = millisecondsSince(start);
  report_.peakRssKiB = peakRssKiB();
  if (given_)
    *given_ = std::move(buffers_);
  return report_;
}

int effectiveThreads(const RunOptions &options) {
  if (options.threads > 0)
    return options.threads;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

RunReport runBundle(const Bundle &bundle, const RunOptions &options) {
  Runner runner(bundle, options);
  return runner.run();
}

RunReport runBundle(const Bundle &bundle, const RunOptions &options,
                    std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  Runner runner(bundle, options, &storages);
  return runner.run();
}

} // namespace npusim::runtime
