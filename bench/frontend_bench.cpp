// Parse + check (lowering to verified TileIR) time of a kernel file.
// Default kernel: the largest template kernel shipped in bench/kernels; pass
// NPUSIM_BENCH_KERNEL=path to measure another.
#include "triton/frontend.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {

std::string kernelPath() {
  if (const char *p = std::getenv("NPUSIM_BENCH_KERNEL"))
    return p;
  return std::string(NPUSIM_BENCH_DATA) + "/mm_1024.py";
}

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void BM_ParseAndCheck(benchmark::State &state) {
  using namespace npusim;
  const std::string path = kernelPath();
  const std::string source = readAll(path);
  int64_t ops = 0;
  for (auto _ : state) {
    triton::KernelFile file = triton::loadKernel(source, path);
    auto function = triton::lowerKernel(file, triton::defaultConstexprs(file.metadata));
    ops = function->numOps();
    benchmark::DoNotOptimize(function);
  }
  state.counters["tileir_ops"] = static_cast<double>(ops);
  state.counters["source_bytes"] = static_cast<double>(source.size());
  state.SetLabel(path.substr(path.find_last_of('/') + 1));
}
BENCHMARK(BM_ParseAndCheck)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
