// Block sizes for Inductor kernels (docs/compiler.md "Block sizes").
//
// The largest tile a kernel makes is about the product of its block sizes.
// One program instance plans at most half a bank (the other half holds the
// next instance), and a kernel keeps a dozen or so tiles of that size live, so
// the element budget of one tile is halfBank / (kLiveTiles * 8 bytes) per lane.
// Within the budget, tiles stop growing at eight lane vectors per lane: larger
// ones only lengthen each instruction. Block sizes are doubled in turn, the axis
// with the most elements left per block first, so tiles stay square-ish and
// never exceed next_pow2 of the axis. Persistent reductions fix their reduction
// blocks at next_pow2(numel) and fit the others around them. Smaller
// candidates halve the budget each time, down to a single element.
#include "compiler/compiler_internal.h"
#include "core/shape.h"

#include <algorithm>

namespace npusim::compiler {

using core::nextPowerOfTwo;

namespace {

constexpr int64_t kLiveTiles = 16;
constexpr int64_t kVectorsPerLane = 8;

BlockChoice fit(const std::vector<BlockParameter> &parameters, bool persistent, int64_t budget) {
  std::vector<int64_t> block(parameters.size(), 1);
  std::vector<bool> fixed(parameters.size(), false);
  int64_t product = 1;
  for (size_t i = 0; i < parameters.size(); ++i)
    if (persistent && parameters[i].reduction) {
      block[i] = nextPowerOfTwo(std::max<int64_t>(1, parameters[i].numel));
      fixed[i] = true;
      product *= block[i];
    }
  for (;;) {
    int best = -1;
    double bestLeft = 1.0;
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (fixed[i] || block[i] >= nextPowerOfTwo(std::max<int64_t>(1, parameters[i].numel)))
        continue;
      const double left = static_cast<double>(parameters[i].numel) / static_cast<double>(block[i]);
      if (left > bestLeft) {
        bestLeft = left;
        best = static_cast<int>(i);
      }
    }
    if (best < 0 || product * 2 > budget)
      break;
    block[best] *= 2;
    product *= 2;
  }
  BlockChoice choice;
  for (size_t i = 0; i < parameters.size(); ++i)
    choice.values.emplace_back(parameters[i].name, block[i]);
  return choice;
}

} // namespace

std::vector<BlockChoice> proposeBlockSizes(std::string_view kind, const std::vector<BlockParameter> &parameters,
                                           const config::HardwareConfig &machine) {
  const int64_t lanes = std::max(1, machine.lanes);
  const int64_t halfBank = machine.spadBytesPerLane() / 2;
  const int64_t perLane = std::max<int64_t>(1, halfBank / (kLiveTiles * 8));
  const int64_t vector = std::max(1, machine.elementsPerLaneVector(4));
  int64_t budget = lanes * std::min(perLane, vector * kVectorsPerLane);
  const bool persistent = kind == "persistent_reduction";
  std::vector<BlockChoice> choices;
  for (; budget >= 1; budget /= 2) {
    BlockChoice choice = fit(parameters, persistent, budget);
    if (choices.empty() || choices.back().values != choice.values)
      choices.push_back(std::move(choice));
  }
  return choices;
}

} // namespace npusim::compiler
