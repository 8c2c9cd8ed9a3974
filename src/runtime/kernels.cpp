// The arguments of one launch in the order of its function's parameters.
#include "runtime/kernels.h"

#include "core/error.h"

namespace npusim::runtime {

std::vector<reference::Argument> orderArguments(const ir::Function &function,
                                                const std::map<std::string, reference::Buffer *> &buffers,
                                                const std::map<std::string, reference::Scalar> &scalars) {
  std::vector<reference::Argument> out;
  for (const ir::Parameter &param : function.parameters()) {
    reference::Argument a;
    if (param.type.isPointer) {
      auto it = buffers.find(param.name);
      if (it == buffers.end())
        throw core::InputError("internal error: no buffer for TileIR parameter " + param.name);
      a.buffer = it->second;
    } else {
      auto it = scalars.find(param.name);
      if (it == scalars.end())
        throw core::InputError("internal error: no value for TileIR parameter " + param.name);
      a.scalar = it->second;
    }
    out.push_back(a);
  }
  return out;
}

} // namespace npusim::runtime
