// External GEMM mappings (`npusim run --mapping FILE.json`): tiles per GEMM
// shape, keyed "M_N_K" as PyTorchSim's external mapping files are.
#include "runtime/mapping_file.h"

#include "runtime/json_node.h"

#include <fstream>
#include <sstream>

namespace npusim::runtime {

std::map<std::string, library::GemmTiles> parseMapping(std::string_view text, const std::string &file) {
  json::Json doc;
  try {
    doc = json::Json::parse(text);
  } catch (const json::Json::parse_error &e) {
    throw core::InputError(file + ": not JSON: " + e.what());
  }
  const json::Node root(doc, "", file);
  if (!root.isObject())
    root.fail("expected an object of \"M_N_K\": {\"TILE_M\": .., \"TILE_N\": .., \"TILE_K\": ..}");
  std::map<std::string, library::GemmTiles> out;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const json::Node entry = root.at(it.key());
    int64_t sizes[3] = {0, 0, 0};
    char rest = 0;
    std::istringstream key(it.key());
    char sep1 = 0, sep2 = 0;
    if (!(key >> sizes[0] >> sep1 >> sizes[1] >> sep2 >> sizes[2]) || sep1 != '_' || sep2 != '_' ||
        (key >> rest) || sizes[0] < 1 || sizes[1] < 1 || sizes[2] < 1)
      entry.fail("the key must be M_N_K with three positive integers (GEMM rows, columns, reduction)");
    entry.allowKeys({"TILE_M", "TILE_N", "TILE_K"});
    library::GemmTiles tiles;
    tiles.tileM = entry.at("TILE_M").integer();
    tiles.tileN = entry.at("TILE_N").integer();
    tiles.tileK = entry.at("TILE_K").integer();
    tiles.where = file + ": " + entry.path();
    out[it.key()] = tiles;
  }
  return out;
}

std::map<std::string, library::GemmTiles> loadMapping(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw core::InputError(path + ": cannot read the mapping file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseMapping(text.str(), path);
}

std::vector<std::string> gemmKernels() {
  return library::gemmKernels();
}

std::vector<std::string> mappingStrategies() {
  return library::mappingStrategies();
}

} // namespace npusim::runtime
