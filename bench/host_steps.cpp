// Host-side work of a bundle run, in wall time (no Google Benchmark needed):
//  - aten.zero_, aten.fill_ and aten.copy_ of a 60 MiB fp32 tensor, contiguous
//    and transposed, against memset/memcpy of the same bytes and against the
//    element-by-element conversion path (readValues/writeValues);
//  - the fixed cost of one bundle step: a run of 10,000 aten.zero_ calls on a
//    4-element tensor, whose own work is nothing.
// Usage: host_steps [repeats]. Prints one line per measurement, the best of the repeats.
#include "reference/host_calls.h"
#include "runtime/bundle.h"
#include "runtime/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {

using namespace npusim;
using Clock = std::chrono::steady_clock;

constexpr int64_t kSide = 2048, kLarge = 15 * 1024 * 1024 / kSide * kSide; // 60 MiB of fp32

double bestMs(int repeats, const std::function<void()> &f) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return best;
}

void report(const char *what, double ms, int64_t bytes) {
  std::printf("%-44s %9.3f ms  %7.2f GB/s\n", what, ms, static_cast<double>(bytes) / (ms * 1e6));
}

runtime::CallValue tensorValue(int64_t storage, int64_t elements) {
  runtime::CallValue v;
  v.kind = runtime::CallValue::Kind::Tensor;
  v.tensor.storage = storage;
  v.tensor.shape = {elements};
  v.tensor.stride = {1};
  return v;
}

reference::HostCallValue viewValue(reference::Buffer &b, std::vector<int64_t> shape,
                                  std::vector<int64_t> stride) {
  reference::HostCallValue v;
  v.kind = core::CallKind::Tensor;
  v.tensor = reference::TensorView{&b, 0, std::move(shape), std::move(stride)};
  return v;
}

void hostCalls(int repeats) {
  reference::Buffer a{"a", core::DType::Float32, std::vector<uint8_t>(kLarge * 4, 1)};
  reference::Buffer b{"b", core::DType::Float32, std::vector<uint8_t>(kLarge * 4, 2)};
  const int64_t bytes = kLarge * 4;
  const std::vector<int64_t> rowMajor = {kSide, 1}, shape = {kLarge / kSide, kSide};
  report("memset", bestMs(repeats, [&] { std::memset(a.bytes.data(), 0, a.bytes.size()); }), bytes);
  report("memcpy", bestMs(repeats, [&] { std::memcpy(a.bytes.data(), b.bytes.data(), a.bytes.size()); }),
         bytes);
  const reference::TensorView whole{&a, 0, {kLarge}, {1}};
  report(
      "writeValues (the element path)",
      bestMs(repeats,
             [&] { reference::writeValues(whole, std::vector<double>(static_cast<size_t>(kLarge), 0.0)); }),
      bytes);
  auto call = [&](const char *op, std::vector<reference::HostCallValue> args,
                  const reference::TensorView &out) {
    const reference::TensorView *outs[] = {&out};
    reference::runHostCall(op, args, outs);
  };
  const reference::HostCallValue self = viewValue(a, shape, rowMajor);
  reference::HostCallValue two;
  two.kind = core::CallKind::Float;
  two.floatValue = 2.5;
  report("aten.zero_ contiguous", bestMs(repeats, [&] { call("aten.zero_", {self}, self.tensor); }), bytes);
  report("aten.fill_ 2.5 contiguous",
         bestMs(repeats,
                [&] {
                  call("aten.fill_.Scalar", {self, two}, self.tensor);
                }),
         bytes);
  const reference::HostCallValue src = viewValue(b, shape, rowMajor);
  report("aten.copy_ contiguous",
         bestMs(repeats,
                [&] {
                  call("aten.copy_", {self, src}, self.tensor);
                }),
         bytes);
  const reference::HostCallValue transposed = viewValue(b, shape, {1, kLarge / kSide});
  report("aten.copy_ of a transposed source",
         bestMs(repeats,
                [&] {
                  call("aten.copy_", {self, transposed}, self.tensor);
                }),
         bytes);
}

void stepCost(int repeats) {
  constexpr int64_t kSteps = 10000;
  runtime::Bundle bundle;
  bundle.storages.push_back(runtime::Storage{0, core::DType::Float32, 4});
  for (int64_t i = 0; i < kSteps; ++i) {
    runtime::Step s;
    s.kind = runtime::Step::Kind::Call;
    s.name = "aten.zero_";
    s.path = "steps[" + std::to_string(i) + "]";
    s.callArgs.push_back(tensorValue(0, 4));
    s.out.push_back(tensorValue(0, 4).tensor);
    bundle.steps.push_back(std::move(s));
  }
  const runtime::RunOptions options;
  const double ms = bestMs(repeats, [&] {
    const runtime::RunReport r = runtime::runBundle(bundle, options);
    if (!r.completed) {
      std::fprintf(stderr, "%s\n", r.failure.c_str());
      std::exit(1);
    }
  });
  std::printf("%-44s %9.3f us per step (%lld steps, reference mode)\n", "fixed cost of a call step",
              ms * 1e3 / kSteps, static_cast<long long>(kSteps));
}

} // namespace

int main(int argc, char **argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  hostCalls(repeats);
  stepCost(repeats);
  return 0;
}
