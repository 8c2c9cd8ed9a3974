// Compiled programs compute what the reference interpreter computes: kernels
// of the corpus run through compile + functional::run and through
// reference::runLaunch on the same generated inputs, and every pointer buffer
// is compared afterwards (floats within 1e-4 + 1e-4 * |reference|, NaN equal to
// NaN; integers and bools exactly).
#include "compiler/kernel_support.h"
#include "core/float16.h"
#include "functional/simulator.h"
#include "reference/interpreter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace npusim::compiler {
namespace {

using core::DType;

// A small deterministic generator (64-bit LCG, high bits).
class Numbers {
public:
  explicit Numbers(uint64_t seed) : state_(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  double uniform() { // [0, 1)
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) / static_cast<double>(uint64_t{1} << 53);
  }

private:
  uint64_t state_;
};

void storeElement(std::vector<uint8_t> &bytes, DType type, int64_t e, double f, int64_t i) {
  const size_t size = static_cast<size_t>(core::byteSize(type));
  uint8_t *p = bytes.data() + static_cast<size_t>(e) * size;
  switch (type) {
  case DType::Float32: {
    const float v = static_cast<float>(f);
    std::memcpy(p, &v, 4);
    return;
  }
  case DType::Float64: std::memcpy(p, &f, 8); return;
  case DType::Float16: {
    const uint16_t v = core::doubleToHalf(f);
    std::memcpy(p, &v, 2);
    return;
  }
  case DType::BFloat16: {
    const uint16_t v = core::doubleToBFloat16(f);
    std::memcpy(p, &v, 2);
    return;
  }
  default: std::memcpy(p, &i, size); return; // little-endian: the low bytes
  }
}

double loadFloat(const std::vector<uint8_t> &bytes, DType type, int64_t e) {
  const uint8_t *p = bytes.data() + static_cast<size_t>(e) * static_cast<size_t>(core::byteSize(type));
  switch (type) {
  case DType::Float32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::Float64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case DType::Float16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return core::halfToFloat(v);
  }
  default: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return core::bfloat16ToFloat(v);
  }
  }
}

struct Launch {
  std::vector<reference::Buffer> buffers; // one per parameter (empty for scalars)
  std::vector<reference::Argument> referenceArguments;
  std::vector<functional::LaunchArgument> npuArguments;
  reference::Grid grid;
};

int64_t scalarValue(const triton::KernelMetadata &metadata, const std::string &name) {
  if (auto it = metadata.bodyConstants.find(name); it != metadata.bodyConstants.end())
    return it->second;
  const std::string axis =
      name.size() > 5 && name.substr(name.size() - 5) == "numel" ? name.substr(0, name.size() - 5) : name;
  if (auto it = metadata.sizeHints.find(axis); it != metadata.sizeHints.end())
    return it->second;
  return 64;
}

Launch makeLaunch(const testing::CompiledKernel &kernel, int64_t elements, uint64_t seed) {
  const ir::Function &function = *kernel.function;
  const triton::KernelMetadata &metadata = kernel.file.metadata;
  Launch launch;
  Numbers numbers(seed);
  std::map<std::string, int64_t> integers;
  launch.buffers.resize(function.parameters().size());
  int bufferIndex = 0;
  for (size_t i = 0; i < function.parameters().size(); ++i) {
    const ir::Parameter &p = function.parameters()[i];
    reference::Argument ra;
    functional::LaunchArgument na;
    if (p.type.isPointer) {
      reference::Buffer &b = launch.buffers[i];
      b.name = p.name;
      b.dtype = p.type.dtype;
      b.bytes.assign(static_cast<size_t>(elements * core::byteSize(p.type.dtype)), 0);
      for (int64_t e = 0; e < elements; ++e) {
        const double u = numbers.uniform();
        storeElement(b.bytes, b.dtype, e, 4.0 * u - 2.0,
                     b.dtype == DType::Bool ? (u < 0.5) : static_cast<int64_t>(u * 8));
      }
      ra.buffer = &b;
      na.buffer = bufferIndex++;
    } else if (core::isFloat(p.type.dtype)) {
      ra.scalar.floatValue = na.floatValue = 1e-5;
    } else {
      const int64_t v = scalarValue(metadata, p.name);
      ra.scalar.intValue = na.intValue = v;
      integers[p.name] = v;
    }
    launch.referenceArguments.push_back(ra);
    launch.npuArguments.push_back(na);
  }
  if (auto grid = triton::inferGrid(metadata, kernel.constexprs, integers))
    launch.grid = reference::Grid{grid->x, grid->y, grid->z};
  return launch;
}

int64_t bufferElements(const triton::KernelMetadata &metadata, const ir::Function &function) {
  int64_t product = 1;
  for (const ir::Parameter &p : function.parameters())
    if (!p.type.isPointer && !core::isFloat(p.type.dtype) && p.name.find("numel") != std::string::npos)
      product *= std::max<int64_t>(1, scalarValue(metadata, p.name));
  return std::max<int64_t>(product, 4096);
}

/// Empty when every buffer matches; otherwise what differs.
std::string compareBuffers(const Launch &expected, const std::vector<std::vector<uint8_t>> &actual) {
  std::ostringstream diff;
  size_t k = 0;
  for (const reference::Buffer &b : expected.buffers) {
    if (b.bytes.empty())
      continue;
    const std::vector<uint8_t> &got = actual[k++];
    const int64_t n = b.numElements();
    int reported = 0;
    for (int64_t e = 0; e < n && reported < 3; ++e) {
      if (core::isFloat(b.dtype)) {
        const double want = loadFloat(b.bytes, b.dtype, e), have = loadFloat(got, b.dtype, e);
        const bool ok = (std::isnan(want) && std::isnan(have)) || want == have ||
                        std::fabs(want - have) <= 1e-4 + 1e-4 * std::fabs(want);
        if (!ok) {
          diff << b.name << "[" << e << "]: reference " << want << ", npu " << have << "\n";
          ++reported;
        }
      } else {
        const size_t size = static_cast<size_t>(core::byteSize(b.dtype));
        if (std::memcmp(b.bytes.data() + static_cast<size_t>(e) * size,
                        got.data() + static_cast<size_t>(e) * size, size) != 0) {
          diff << b.name << "[" << e << "]: integer bytes differ\n";
          ++reported;
        }
      }
    }
  }
  return diff.str();
}

enum class Outcome { Match, Mismatch, NoReference };

Outcome runBoth(const std::string &path, const config::HardwareConfig &machine, std::string &detail) {
  testing::CompiledKernel kernel = testing::compileKernelFile(path, machine);
  // Kernels without numel arguments (templates) address more than the default
  // size: buffers grow until the reference stays inside them.
  Launch launch;
  std::vector<std::vector<uint8_t>> npuBytes;
  for (int64_t elements = bufferElements(kernel.file.metadata, *kernel.function);; elements *= 16) {
    launch = makeLaunch(kernel, elements, 7);
    npuBytes.clear();
    for (const reference::Buffer &b : launch.buffers)
      if (!b.bytes.empty())
        npuBytes.push_back(b.bytes);
    reference::LaunchOptions options;
    options.integerDivisionByZero = reference::DivisionByZero::RiscV;
    try {
      reference::runLaunch(*kernel.function, launch.grid, launch.referenceArguments, options);
      break;
    } catch (const core::RuntimeError &e) {
      if (std::string(e.what()).find("out-of-bounds") == std::string::npos ||
          elements >= (int64_t{1} << 22)) {
        detail = std::string("reference: ") + e.what();
        return Outcome::NoReference; // the generated inputs do not suit this kernel
      }
    }
  }
  std::vector<functional::DramBuffer> dram;
  uint64_t address = 1 << 20;
  size_t k = 0;
  for (const reference::Buffer &b : launch.buffers) {
    if (b.bytes.empty())
      continue;
    dram.push_back(functional::DramBuffer{b.name, b.dtype, address, &npuBytes[k++]});
    address += (b.bytes.size() + 4095) / 4096 * 4096 + 4096;
  }
  const functional::Grid grid{launch.grid.x, launch.grid.y, launch.grid.z};
  try {
    functional::run(kernel.program, grid, dram, launch.npuArguments);
  } catch (const std::exception &e) {
    detail = std::string("npu: ") + e.what();
    return Outcome::Mismatch;
  }
  detail = compareBuffers(launch, npuBytes);
  return detail.empty() ? Outcome::Match : Outcome::Mismatch;
}

void checkFiles(const std::vector<std::string> &files, const config::HardwareConfig &machine) {
  int matched = 0, noReference = 0;
  std::ostringstream failures;
  for (const std::string &path : files) {
    std::string detail;
    Outcome outcome = Outcome::Mismatch;
    try {
      outcome = runBoth(path, machine, detail);
    } catch (const std::exception &e) {
      detail = e.what();
    }
    if (outcome == Outcome::Match)
      ++matched;
    else if (outcome == Outcome::NoReference && ++noReference && std::getenv("NPUSIM_COMPILER_ALL_KERNELS"))
      std::printf("no reference run: %s: %s\n", path.c_str(), detail.substr(0, 300).c_str());
    else
      failures << path << ":\n" << detail << "\n";
  }
  std::printf("%s: %d of %zu kernels match the reference (%d without a reference run)\n",
              machine.name.c_str(), matched, files.size(), noReference);
  EXPECT_EQ(matched + noReference, static_cast<int>(files.size())) << failures.str();
}

std::vector<std::string> valueTestFiles() {
  if (const char *all = std::getenv("NPUSIM_COMPILER_ALL_KERNELS"); all && *all)
    return testing::corpusKernelFiles();
  // The hand-picked kernels of tests/data/kernels and tests/compiler/data
  // (error_*.py are meant not to compile), and every 16th file of the
  // whole corpus (NPUSIM_COMPILER_ALL_KERNELS=1 runs all of it).
  std::vector<std::string> files;
  for (const std::string &dir :
       {std::string(NPUSIM_TEST_DATA) + "/kernels", std::string(NPUSIM_TEST_DATA) + "/../compiler/data"})
    for (const auto &entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".py" && entry.path().filename().string().rfind("error_", 0) != 0)
        files.push_back(entry.path().string());
  // A depthwise convolution template, whose dot shrink-dead-lanes cuts to
  // one column and one K term and outer-product-dots moves to the vector unit.
  files.push_back(std::string(NPUSIM_TEST_DATA) +
                  "/../../examples/mobilenet_v2-templates/kernels/"
                  "triton_tem_fused__native_batch_norm_legit_no_training_add_convolution_hardtanh_18.py");
  std::sort(files.begin(), files.end());
  const std::vector<std::string> corpus = testing::corpusKernelFiles();
  for (size_t i = 0; i < corpus.size(); i += 16)
    if (std::find(files.begin(), files.end(), corpus[i]) == files.end())
      files.push_back(corpus[i]);
  return files;
}

TEST(Values, KernelsMatchReferenceOnDefaultMachine) {
  config::HardwareConfig machine;
  machine.name = "default";
  checkFiles(valueTestFiles(), machine);
}

TEST(Values, KernelsMatchReferenceOnEightLanes) {
  checkFiles(valueTestFiles(), testing::smallMachine());
}

} // namespace
} // namespace npusim::compiler
