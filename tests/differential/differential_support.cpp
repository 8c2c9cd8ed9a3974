#include "differential/differential_support.h"

#include "compiler/compiler.h"
#include "core/float16.h"
#include "functional/simulator.h"
#include "reference/interpreter.h"
#include "triton/frontend.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace npusim::differential {
namespace {

using core::DType;

// splitmix64 for the input values: the same bytes on every platform.
class Numbers {
public:
  explicit Numbers(uint64_t seed) : state_(seed) {}
  double uniform() { // [0, 1)
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) / static_cast<double>(uint64_t{1} << 53);
  }

private:
  uint64_t state_;
};

void storeElement(std::vector<uint8_t> &bytes, DType type, int64_t e, double f, int64_t i) {
  const size_t size = static_cast<size_t>(core::byteSize(type));
  uint8_t *p = bytes.data() + static_cast<size_t>(e) * size;
  switch (type) {
  case DType::Float32: { const float v = static_cast<float>(f); std::memcpy(p, &v, 4); return; }
  case DType::Float64: std::memcpy(p, &f, 8); return;
  case DType::Float16: { const uint16_t v = core::doubleToHalf(f); std::memcpy(p, &v, 2); return; }
  case DType::BFloat16: { const uint16_t v = core::doubleToBFloat16(f); std::memcpy(p, &v, 2); return; }
  default: std::memcpy(p, &i, size); return; // little-endian: the low bytes
  }
}

double loadFloat(const std::vector<uint8_t> &bytes, DType type, int64_t e) {
  const uint8_t *p = bytes.data() + static_cast<size_t>(e) * static_cast<size_t>(core::byteSize(type));
  switch (type) {
  case DType::Float32: { float v; std::memcpy(&v, p, 4); return v; }
  case DType::Float64: { double v; std::memcpy(&v, p, 8); return v; }
  case DType::Float16: { uint16_t v; std::memcpy(&v, p, 2); return core::halfToFloat(v); }
  default: { uint16_t v; std::memcpy(&v, p, 2); return core::bfloat16ToFloat(v); }
  }
}

// Floats in [-2, 2), integers in [-20, 20], bools half true.
std::vector<uint8_t> randomBytes(DType type, int64_t elements, uint64_t seed) {
  std::vector<uint8_t> bytes(static_cast<size_t>(elements * core::byteSize(type)), 0);
  Numbers numbers(seed);
  for (int64_t e = 0; e < elements; ++e) {
    const double u = numbers.uniform();
    storeElement(bytes, type, e, 4.0 * u - 2.0,
                 type == DType::Bool ? (u < 0.5 ? 1 : 0) : static_cast<int64_t>(std::floor(u * 41.0)) - 20);
  }
  return bytes;
}

// One unit in the last place of a 16-bit float at v: sums may round
// differently under other block sizes, and the narrowing store can then land
// one step apart.
double narrowUlp(DType type, double v) {
  const int mantissaBits = type == DType::Float16 ? 10 : 7;
  const int minExponent = type == DType::Float16 ? -14 : -126;
  const int exponent = v == 0.0 ? minExponent : std::max(minExponent, std::ilogb(v));
  return std::ldexp(1.0, exponent - mantissaBits);
}

bool floatsAgree(DType type, double want, double have) {
  if ((std::isnan(want) && std::isnan(have)) || want == have)
    return true;
  const double diff = std::fabs(want - have);
  if (diff <= 1e-4 + 1e-4 * std::fabs(want))
    return true;
  return (type == DType::Float16 || type == DType::BFloat16) && diff <= narrowUlp(type, want);
}

// Empty when every buffer matches; otherwise the first few differences.
std::string compareBuffers(const std::vector<reference::Buffer> &expected, const std::vector<std::vector<uint8_t>> &actual) {
  std::ostringstream diff;
  size_t k = 0;
  for (const reference::Buffer &b : expected) {
    if (b.bytes.empty())
      continue;
    const std::vector<uint8_t> &got = actual[k++];
    int reported = 0;
    int64_t differing = 0;
    for (int64_t e = 0; e < b.numElements(); ++e) {
      bool same;
      std::string want, have;
      if (core::isFloat(b.dtype)) {
        const double w = loadFloat(b.bytes, b.dtype, e), h = loadFloat(got, b.dtype, e);
        same = floatsAgree(b.dtype, w, h);
        want = std::to_string(w);
        have = std::to_string(h);
      } else {
        const size_t size = static_cast<size_t>(core::byteSize(b.dtype));
        int64_t w = 0, h = 0;
        std::memcpy(&w, b.bytes.data() + static_cast<size_t>(e) * size, size);
        std::memcpy(&h, got.data() + static_cast<size_t>(e) * size, size);
        if (size == 4) { // sign-extend for the message
          w = static_cast<int32_t>(static_cast<uint32_t>(w));
          h = static_cast<int32_t>(static_cast<uint32_t>(h));
        }
        same = w == h;
        want = std::to_string(w);
        have = std::to_string(h);
      }
      if (!same) {
        ++differing;
        if (reported++ < 4)
          diff << "  " << b.name << "[" << e << "]: reference " << want << ", npu " << have << "\n";
      }
    }
    if (differing > 4)
      diff << "  " << b.name << ": " << differing << " of " << b.numElements() << " elements differ\n";
  }
  return diff.str();
}

/// A scalar argument's value: the run's, the body's constant, else the size
/// hint under `hintKey` ("xnumel" -> "x" when none is given), else 64.
int64_t numelOf(const triton::KernelMetadata &metadata, const DifferentialRun &run, const std::string &name,
                std::string hintKey = {}) {
  if (auto it = run.scalarArguments.find(name); it != run.scalarArguments.end())
    return it->second;
  if (auto it = metadata.bodyConstants.find(name); it != metadata.bodyConstants.end())
    return it->second;
  if (hintKey.empty())
    hintKey = name.substr(0, name.size() - 5); // "xnumel" -> "x", "r0_numel" -> "r0_"
  if (auto it = metadata.sizeHints.find(hintKey); it != metadata.sizeHints.end())
    return it->second;
  return 64;
}

std::vector<compiler::BlockParameter> blockParameters(const triton::KernelMetadata &metadata, const DifferentialRun &run) {
  std::vector<compiler::BlockParameter> parameters;
  for (const std::string &name : metadata.freeConstexprs()) {
    const triton::BlockAxis *axis = triton::findBlockAxis(name);
    if (!axis)
      continue;
    compiler::BlockParameter p;
    p.name = name;
    p.numel = numelOf(metadata, run, std::string(axis->numelArgument), std::string(axis->hintKey));
    p.reduction = axis->reduction;
    parameters.push_back(p);
  }
  return parameters;
}

struct Arguments {
  std::vector<reference::Buffer> buffers; // one per parameter, empty for scalars
  std::vector<reference::Argument> reference;
  std::vector<functional::LaunchArgument> npu;
  std::map<std::string, int64_t> integers;
};

Arguments makeArguments(const ir::Function &function, const triton::KernelMetadata &metadata,
                        const DifferentialRun &run, int64_t defaultElements) {
  Arguments a;
  a.buffers.resize(function.parameters().size());
  int bufferIndex = 0;
  for (size_t i = 0; i < function.parameters().size(); ++i) {
    const ir::Parameter &p = function.parameters()[i];
    reference::Argument ra;
    functional::LaunchArgument na;
    if (p.type.isPointer) {
      reference::Buffer &b = a.buffers[i];
      b.name = p.name;
      b.dtype = p.type.dtype;
      const auto it = run.bufferElements.find(p.name);
      b.bytes = randomBytes(b.dtype, it != run.bufferElements.end() ? it->second : defaultElements, run.inputSeed * 131 + i);
      ra.buffer = &b;
      na.buffer = bufferIndex++;
    } else if (core::isFloat(p.type.dtype)) {
      ra.scalar.floatValue = na.floatValue = 0.5;
    } else {
      const int64_t v = numelOf(metadata, run, p.name);
      ra.scalar.intValue = na.intValue = v;
      a.integers[p.name] = v;
    }
    a.reference.push_back(ra);
    a.npu.push_back(na);
  }
  return a;
}

reference::Grid gridFor(const triton::KernelMetadata &metadata, const triton::ConstexprBindings &constexprs,
                        const std::map<std::string, int64_t> &integers) {
  const std::optional<triton::GridSize> grid = triton::inferGrid(metadata, constexprs, integers);
  if (!grid)
    throw std::runtime_error("no grid for grid type '" + metadata.gridType + "'");
  return reference::Grid{grid->x, grid->y, grid->z};
}

// The NPU side on one machine: block sizes proposed for it (the first
// candidate that fits the scratchpad), then compile and simulate.
std::string runNpu(const triton::KernelFile &file, const config::HardwareConfig &machine, const DifferentialRun &run,
                   const std::vector<reference::Buffer> &initial, const std::vector<reference::Buffer> &expected) {
  const triton::KernelMetadata &metadata = file.metadata;
  std::vector<compiler::BlockChoice> choices =
      compiler::proposeBlockSizes(triton::name(metadata.kind), blockParameters(metadata, run), machine);
  if (choices.empty())
    choices.emplace_back();
  if (run.npuBlockSeed != 0) {
    Numbers numbers(run.npuBlockSeed);
    compiler::BlockChoice random;
    int64_t elements = 1;
    for (const compiler::BlockParameter &p : blockParameters(metadata, run)) {
      int64_t most = 1;
      while (most < p.numel && most < 1024)
        most *= 2;
      int64_t size = 1;
      while (size < most && elements * size * 2 <= 8192 && numbers.uniform() < 0.7)
        size *= 2;
      elements *= size;
      random.values.emplace_back(p.name, size);
    }
    choices.insert(choices.begin(), random);
  }
  for (const compiler::BlockChoice &choice : choices) {
    triton::ConstexprBindings constexprs = triton::defaultConstexprs(metadata);
    std::ostringstream blocks;
    for (const auto &[name, value] : choice.values) {
      constexprs[name] = value;
      blocks << " " << name << "=" << value;
    }
    const auto function = triton::lowerKernel(file, constexprs);
    npu::Program program;
    try {
      program = compiler::compile(*function, machine);
    } catch (const compiler::ScratchpadOverflow &) {
      if (&choice == &choices.back())
        throw;
      continue;
    }
    Arguments arguments = makeArguments(*function, metadata, run, 1);
    std::vector<std::vector<uint8_t>> bytes;
    for (const reference::Buffer &b : initial)
      if (!b.bytes.empty())
        bytes.push_back(b.bytes);
    std::vector<functional::DramBuffer> dram;
    uint64_t address = 1 << 20;
    size_t k = 0;
    for (const reference::Buffer &b : initial) {
      if (b.bytes.empty())
        continue;
      dram.push_back(functional::DramBuffer{b.name, b.dtype, address, &bytes[k++]});
      address += (b.bytes.size() + 4095) / 4096 * 4096 + 4096;
    }
    const reference::Grid grid = gridFor(metadata, constexprs, arguments.integers);
    functional::run(program, functional::Grid{grid.x, grid.y, grid.z}, dram, arguments.npu);
    const std::string diff = compareBuffers(expected, bytes);
    return diff.empty() ? diff : "block sizes:" + blocks.str() + "\n" + diff;
  }
  return {};
}

} // namespace

config::HardwareConfig defaultMachine() {
  config::HardwareConfig machine;
  machine.name = "default-128-lanes";
  return machine;
}

config::HardwareConfig eightLaneMachine() {
  config::HardwareConfig machine;
  machine.name = "8-lanes-32KiB";
  machine.lanes = 8;
  machine.spadKibPerLane = 32;
  return machine;
}

uint64_t environmentNumber(const char *name, uint64_t fallback) {
  const char *text = std::getenv(name);
  if (text == nullptr || *text == '\0')
    return fallback;
  return std::strtoull(text, nullptr, 0);
}

RunResult runDifferential(const DifferentialRun &run, const std::vector<config::HardwareConfig> &machines) {
  RunResult result;
  triton::KernelFile file;
  std::vector<reference::Buffer> initial, expected;
  try {
    file = triton::loadKernel(run.source, run.fileName);
    const triton::KernelMetadata &metadata = file.metadata;
    const triton::ConstexprBindings constexprs = triton::defaultConstexprs(metadata, run.referenceMaxTileElements);
    const auto function = triton::lowerKernel(file, constexprs);
    int64_t elements = 1;
    for (const ir::Parameter &p : function->parameters())
      if (!p.type.isPointer && p.name.find("numel") != std::string::npos)
        elements *= std::max<int64_t>(1, numelOf(metadata, run, p.name));
    // Buffers whose size the caller does not know grow until the reference stays inside them.
    for (;; elements *= 16) {
      Arguments arguments = makeArguments(*function, metadata, run, elements);
      initial = arguments.buffers;
      reference::LaunchOptions options;
      options.integerDivisionByZero = reference::DivisionByZero::RiscV;
      try {
        reference::runLaunch(*function, gridFor(metadata, constexprs, arguments.integers), arguments.reference, options);
        expected = std::move(arguments.buffers);
        break;
      } catch (const core::RuntimeError &e) {
        if (std::string(e.what()).find("out-of-bounds") == std::string::npos || elements >= (int64_t{1} << 24))
          throw;
      }
    }
  } catch (const std::exception &e) {
    result.verdict = Verdict::Invalid;
    result.machine = "reference";
    result.detail = e.what();
    return result;
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const size_t size = static_cast<size_t>(core::byteSize(expected[i].dtype));
    for (int64_t e = 0; !expected[i].bytes.empty() && e < expected[i].numElements(); ++e)
      if (std::memcmp(expected[i].bytes.data() + static_cast<size_t>(e) * size,
                      initial[i].bytes.data() + static_cast<size_t>(e) * size, size) != 0)
        ++result.elementsChanged;
  }
  for (const config::HardwareConfig &machine : machines) {
    try {
      result.detail = runNpu(file, machine, run, initial, expected);
    } catch (const std::exception &e) {
      result.detail = std::string("npu: ") + e.what();
    }
    if (!result.detail.empty()) {
      result.verdict = Verdict::Mismatch;
      result.machine = machine.name;
      return result;
    }
  }
  return result;
}

} // namespace npusim::differential
