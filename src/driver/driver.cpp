// Block-size choice and compilation of one kernel for the NPU.
#include "driver/driver.h"

#include "compiler/axis_masks.h"
#include "compiler/compiler.h"
#include "compiler/tiling.h"
#include "core/error.h"
#include "driver/template_blocks_internal.h"
#include "ir/builder.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace npusim::driver {

namespace {

std::optional<int64_t> numelOf(const triton::KernelMetadata &meta, const triton::BlockAxis &axis,
                               const triton::ConstexprBindings &constexprs,
                               const std::map<std::string, int64_t> &scalars) {
  const std::string argument(axis.numelArgument);
  if (auto it = scalars.find(argument); it != scalars.end())
    return it->second;
  if (auto it = meta.bodyConstants.find(argument); it != meta.bodyConstants.end())
    return it->second;
  if (auto it = constexprs.find(argument);
      it != constexprs.end() && std::holds_alternative<int64_t>(it->second))
    return std::get<int64_t>(it->second);
  if (const triton::ParameterSpec *p = meta.findParameter(argument);
      p && p->defaultValue && std::holds_alternative<int64_t>(*p->defaultValue))
    return std::get<int64_t>(*p->defaultValue);
  if (auto it = meta.sizeHints.find(std::string(axis.hintKey)); it != meta.sizeHints.end())
    return it->second;
  return std::nullopt;
}

/// Inductor leaves out the mask of an axis whose numel its block size divides
/// (`xmask = tl.full([XBLOCK], True, tl.int1)`), so such a kernel is only
/// correct for block sizes that divide the numel.
bool launchDivides(const triton::ConstexprBindings &launchConstexprs, const std::string &name,
                   int64_t numel) {
  const auto launch = launchConstexprs.find(name);
  if (launch == launchConstexprs.end() || !std::holds_alternative<int64_t>(launch->second))
    return false;
  const int64_t launchValue = std::get<int64_t>(launch->second);
  return launchValue > 0 && numel > 0 && numel % launchValue == 0;
}

/// Whether the kernel, lowered for the launch's block sizes, masks every
/// access along the axis of block parameter `name` by `index < numel`, so
/// that a block not dividing numel is safe. False when unproven, and when
/// another block parameter has the same launch value (the analysis tells the
/// axes apart by their block lengths).
bool provenMasked(const ir::Function &function, const triton::ConstexprBindings &launchConstexprs,
                  const std::vector<std::string> &blockNames, const std::string &name,
                  const triton::BlockAxis &axis, int64_t numel) {
  const int64_t block = std::get<int64_t>(launchConstexprs.at(name));
  for (const std::string &other : blockNames) {
    const auto it = launchConstexprs.find(other);
    if (other != name && it != launchConstexprs.end() && std::holds_alternative<int64_t>(it->second) &&
        std::get<int64_t>(it->second) == block)
      return false;
  }
  return compiler::maskedAlongAxis(function,
                                   compiler::TiledAxis{block, axis.numelArgument, numel, axis.programIdAxis});
}

/// The block parameters whose values may be chosen, or nothing when the
/// kernel's grid does not follow from its block sizes.
std::optional<std::vector<compiler::BlockParameter>>
choosableBlocks(const triton::KernelFile &file, const triton::ConstexprBindings &launchConstexprs,
                const std::map<std::string, int64_t> &scalars, const std::vector<std::string> &pinned) {
  const triton::KernelMetadata &meta = file.metadata;
  if (meta.kind != triton::KernelKind::Pointwise && meta.kind != triton::KernelKind::Reduction &&
      meta.kind != triton::KernelKind::PersistentReduction)
    return std::nullopt;
  if (!triton::inferGrid(meta, launchConstexprs, scalars))
    return std::nullopt;
  std::vector<std::string> blockNames;
  for (const triton::ParameterSpec &p : meta.parameters)
    if (p.isConstexpr && triton::findBlockAxis(p.name))
      blockNames.push_back(p.name);
  std::unique_ptr<ir::Function> launched; // lowered once, when an axis needs the proof
  std::vector<compiler::BlockParameter> params;
  for (const triton::ParameterSpec &p : meta.parameters) {
    if (!p.isConstexpr || p.defaultValue || std::find(pinned.begin(), pinned.end(), p.name) != pinned.end())
      continue;
    const triton::BlockAxis *axis = triton::findBlockAxis(p.name);
    if (!axis)
      continue; // another constexpr (a flag, a numel): keep the launch's value
    const std::optional<int64_t> numel = numelOf(meta, *axis, launchConstexprs, scalars);
    if (!numel)
      return std::nullopt;
    bool mustDivide = launchDivides(launchConstexprs, p.name, *numel);
    if (mustDivide && !axis->reduction) {
      if (!launched)
        launched = triton::lowerKernel(file, launchConstexprs);
      mustDivide = !provenMasked(*launched, launchConstexprs, blockNames, p.name, *axis, *numel);
    }
    params.push_back(compiler::BlockParameter{p.name, *numel, axis->reduction, mustDivide});
  }
  if (params.empty())
    return std::nullopt;
  return params;
}

std::string describe(const triton::ConstexprBindings &values, const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &n : names) {
    auto it = values.find(n);
    if (it == values.end())
      continue;
    text += (text.empty() ? "" : ", ") + n + "=" + triton::toString(it->second);
  }
  return text.empty() ? "the launch's block sizes" : text;
}

/// Replaces every use of an integer scalar parameter whose launch value is
/// known by a constant of that value: the compiled program is specialised for
/// the launch (its kernel cache is keyed by these values), so that index
/// arithmetic over sizes a dynamic-shape kernel passes at run time folds as a
/// static kernel's does.
void bindScalarArguments(ir::Function &function, const std::map<std::string, int64_t> &values) {
  std::map<const ir::Value *, ir::Value *> replacement;
  ir::Builder builder(function);
  const size_t before = function.body().ops.size();
  for (const ir::Parameter &p : function.parameters()) {
    auto it = values.find(p.name);
    if (it == values.end() || !p.type.isIntegerOrBool() || !p.type.isScalar())
      continue;
    replacement[p.value] = builder.constantInt(p.type.dtype, it->second);
  }
  if (replacement.empty())
    return;
  std::vector<std::unique_ptr<ir::Op>> &ops = function.body().ops;
  std::rotate(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(before), ops.end());
  std::function<void(ir::Block &)> rewrite = [&](ir::Block &block) {
    for (const std::unique_ptr<ir::Op> &op : block.ops) {
      for (ir::Value *&operand : op->operands)
        if (auto it = replacement.find(operand); it != replacement.end())
          operand = it->second;
      for (const std::unique_ptr<ir::Block> &region : op->regions)
        rewrite(*region);
    }
  };
  rewrite(function.body());
}

} // namespace

std::unique_ptr<NpuKernel> compileForNpu(const triton::KernelFile &file,
                                         const triton::ConstexprBindings &launchConstexprs,
                                         const std::map<std::string, int64_t> &scalarArguments,
                                         const config::HardwareConfig &machine,
                                         const std::vector<std::string> &pinned, int threads,
                                         const std::optional<triton::GridSize> &launchGrid) {
  auto kernel = std::make_unique<NpuKernel>();
  std::vector<std::string> blockNames;
  std::string lastOverflow;
  std::optional<std::vector<compiler::BlockParameter>> params;
  TemplateBlocks retile;
  if (file.metadata.kind == triton::KernelKind::Template && launchGrid) {
    retile = templateBlocks(file, *launchGrid, pinned);
    kernel->keptBlocks = retile.kept;
    if (!retile.parameters.empty())
      params = retile.parameters;
  } else {
    params = choosableBlocks(file, launchConstexprs, scalarArguments, pinned);
  }
  if (params) {
    for (const compiler::BlockParameter &p : *params)
      blockNames.push_back(p.name);
    auto bindingsOf = [&](const compiler::BlockChoice &choice) {
      triton::ConstexprBindings bindings = launchConstexprs;
      for (const auto &[name, value] : choice.values)
        bindings[name] = value;
      return bindings;
    };
    compiler::TilingChoice best = compiler::searchBlockSizes(
        triton::name(file.metadata.kind), *params, machine,
        [&](const compiler::BlockChoice &choice) {
          const triton::ConstexprBindings bindings = bindingsOf(choice);
          std::unique_ptr<ir::Function> function = triton::lowerKernel(file, bindings);
          bindScalarArguments(*function, scalarArguments);
          // The grid npuGrid gives this choice; a re-tiled template's is its own.
          if (retile.parameters.empty())
            if (const auto grid = triton::inferGrid(file.metadata, bindings, scalarArguments))
              function->setPrograms({grid->x, grid->y, grid->z});
          return function;
        },
        scalarArguments, threads);
    kernel->rejected = std::move(best.rejected);
    lastOverflow = best.lastOverflow;
    if (best.function) {
      // The chosen tiling and each near-tie become kernels the same way.
      auto fill = [&](NpuKernel &k, compiler::BlockChoice &blocks, std::unique_ptr<ir::Function> function,
                      npu::Program program, const compiler::ProgramCost &cost) {
        k.constexprs = bindingsOf(blocks);
        k.function = std::move(function);
        k.program = std::move(program);
        k.program.blockSizes = blocks.values;
        k.cost = cost;
        k.blocksChosen = true;
        k.keptBlocks = kernel->keptBlocks;
        if (!retile.parameters.empty()) {
          // Each tiled axis keeps its covered extent: the chosen block divides it.
          triton::GridSize grid = *launchGrid;
          int64_t *axes[3] = {&grid.x, &grid.y, &grid.z};
          for (size_t i = 0; i < retile.parameters.size(); ++i)
            if (const int a = retile.gridAxes[i]; a >= 0)
              *axes[a] = retile.parameters[i].numel / blocks.values.at(i).second;
          k.grid = grid;
        }
      };
      fill(*kernel, best.blocks, std::move(best.function), std::move(best.program), best.cost);
      for (compiler::TiledCandidate &tie : best.nearTies) {
        auto other = std::make_unique<NpuKernel>();
        fill(*other, tie.blocks, std::move(tie.function), std::move(tie.program), tie.cost);
        kernel->nearTies.push_back(std::move(other));
      }
      return kernel;
    }
  }
  std::unique_ptr<ir::Function> function = triton::lowerKernel(file, launchConstexprs);
  bindScalarArguments(*function, scalarArguments);
  if (launchGrid)
    function->setPrograms({launchGrid->x, launchGrid->y, launchGrid->z});
  try {
    kernel->program = compiler::compile(*function, machine);
    kernel->constexprs = launchConstexprs;
    kernel->function = std::move(function);
    return kernel;
  } catch (const compiler::ScratchpadOverflow &e) {
    kernel->rejected.push_back(describe(launchConstexprs, blockNames) + ": " + std::to_string(e.bytesNeeded) +
                               " bytes per lane");
    lastOverflow = e.what();
  }
  std::string tried;
  for (const std::string &r : kernel->rejected)
    tried += "\n  " + r;
  throw core::CompileError(file.metadata.location,
                           "kernel " + file.metadata.kernelName + " does not fit the scratchpad of " +
                               machine.name + " (" + std::to_string(machine.spadBytesPerLane()) +
                               " bytes per lane) with any block sizes tried:" + tried + "\n" + lastOverflow);
}

triton::GridSize npuGrid(const triton::KernelFile &file, const NpuKernel &kernel,
                         const std::map<std::string, int64_t> &scalarArguments,
                         const triton::GridSize &launchGrid) {
  if (kernel.grid)
    return *kernel.grid;
  if (!kernel.blocksChosen)
    return launchGrid;
  if (auto grid = triton::inferGrid(file.metadata, kernel.constexprs, scalarArguments))
    return *grid;
  return launchGrid;
}

} // namespace npusim::driver
