#pragma once
// The arguments of one `npusim kernel` launch: pointer arguments from .npy files
// or the generator, scalar arguments from the command line (docs/cli.md).
#include "reference/interpreter.h"
#include "triton/frontend.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::cli {

/// --arg NAME=VALUE (a number, or a .npy path for a pointer parameter).
struct ArgOption {
  std::string name;
  std::string value;
};

/// --size NAME=ELEMENTS.
struct SizeOption {
  std::string name;
  int64_t elements = 0;
};

/// The most elements npusim generates for one buffer (2 GiB of fp64).
inline constexpr int64_t kMaxGeneratedElements = int64_t{1} << 28;

/// Where a pointer argument's buffer came from.
enum class BufferSource { File, SizeOption, NumelRule };

struct PointerArgument {
  const triton::ParameterSpec *parameter = nullptr;
  std::unique_ptr<reference::Buffer> buffer;
  BufferSource source = BufferSource::NumelRule;
};

struct LaunchArguments {
  std::vector<PointerArgument> pointers;         // def order
  std::vector<reference::Argument> arguments;    // one per ir::Function parameter
  std::map<std::string, int64_t> integerScalars; // integer scalar arguments, for inferGrid
};

/// Binds every run-time parameter of the kernel. Throws core::InputError naming
/// the argument (unknown or duplicate names, missing scalars, bad numbers, a .npy
/// whose element size differs from the signature's, a buffer npusim cannot size).
LaunchArguments bindArguments(const triton::KernelMetadata &metadata, const ir::Function &function,
                              const std::vector<ArgOption> &args, const std::vector<SizeOption> &sizes,
                              uint64_t seed);

/// The default element count of a generated buffer: the product of the kernel's
/// `*numel` scalar arguments, or nothing when it has none.
std::optional<int64_t> defaultBufferElements(const triton::KernelMetadata &metadata,
                                             const std::map<std::string, int64_t> &integerScalars);

} // namespace npusim::cli
