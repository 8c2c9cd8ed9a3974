#pragma once
// What check-kernel and kernel share: reading --const options, choosing the
// constexpr values of a launch, and describing a kernel in one line.
#include "cli.h"
#include "triton/frontend.h"

#include <string>
#include <utility>
#include <vector>

namespace npusim::cli {

using ConstOption = std::pair<std::string, triton::ConstexprValue>;

/// The --const NAME=VALUE options (VALUE: an integer, a float, True, False or
/// None). Throws UsageError for malformed ones.
std::vector<ConstOption> parseConstOptions(const ParsedOptions &options);

/// defaultConstexprs(metadata), overridden by the given values. A given name that
/// is not a constexpr parameter of the kernel is a core::InputError.
triton::ConstexprBindings pickConstexprs(const triton::KernelMetadata &metadata,
                                         const std::vector<ConstOption> &given);

/// "(XBLOCK=128, R0_BLOCK=64)": every constexpr parameter in def order with the
/// value the launch uses (the binding, else the parameter's default).
std::string describeConstexprs(const triton::KernelMetadata &metadata,
                               const triton::ConstexprBindings &bindings);

/// "(in_ptr0: *fp32, xnumel: i32)": the run-time parameters with their signature types.
std::string describeArguments(const triton::KernelMetadata &metadata);

} // namespace npusim::cli
