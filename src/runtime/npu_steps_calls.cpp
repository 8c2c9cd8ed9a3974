// Library calls on the NPU: the call planned by the NPU library (its kernel
// chosen by the timing simulator when several can run it), its kernels
// compiled, its launches run, and its outputs compared with the host
// implementation's; in timing mode, which storages its programs read for
// addresses or control.
#include "runtime/npu_steps_internal.h"

#include "core/error.h"
#include "library/library.h"
#include "npu/execution.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace npusim::runtime {

namespace {

/// The bundle's tensor as the NPU library names it: by storage number.
library::TensorRef libraryTensor(const TensorRef &t,
                                 const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  return library::TensorRef{static_cast<int>(t.storage), t.offset, t.shape, t.stride,
                            storages[static_cast<size_t>(t.storage)]->dtype};
}

} // namespace

bool NpuSteps::callOnNpu(const std::string &op) {
  return library::isPlanned(op);
}

NpuSteps::PlannedCall NpuSteps::planFor(const Step &step,
                                        const std::vector<std::unique_ptr<reference::Buffer>> &storages) {
  std::vector<library::CallArgument> callArgs;
  callArgs.reserve(step.callArgs.size());
  for (const CallValue &v : step.callArgs)
    callArgs.push_back(core::mapTensors<library::TensorRef>(
        v, [&](const TensorRef &t) { return libraryTensor(t, storages); }));
  std::vector<library::TensorRef> outRefs(step.out.size());
  std::vector<const library::TensorRef *> outPointers(step.out.size(), nullptr);
  for (size_t i = 0; i < step.out.size(); ++i)
    if (step.out[i]) {
      outRefs[i] = libraryTensor(*step.out[i], storages);
      outPointers[i] = &outRefs[i];
    }
  const config::HardwareConfig &machine = impl_->options.machine;
  library::MachineShape shape = library::machineShapeOf(machine);
  shape.mapping = impl_->options.mapping;
  shape.mappingStrategy = impl_->options.mappingStrategy;
  shape.gemmKernel = impl_->options.gemmKernel;
  shape.convKernel = impl_->options.convKernel;
  shape.attentionKernel = impl_->options.attentionKernel;
  if (shape.gemmKernel.empty() && library::isGemmCall(step.name))
    shape.gemmKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages,
                                     library::gemmKernels(), &library::MachineShape::gemmKernel);
  else if (library::isConvolutionCall(step.name)) {
    if (shape.convKernel.empty())
      shape.convKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages,
                                       library::convKernels(), &library::MachineShape::convKernel);
    // A convolution planned as GEMMs (1x1, stride 1) times their kernels as
    // a GEMM call does; for the others the plans do not differ and nothing
    // more is timed.
    if (shape.gemmKernel.empty())
      shape.gemmKernel = fastestKernel(step.name, callArgs, outPointers, shape, storages,
                                       library::gemmKernels(), &library::MachineShape::gemmKernel);
  } else if (shape.attentionKernel.empty() && library::isAttentionCall(step.name))
    shape.attentionKernel =
        fastestKernel(step.name, callArgs, outPointers, shape, storages, library::attentionKernels(),
                      &library::MachineShape::attentionKernel);
  PlannedCall planned;
  planned.plan = library::planCall(step.name, callArgs, outPointers, shape);
  // Scratch buffers follow the storages' ids.
  planned.scratchBase = library::scratchBufferBase(callArgs, outPointers);
  return planned;
}

const NpuKernel &NpuSteps::libraryKernel(const library::KernelLaunch &launch) {
  auto &[source, file] = impl_->libraryFiles[launch.kernelName];
  if (!file) {
    file = std::make_unique<triton::KernelFile>(triton::loadKernel(launch.source, launch.kernelName + ".py"));
    source = launch.source;
  } else if (source != launch.source) {
    // Compiled programs are cached by name and constexprs: a planner that gave
    // two different sources one name would run the first for both.
    throw core::RuntimeError("library kernel " + launch.kernelName +
                             ": two different sources carry this name (a planner must name every "
                             "source it generates uniquely)");
  }
  triton::ConstexprBindings constexprs;
  for (const auto &[name, value] : launch.constexprs)
    constexprs[name] = value;
  std::string key = "library:" + launch.kernelName;
  for (const auto &[name, value] : launch.constexprs)
    key += "|" + name + "=" + std::to_string(value);
  auto &kernel = impl_->kernels[key];
  if (!kernel) {
    const auto start = Clock::now();
    kernel = compileForNpu(*file, constexprs, {}, impl_->options.machine, {}, searchThreads(impl_->options));
    impl_->report.compileMs += millisecondsSince(start);
  }
  return *kernel;
}

std::set<int> NpuSteps::callAddressStorages(const Step &step,
                                            const std::vector<std::unique_ptr<reference::Buffer>> &storages,
                                            std::string &reason) {
  PlannedCall planned;
  try {
    planned = planFor(step, storages);
  } catch (const core::RuntimeError &) {
    return {}; // runs on the host, which computes its values in every mode
  }
  std::set<int> read;
  for (const library::KernelLaunch &launch : planned.plan.launches) {
    std::string why;
    std::vector<int> parameters;
    if (npu::timingValueNeed(libraryKernel(launch).program, &why, &parameters) == npu::ValueNeed::None)
      continue;
    if (reason.empty())
      reason = launch.kernelName + ": " + why;
    for (int p : parameters) {
      const auto a = static_cast<size_t>(p);
      if (a >= launch.arguments.size() || !launch.arguments[a].isPointer)
        continue;
      if (launch.arguments[a].buffer < planned.scratchBase) {
        read.insert(launch.arguments[a].buffer);
        continue;
      }
      // A scratch buffer an earlier launch of the call wrote: all the call
      // reads may matter.
      for (const CallValue &v : step.callArgs)
        core::mapTensors<int>(v, [&](const TensorRef &t) {
          read.insert(static_cast<int>(t.storage));
          return 0;
        });
    }
  }
  return read;
}

std::optional<std::vector<bool>>
NpuSteps::call(const Step &step, std::span<const reference::HostCallValue> args,
               std::span<const reference::TensorView *const> outs,
               const std::vector<std::unique_ptr<reference::Buffer>> &storages, bool computeValues,
               bool verify, StepResult &result) {
  PlannedCall planned;
  try {
    planned = planFor(step, storages);
  } catch (const core::RuntimeError &e) {
    result.message = std::string("ran on the host: no NPU plan: ") + e.what();
    return std::nullopt;
  }
  const library::CallPlan &plan = planned.plan;
  const int base = planned.scratchBase;
  std::vector<std::unique_ptr<reference::Buffer>> scratch;
  for (size_t i = 0; i < plan.scratch.size(); ++i) {
    auto b = std::make_unique<reference::Buffer>();
    b->name = step.name + " scratch " + std::to_string(i);
    b->dtype = plan.scratch[i].dtype;
    const int64_t bytes = plan.scratch[i].elements * core::byteSize(b->dtype);
    // Timing mode holds no scratch contents where the call computes no values.
    if (!computeValues && !verify && bytes > 0)
      impl_->absent[b.get()] = bytes;
    else
      b->bytes.assign(static_cast<size_t>(bytes), 0);
    scratch.push_back(std::move(b));
  }
  auto bufferById = [&](int id) -> reference::Buffer * {
    if (id >= 0 && static_cast<size_t>(id) < storages.size() && id < base)
      return storages[static_cast<size_t>(id)].get();
    const size_t s = static_cast<size_t>(id - base);
    if (id >= base && s < scratch.size())
      return scratch[s].get();
    throw core::RuntimeError("internal error: library plan for " + step.name + " names buffer " +
                             std::to_string(id));
  };

  // The outputs' storages, compared after the NPU run.
  std::vector<reference::Buffer *> outBuffers;
  for (const reference::TensorView *o : outs)
    if (o && std::find(outBuffers.begin(), outBuffers.end(), o->buffer) == outBuffers.end())
      outBuffers.push_back(o->buffer);
  std::vector<std::vector<uint8_t>> expected;
  std::vector<bool> defined = plan.outputDefined;
  if (verify) {
    const auto start = Clock::now();
    std::vector<std::vector<uint8_t>> original;
    for (reference::Buffer *b : outBuffers)
      original.push_back(b->bytes);
    defined = reference::runHostCall(step.name, args, outs);
    for (size_t i = 0; i < outBuffers.size(); ++i) {
      expected.push_back(std::move(outBuffers[i]->bytes));
      outBuffers[i]->bytes = std::move(original[i]);
    }
    impl_->report.npuCheckMs += millisecondsSince(start);
  }

  for (const library::KernelLaunch &launch : plan.launches) {
    const NpuKernel *kernel = &libraryKernel(launch);
    if (result.blockSizes.empty())
      result.blockSizes = describeBlocks(*kernel, impl_->libraryFiles.at(launch.kernelName).file->metadata);
    LaunchBuffers used;
    std::vector<functional::LaunchArgument> launchArgs;
    for (const library::KernelArgument &a : launch.arguments) {
      functional::LaunchArgument l;
      if (a.isPointer) {
        l.buffer = used.indexOf(bufferById(a.buffer));
        l.elementOffset = a.elementOffset;
      } else {
        l.intValue = a.intValue;
        l.floatValue = a.floatValue;
      }
      launchArgs.push_back(l);
    }
    impl_->execute(kernel->program, triton::GridSize{launch.grid[0], launch.grid[1], launch.grid[2]}, used,
                   launchArgs, computeValues, launch.kernelName, result);
  }
  // Scratch buffers die with the call; a later one may get the same host
  // address, so it must not inherit this one's DRAM address.
  for (const auto &b : scratch) {
    impl_->addresses.erase(b.get());
    impl_->absent.erase(b.get());
  }
  if (!verify)
    return plan.outputDefined;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (!outs[i] || (i < defined.size() && !defined[i]))
      continue;
    const size_t b = static_cast<size_t>(std::find(outBuffers.begin(), outBuffers.end(), outs[i]->buffer) -
                                         outBuffers.begin());
    ++impl_->report.buffersCompared;
    // Compare the view only: an output's storage may hold other tensors that
    // the call does not define.
    reference::Buffer expectedBuffer;
    expectedBuffer.dtype = outBuffers[b]->dtype;
    expectedBuffer.bytes = expected[b];
    reference::TensorView expectedView = *outs[i];
    expectedView.buffer = &expectedBuffer;
    core::NpyArray wantArray;
    wantArray.shape = {expectedView.numel()};
    std::optional<ElementRule> rule;
    if (core::isFloat(expectedBuffer.dtype)) {
      const std::vector<double> want = reference::readValues(expectedView);
      wantArray.dtype = core::DType::Float64;
      wantArray.bytes.resize(want.size() * sizeof(double));
      std::memcpy(wantArray.bytes.data(), want.data(), wantArray.bytes.size());
      rule = oneRounding(expectedBuffer.dtype, want);
    } else {
      const std::vector<int64_t> want = reference::readIntegers(expectedView);
      wantArray.dtype = core::DType::Int64;
      wantArray.bytes.resize(want.size() * sizeof(int64_t));
      std::memcpy(wantArray.bytes.data(), want.data(), wantArray.bytes.size());
    }
    const Comparison c = compareWithReference(*outs[i], wantArray, rule ? &*rule : nullptr);
    if (!c.ok) {
      result.result = Outcome::Diverged;
      result.npuCheck = "differs from the reference";
      result.message = "the NPU kernels (" + result.blockSizes + ") and the reference differ in out[" +
                       std::to_string(i) + "]: " + c.message;
      return defined;
    }
  }
  result.npuCheck = "matches the reference";
  return defined;
}

} // namespace npusim::runtime
