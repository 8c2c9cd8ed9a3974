#pragma once
// Mapping strategies (internal): interchangeable ways of choosing the tiles of
// a GEMM-shaped kernel, registered by name (docs/library-kernels.md, "Mapping
// strategies"). Each implementation registers itself in one line next to its
// definition, at namespace scope of its .cpp:
//
//   const bool kRegistered = registerMappingStrategy("my_strategy", kMyStrategy);
//
// MachineShape::mappingStrategy names the one the calls use.
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

/// Registers `strategy` (an object of static storage duration) as `name`;
/// a name registered twice throws core::InputError. Returns true.
bool registerMappingStrategy(std::string_view name, const MappingStrategy &strategy);
/// The strategy registered as `name`; an unknown name throws core::InputError
/// listing the registered ones.
const MappingStrategy &findMappingStrategy(const std::string &name);
/// The registered names, sorted.
std::vector<std::string> mappingStrategyNames();

} // namespace npusim::library::detail
