// Default block sizes and Inductor's grid rules.
#include "triton/frontend.h"
#include "core/shape.h"

#include <algorithm>
#include <bit>

namespace npusim::triton {

using core::nextPowerOfTwo;

namespace {

constexpr BlockAxis kBlockAxes[] = {
    {"XBLOCK", "xnumel", "x", false, 0},   {"YBLOCK", "ynumel", "y", false, 1},
    {"ZBLOCK", "znumel", "z", false, 2},   {"R0_BLOCK", "r0_numel", "r0_", true, -1},
    {"RBLOCK", "rnumel", "r0_", true, -1}, {"R1_BLOCK", "r1_numel", "r1_", true, -1},
};

int64_t hint(const KernelMetadata &meta, const std::string &axis, int64_t fallback) {
  auto it = meta.sizeHints.find(axis);
  return it == meta.sizeHints.end() ? fallback : std::max<int64_t>(1, it->second);
}

int64_t cdiv(int64_t a, int64_t b) {
  return b <= 0 ? 0 : (a + b - 1) / b;
}

} // namespace

std::span<const BlockAxis> blockAxes() {
  return kBlockAxes;
}

const BlockAxis *findBlockAxis(std::string_view block) {
  for (const BlockAxis &axis : kBlockAxes)
    if (axis.block == block)
      return &axis;
  return nullptr;
}

ConstexprBindings defaultConstexprs(const KernelMetadata &meta, int64_t maxTileElements) {
  ConstexprBindings out;
  const std::vector<std::string> free = meta.freeConstexprs();
  auto isFree = [&](const std::string &n) { return std::find(free.begin(), free.end(), n) != free.end(); };
  int64_t budget = std::max<int64_t>(1, maxTileElements);
  // A persistent reduction fixes its reduction block in the body; it shares the budget.
  if (meta.kind == KernelKind::PersistentReduction)
    for (const char *axis : {"r0_", "r1_"})
      if (meta.sizeHints.count(axis))
        budget = std::max<int64_t>(1, budget / nextPowerOfTwo(hint(meta, axis, 1)));
  // Reduction blocks first (they bound the inner loop), then y, then x.
  for (const char *name : {"R0_BLOCK", "RBLOCK", "R1_BLOCK"}) {
    if (!isFree(name))
      continue;
    const std::string axis(findBlockAxis(name)->hintKey);
    int64_t h = hint(meta, axis, hint(meta, "r", 64));
    int64_t block = std::min<int64_t>(nextPowerOfTwo(h), std::min<int64_t>(budget, 256));
    out[name] = block;
    budget = std::max<int64_t>(1, budget / block);
  }
  for (const char *name : {"ZBLOCK", "YBLOCK", "XBLOCK"}) {
    if (!isFree(name))
      continue;
    const std::string axis(findBlockAxis(name)->hintKey);
    int64_t block = std::min<int64_t>(nextPowerOfTwo(hint(meta, axis, 1024)), budget);
    if (std::string(name) != "XBLOCK")
      block = std::min<int64_t>(block, 32);
    out[name] = block;
    budget = std::max<int64_t>(1, budget / block);
  }
  return out;
}

std::optional<GridSize> inferGrid(const KernelMetadata &meta, const ConstexprBindings &constexprs,
                                  const std::map<std::string, int64_t> &scalarArguments) {
  auto block = [&](const std::string &name) -> int64_t {
    auto it = constexprs.find(name);
    if (it != constexprs.end() && std::holds_alternative<int64_t>(it->second))
      return std::get<int64_t>(it->second);
    if (const ParameterSpec *p = meta.findParameter(name);
        p && p->defaultValue && std::holds_alternative<int64_t>(*p->defaultValue))
      return std::get<int64_t>(*p->defaultValue);
    return 1;
  };
  auto numel = [&](const std::string &name) -> std::optional<int64_t> {
    auto it = scalarArguments.find(name);
    if (it != scalarArguments.end())
      return it->second;
    const ParameterSpec *p = meta.findParameter(name);
    if (!p)
      return int64_t{1};  // the kernel has no such axis
    if (p->isConstexpr) { // a size Inductor specialised (triton_meta constants)
      if (auto bound = constexprs.find(name);
          bound != constexprs.end() && std::holds_alternative<int64_t>(bound->second))
        return std::get<int64_t>(bound->second);
      if (p->defaultValue && std::holds_alternative<int64_t>(*p->defaultValue))
        return std::get<int64_t>(*p->defaultValue);
    }
    return std::nullopt;
  };
  const std::string &g = meta.gridType;
  const bool oneD = g == "Grid1D" || g == "CooperativeReductionGrid" ||
                    (g.empty() && (meta.kind == KernelKind::Pointwise || meta.kind == KernelKind::Reduction ||
                                   meta.kind == KernelKind::PersistentReduction));
  const bool yzOverflow = g == "Grid2DWithYZOverflow";
  if (!oneD && g != "Grid2D" && g != "Grid3D" && !yzOverflow)
    return std::nullopt;
  GridSize grid;
  auto x = numel("xnumel");
  if (!x)
    return std::nullopt;
  grid.x = cdiv(*x, block("XBLOCK"));
  if (g == "Grid2D" || g == "Grid3D" || yzOverflow) {
    auto y = numel("ynumel");
    if (!y)
      return std::nullopt;
    grid.y = cdiv(*y, block("YBLOCK"));
    if (yzOverflow) {
      // y blocks past the hardware limit continue on z: y = pid1 + pid2 * num_programs(1).
      constexpr int64_t kMaxGridY = 65535;
      grid.z = cdiv(grid.y, kMaxGridY);
      grid.y = std::min(grid.y, kMaxGridY);
    }
  }
  if (g == "Grid3D") {
    auto z = numel("znumel");
    if (!z)
      return std::nullopt;
    grid.z = cdiv(*z, block("ZBLOCK"));
  }
  if (g == "CooperativeReductionGrid")
    grid.y = block("RSPLIT");
  grid.x = std::max<int64_t>(grid.x, 1);
  return grid;
}

} // namespace npusim::triton
