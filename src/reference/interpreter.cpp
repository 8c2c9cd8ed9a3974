// runLaunch: checks the launch (grid, arguments against parameters), checks the
// function, then runs every program instance in order (x fastest, then y, z).
#include "reference/interpreter.h"

#include "reference/analysis.h"
#include "reference/executor.h"

#include <limits>
#include <string>

namespace npusim::reference {
namespace {

[[noreturn]] void launchError(const ir::Function &function, const std::string &what) {
  throw core::RuntimeError("kernel '" + function.name() + "': " + what);
}

void checkGrid(const ir::Function &function, const Grid &grid) {
  const int64_t dims[3] = {grid.x, grid.y, grid.z};
  const char *names[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (dims[d] <= 0)
      launchError(function, std::string("grid dimension ") + names[d] + " is " + std::to_string(dims[d]) +
                                " (must be >= 1)");
    if (dims[d] > std::numeric_limits<int32_t>::max())
      launchError(function, std::string("grid dimension ") + names[d] + " is " + std::to_string(dims[d]) +
                                " (program ids are i32)");
  }
}

void checkArguments(const ir::Function &function, const std::vector<Argument> &arguments) {
  const auto &params = function.parameters();
  if (arguments.size() < params.size())
    launchError(function, "no argument for parameter '" + params[arguments.size()].name + "' (" +
                              std::to_string(params.size()) + " parameters, " +
                              std::to_string(arguments.size()) + " arguments)");
  if (arguments.size() > params.size())
    launchError(
        function,
        std::to_string(arguments.size()) + " arguments for " + std::to_string(params.size()) + " parameters" +
            (params.empty() ? std::string() : " (the last parameter is '" + params.back().name + "')"));
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::Parameter &p = params[i];
    const Argument &a = arguments[i];
    const std::string which = "parameter '" + p.name + "' (" + p.type.str() + ")";
    if (!p.type.isPointer) {
      if (a.buffer != nullptr)
        launchError(function, which + " is a scalar but its argument is buffer '" + a.buffer->name + "'");
      continue;
    }
    if (a.buffer == nullptr)
      launchError(function, which + " is a pointer but its argument has no buffer");
    const Buffer &b = *a.buffer;
    if (b.dtype != p.type.dtype)
      launchError(function, which + " points to " + std::string(core::tritonName(p.type.dtype)) +
                                " but buffer '" + b.name + "' holds " +
                                std::string(core::tritonName(b.dtype)));
    const int64_t size = core::byteSize(b.dtype);
    if (b.bytes.size() % static_cast<size_t>(size) != 0)
      launchError(function, "buffer '" + b.name + "' has " + std::to_string(b.bytes.size()) +
                                " bytes, not a whole number of " + std::string(core::tritonName(b.dtype)) +
                                " elements");
    const int64_t limit = ptr::kMaxOffset / size;
    if (static_cast<int64_t>(b.bytes.size()) > ptr::kMaxOffset || a.elementOffset > limit ||
        a.elementOffset < -limit)
      launchError(function, which + ": element offset " + std::to_string(a.elementOffset) +
                                " or the size of buffer '" + b.name + "' is out of range");
  }
}

} // namespace

LaunchStats runLaunch(const ir::Function &function, const Grid &grid, std::vector<Argument> &arguments) {
  return runLaunch(function, grid, arguments, LaunchOptions{});
}

LaunchStats runLaunch(const ir::Function &function, const Grid &grid, std::vector<Argument> &arguments,
                      const LaunchOptions &options) {
  checkGrid(function, grid);
  checkArguments(function, arguments);
  if (options.maxLoopIterations < 0 || options.maxTileElements < 1)
    launchError(function, "invalid launch options");
  const Analysis analysis = checkInterpreterInput(function, options.maxTileElements);
  Executor executor(function, analysis, grid, arguments, options);
  for (int64_t z = 0; z < grid.z; ++z)
    for (int64_t y = 0; y < grid.y; ++y)
      for (int64_t x = 0; x < grid.x; ++x)
        executor.runProgram(x, y, z);
  return executor.stats();
}

} // namespace npusim::reference
