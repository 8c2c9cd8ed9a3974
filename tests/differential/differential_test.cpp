// The randomized differential test: Inductor-style kernels generated from a
// seed run through the reference interpreter (with its own block sizes) and
// through compile + the functional simulator on two machines; every pointer
// buffer must agree. NPUSIM_DIFFERENTIAL_CASES and NPUSIM_DIFFERENTIAL_SEED
// choose the run (docs/testing.md); tests/differential/regressions/*.py are
// reduced kernels of mismatches found this way, always run.
#include "differential/differential_support.h"
#include "differential/kernel_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace npusim::differential {
namespace {

// What fits in about 20 s of a Release build on two cores; the sanitizer
// build (several times slower) runs fewer to stay under a minute.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t defaultCases = 60;
#else
constexpr uint64_t defaultCases = 250;
#endif
constexpr uint64_t defaultSeed = 20261129;

// The seed of case i: spread so that neighbouring runs do not overlap much.
uint64_t caseSeed(uint64_t base, uint64_t i) { return base * 1000003 + i; }

std::string reproduction(const GeneratedKernel &kernel, const RunResult &result) {
  std::ostringstream out;
  out << "seed " << kernel.seed << " (" << kernel.family << ") on " << result.machine << ": "
      << (result.verdict == Verdict::Invalid ? "the reference rejects the generated kernel (generator fault)"
                                             : "the NPU differs from the reference")
      << "\n"
      << result.detail;
  std::string options;
  for (const GeneratedBuffer &b : kernel.buffers)
    options += " --size " + b.name + "=" + std::to_string(b.elements);
  for (const auto &[name, value] : kernel.scalars)
    options += " --arg " + name + "=" + std::to_string(value);
  out << "\nrerun this case alone: NPUSIM_DIFFERENTIAL_KERNEL_SEED=" << kernel.seed
      << " differential_tests --gtest_filter='Differential.Generated*'\n"
      << "or save the source below as " << kernel.name << ".py and compare (the command line fills its own inputs)\n"
      << "  npusim kernel " << kernel.name << ".py" << options << " --mode functional\n"
      << "  with --mode reference\n"
      << "----- " << kernel.name << ".py -----\n"
      << kernel.source << "-----\n";
  return out.str();
}

DifferentialRun runFor(const GeneratedKernel &kernel) {
  DifferentialRun run;
  run.source = kernel.source;
  run.fileName = kernel.name + ".py";
  for (const GeneratedBuffer &b : kernel.buffers)
    run.bufferElements[b.name] = b.elements;
  run.scalarArguments = kernel.scalars;
  run.inputSeed = kernel.seed;
  // The reference's tile budget varies with the seed: its block sizes then
  // differ from the NPU's in most cases.
  static const int64_t budgets[] = {4096, 1024, 256, 64};
  run.referenceMaxTileElements = budgets[kernel.seed % 4];
  // Every third case the NPU also runs with random block sizes of its own.
  run.npuBlockSeed = kernel.seed % 3 == 0 ? kernel.seed + 1 : 0;
  return run;
}

TEST(Differential, GeneratedKernelsMatchReference) {
  uint64_t cases = environmentNumber("NPUSIM_DIFFERENTIAL_CASES", defaultCases);
  const uint64_t seed = environmentNumber("NPUSIM_DIFFERENTIAL_SEED", defaultSeed);
  // One case by its kernel seed, as a failure prints it.
  const uint64_t kernelSeed = environmentNumber("NPUSIM_DIFFERENTIAL_KERNEL_SEED", 0);
  if (kernelSeed != 0)
    cases = 1;
  const std::vector<config::HardwareConfig> machines{defaultMachine(), eightLaneMachine()};
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, int> perFamily;
  int failures = 0;
  uint64_t idle = 0; // cases whose reference run changed no element
  for (uint64_t i = 0; i < cases; ++i) {
    const GeneratedKernel kernel = generateKernel(kernelSeed != 0 ? kernelSeed : caseSeed(seed, i));
    ++perFamily[kernel.family];
    const RunResult result = runDifferential(runFor(kernel), machines);
    idle += result.elementsChanged == 0 ? 1 : 0;
    if (result.verdict != Verdict::Match) {
      ++failures;
      ADD_FAILURE() << reproduction(kernel, result);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("differential: %llu cases from seed %llu, %d failing, %.1f s (", static_cast<unsigned long long>(cases),
              static_cast<unsigned long long>(seed), failures, seconds);
  for (const auto &[family, count] : perFamily)
    std::printf(" %s %d", family.c_str(), count);
  std::printf(" ), %llu writing nothing new\n", static_cast<unsigned long long>(idle));
}

std::vector<std::string> regressionFiles() {
  const std::filesystem::path folder = std::filesystem::path(NPUSIM_TEST_DATA).parent_path() / "differential" / "regressions";
  std::vector<std::string> files;
  if (std::filesystem::exists(folder))
    for (const auto &entry : std::filesystem::directory_iterator(folder))
      if (entry.path().extension() == ".py")
        files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Differential, RegressionKernelsMatchReference) {
  const std::vector<config::HardwareConfig> machines{defaultMachine(), eightLaneMachine()};
  EXPECT_FALSE(regressionFiles().empty());
  for (const std::string &path : regressionFiles()) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    for (const int64_t budget : {4096, 64}) {
      DifferentialRun run;
      run.source = text.str();
      run.fileName = path;
      run.referenceMaxTileElements = budget;
      const RunResult result = runDifferential(run, machines);
      EXPECT_EQ(result.verdict, Verdict::Match) << path << " on " << result.machine << ":\n" << result.detail;
    }
  }
}

} // namespace
} // namespace npusim::differential
