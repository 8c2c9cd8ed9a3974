#include "config/yaml_input.h"

#include "core/error.h"
#include "core/text_input.h"

#include <vector>

namespace npusim::config {

YAML::Node parseYamlDocument(std::string_view text, const std::string &file) {
  core::checkUtf8(text, file);
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception &e) {
    throw core::InputError(file + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (documents.size() > 1) {
    const int line = documents[1].Mark().line;
    throw core::InputError(file + (line >= 0 ? ":" + std::to_string(line + 1) : std::string()) +
                           ": a second YAML document (after '---'); the file must hold one document");
  }
  return documents.empty() ? YAML::Node() : documents.front();
}

int yamlLine(const YAML::Node &node, const YAML::Node &key) {
  const YAML::Node &at = node.IsNull() && key.IsDefined() ? key : node;
  const int line = at.Mark().line;
  return line >= 0 ? line + 1 : 0;
}

} // namespace npusim::config
