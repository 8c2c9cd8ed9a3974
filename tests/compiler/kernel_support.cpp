#include "compiler/kernel_support.h"

#include <cstring>

#include "driver/driver.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace npusim::compiler::testing {

namespace fs = std::filesystem;

std::vector<std::string> corpusKernelFiles() {
  const fs::path data = NPUSIM_TEST_DATA;
  const fs::path examples = data.parent_path().parent_path() / "examples";
  std::vector<std::string> files;
  auto addTree = [&](const fs::path &root) {
    if (!fs::exists(root))
      return;
    for (const auto &entry : fs::recursive_directory_iterator(root))
      if (entry.is_regular_file() && entry.path().extension() == ".py")
        files.push_back(entry.path().string());
  };
  addTree(data / "inductor_kernels");
  addTree(data / "kernels");
  if (fs::exists(examples))
    for (const auto &entry : fs::directory_iterator(examples))
      if (entry.is_directory())
        addTree(entry.path().filename() == "kernels" ? entry.path() : entry.path() / "kernels");
  std::sort(files.begin(), files.end());
  return files;
}

CompiledKernel compileKernelFile(const std::string &path, const config::HardwareConfig &machine) {
  CompiledKernel result;
  result.file = triton::loadKernelFile(path);
  const triton::KernelMetadata &metadata = result.file.metadata;
  // As `npusim compile FILE`: the constexprs' defaults, and the sizes Inductor
  // baked into the source as the launch's scalar arguments.
  const std::map<std::string, int64_t> scalars(metadata.bodyConstants.begin(), metadata.bodyConstants.end());
  std::unique_ptr<driver::NpuKernel> kernel =
      driver::compileForNpu(result.file, triton::defaultConstexprs(metadata), scalars, machine);
  result.constexprs = std::move(kernel->constexprs);
  result.function = std::move(kernel->function);
  result.program = std::move(kernel->program);
  result.cost = kernel->cost;
  return result;
}

config::HardwareConfig smallMachine() {
  config::HardwareConfig machine;
  machine.name = "edge-8lane-32k";
  machine.lanes = 8;
  machine.spadKibPerLane = 32;
  return machine;
}

reference::Buffer exactFloats(const std::string &name, int64_t n, int64_t offset, float scale) {
  reference::Buffer b;
  b.name = name;
  b.dtype = core::DType::Float32;
  b.bytes.resize(static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    const float v = static_cast<float>((i * 7 + offset) % 11 - 5) * scale;
    std::memcpy(b.bytes.data() + i * 4, &v, 4);
  }
  return b;
}

float floatAt(const reference::Buffer &b, int64_t i) {
  float v;
  std::memcpy(&v, b.bytes.data() + i * 4, 4);
  return v;
}

} // namespace npusim::compiler::testing
