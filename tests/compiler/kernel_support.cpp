#include "compiler/kernel_support.h"

#include <algorithm>
#include <filesystem>

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

namespace {

int64_t numelOf(const triton::KernelMetadata &metadata, const triton::BlockAxis &axis) {
  if (auto it = metadata.bodyConstants.find(std::string(axis.numelArgument));
      it != metadata.bodyConstants.end())
    return it->second;
  if (auto it = metadata.sizeHints.find(std::string(axis.hintKey)); it != metadata.sizeHints.end())
    return it->second;
  return 1;
}

} // namespace

std::vector<BlockParameter> blockParameters(const triton::KernelMetadata &metadata) {
  std::vector<BlockParameter> parameters;
  const triton::ConstexprBindings defaults = triton::defaultConstexprs(metadata);
  for (const std::string &name : metadata.freeConstexprs()) {
    BlockParameter p;
    const triton::BlockAxis *axis = triton::findBlockAxis(name);
    if (!axis)
      continue; // not a block size; defaultConstexprs picks it
    p.name = name;
    p.numel = numelOf(metadata, *axis);
    p.reduction = axis->reduction;
    // As the runtime: a block that divided its numel keeps dividing it.
    if (auto it = defaults.find(name); it != defaults.end() && std::holds_alternative<int64_t>(it->second)) {
      const int64_t value = std::get<int64_t>(it->second);
      p.mustDivide = value > 0 && p.numel > 0 && p.numel % value == 0;
    }
    parameters.push_back(p);
  }
  return parameters;
}

CompiledKernel compileKernelFile(const std::string &path, const config::HardwareConfig &machine) {
  CompiledKernel result;
  result.file = triton::loadKernelFile(path);
  const triton::KernelMetadata &metadata = result.file.metadata;
  const std::vector<BlockParameter> parameters = blockParameters(metadata);
  auto constexprsOf = [&](const BlockChoice &choice) {
    triton::ConstexprBindings constexprs = triton::defaultConstexprs(metadata);
    for (const auto &[name, value] : choice.values)
      constexprs[name] = value;
    return constexprs;
  };
  TilingChoice best =
      searchBlockSizes(triton::name(metadata.kind), parameters, machine, [&](const BlockChoice &choice) {
        return triton::lowerKernel(result.file, constexprsOf(choice));
      });
  result.candidatesTried = best.candidatesCompiled + static_cast<int>(best.rejected.size());
  if (!best.function) {
    // Nothing fitted: compile the last candidate again for its error.
    const std::vector<BlockChoice> choices =
        proposeBlockSizes(triton::name(metadata.kind), parameters, machine);
    const BlockChoice last = choices.empty() ? BlockChoice{} : choices.back();
    auto function = triton::lowerKernel(result.file, constexprsOf(last));
    result.program = compile(*function, machine);
    result.constexprs = constexprsOf(last);
    result.function = std::move(function);
    return result;
  }
  result.constexprs = constexprsOf(best.blocks);
  result.function = std::move(best.function);
  result.program = std::move(best.program);
  result.cost = best.cost;
  for (const auto &[name, value] : best.blocks.values)
    result.program.blockSizes.emplace_back(name, value);
  return result;
}

config::HardwareConfig smallMachine() {
  config::HardwareConfig machine;
  machine.name = "edge-8lane-32k";
  machine.lanes = 8;
  machine.spadKibPerLane = 32;
  return machine;
}

} // namespace npusim::compiler::testing
