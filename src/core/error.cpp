#include "core/error.h"

namespace npusim::core {

std::string SourceLocation::str() const {
  if (!known())
    return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

CompileError::CompileError(SourceLocation where, std::string message)
    : std::runtime_error(where.str() + ": error: " + message), where_(std::move(where)),
      message_(std::move(message)) {}

} // namespace npusim::core
