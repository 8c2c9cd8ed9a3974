#pragma once
// External GEMM mappings for the library calls (docs/library-kernels.md,
// "Mapping search"): a JSON object {"M_N_K": {"TILE_M": m, "TILE_N": n,
// "TILE_K": k}, ...}. Malformed files are core::InputErrors naming the file
// and the field; whether the tiles fit is checked when a call uses them.
#include "library/library.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::runtime {

std::map<std::string, library::GemmTiles> parseMapping(std::string_view text, const std::string &file);
std::map<std::string, library::GemmTiles> loadMapping(const std::string &path);

/// The library's registered mapping strategies (RunOptions::mappingStrategy,
/// `npusim run --mapping-strategy NAME`), sorted.
std::vector<std::string> mappingStrategies();
/// The GEMM kernels RunOptions::gemmKernel may name (library::gemmKernels()).
std::vector<std::string> gemmKernels();

} // namespace npusim::runtime
