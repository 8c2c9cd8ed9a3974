// Reference-interpreter throughput: a 16M-element pointwise kernel (elements
// per second = output elements / time) and a 1024^3 tl.dot template kernel
// (multiply-accumulates per second).
#include "reference/interpreter.h"
#include "triton/frontend.h"

#include <benchmark/benchmark.h>

#include <cstring>

namespace {

using namespace npusim;

reference::Buffer floatBuffer(const std::string &name, int64_t n, float scale) {
  reference::Buffer b{name, core::DType::Float32, std::vector<uint8_t>(static_cast<size_t>(n) * 4)};
  for (int64_t i = 0; i < n; ++i) {
    const float v = scale * static_cast<float>((i * 7919) % 2003 - 1001) / 1001.0f;
    std::memcpy(b.bytes.data() + i * 4, &v, 4);
  }
  return b;
}

void BM_Pointwise16M(benchmark::State &state) {
  const int64_t n = 16777216;
  auto file = triton::loadKernelFile(std::string(NPUSIM_BENCH_DATA) + "/pointwise_16m.py");
  const int64_t block = state.range(0);
  auto function = triton::lowerKernel(file, {{"XBLOCK", block}});
  reference::Buffer in0 = floatBuffer("in_ptr0", n, 1.0f), in1 = floatBuffer("in_ptr1", n, 2.0f);
  reference::Buffer out{"out_ptr0", core::DType::Float32, std::vector<uint8_t>(static_cast<size_t>(n) * 4)};
  std::vector<reference::Argument> args(4);
  args[0].buffer = &in0;
  args[1].buffer = &in1;
  args[2].buffer = &out;
  args[3].scalar.intValue = n;
  for (auto _ : state)
    benchmark::DoNotOptimize(reference::runLaunch(*function, {n / block, 1, 1}, args));
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel("items = output elements");
}
BENCHMARK(BM_Pointwise16M)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_MatmulTemplate1024(benchmark::State &state) {
  const int64_t n = 1024;
  auto file = triton::loadKernelFile(std::string(NPUSIM_BENCH_DATA) + "/mm_1024.py");
  auto function = triton::lowerKernel(file, {});
  reference::Buffer a = floatBuffer("arg_A", n * n, 1.0f), b = floatBuffer("arg_B", n * n, 1.0f);
  reference::Buffer c{"out_ptr0", core::DType::Float32, std::vector<uint8_t>(static_cast<size_t>(n * n) * 4)};
  std::vector<reference::Argument> args(3);
  args[0].buffer = &a;
  args[1].buffer = &b;
  args[2].buffer = &c;
  const int64_t programs = (n / 64) * (n / 64);
  for (auto _ : state)
    benchmark::DoNotOptimize(reference::runLaunch(*function, {programs, 1, 1}, args));
  state.SetItemsProcessed(state.iterations() * n * n * n);
  state.SetLabel("items = multiply-accumulates");
}
BENCHMARK(BM_MatmulTemplate1024)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

BENCHMARK_MAIN();
