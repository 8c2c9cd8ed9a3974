#pragma once
// Mapping strategies (internal): interchangeable ways of choosing the tiles of
// a GEMM-shaped kernel, registered by name (docs/library-kernels.md, "Mapping
// strategies"), the pipeline's `mapping` stage (docs/compiler.md, "Stages").
// Each implementation registers itself in one line next to its definition, at
// namespace scope of its .cpp (core/registry.h):
//
//   const bool kRegistered = MappingStrategies::add<MyStrategy>("my_strategy");
//
// MachineShape::mappingStrategy names the one the calls use.
#include "core/registry.h"
#include "library/mapping.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::library::detail {

class MappingStrategy {
public:
  virtual ~MappingStrategy() = default;
  /// Tiles for `problem` that fit half a lane's bank (mappingBytesPerLane),
  /// with `cycles` the cost model's estimate (mappingCycles); nothing when
  /// the strategy has none (chooseMapping then falls back). Throws
  /// core::InputError for tiles the user gave that cannot be used.
  virtual std::optional<ConvMapping> choose(const GemmProblem &problem,
                                            const MachineShape &machine) const = 0;
};

/// The registered strategies; make("mapping strategy", name) throws
/// core::InputError for an unknown name, listing the registered ones.
using MappingStrategies = core::Registry<MappingStrategy>;

} // namespace npusim::library::detail
