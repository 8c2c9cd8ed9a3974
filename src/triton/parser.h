#pragma once
// Lexer and parser for the Python subset of Triton kernel files.
#include "core/error.h"
#include "triton/ast.h"

#include <string>
#include <string_view>

namespace npusim::triton {

/// Parses a whole file. Throws core::CompileError("FILE:LINE:COL: error: ...")
/// on anything outside the subset; never crashes or hangs on any input.
ast::Module parseModule(std::string_view source, std::string fileName);

} // namespace npusim::triton
