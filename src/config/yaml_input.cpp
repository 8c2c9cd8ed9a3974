#include "config/yaml_input.h"

#include "core/error.h"
#include "core/text_input.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

namespace npusim::config {

namespace {

/// Counts documents and keeps where each starts; ignores their content.
class DocumentCounter final : public YAML::EventHandler {
public:
  int documents = 0;
  YAML::Mark lastStart;
  void OnDocumentStart(const YAML::Mark &mark) override {
    ++documents;
    lastStart = mark;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark &, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t, const std::string &) override {}
  void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// Whether a line of `text` starts with a document marker (`---` or `...`).
bool hasDocumentMarker(std::string_view text) {
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
    if (text.compare(at, 3, "---") == 0 || text.compare(at, 3, "...") == 0)
      return true;
    if (text.find('\n', at) == std::string_view::npos)
      break;
  }
  return false;
}

} // namespace

YAML::Node parseYamlDocument(std::string_view text, const std::string &file) {
  core::checkYamlCharacters(text, file);
  const std::string copy(text);
  YAML::Node root;
  DocumentCounter counter;
  try {
    root = YAML::Load(copy);
    // At most two documents are looked at: yaml-cpp's YAML::LoadAll never
    // ends on some malformed texts (",").
    std::istringstream in(copy);
    YAML::Parser parser(in);
    while (counter.documents < 2 && parser.HandleNextDocument(counter)) {
    }
  } catch (const YAML::Exception &e) {
    throw core::InputError(file + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (counter.documents > 1) {
    const int line = counter.lastStart.line;
    const std::string where = file + (line >= 0 ? ":" + std::to_string(line + 1) : std::string());
    if (!hasDocumentMarker(text))
      throw core::InputError(where + ": malformed YAML: the text does not parse as one document");
    throw core::InputError(where + ": a second YAML document (after '---'); the file must hold one document");
  }
  return root;
}

int yamlLine(const YAML::Node &node, const YAML::Node &key) {
  const YAML::Node &at = node.IsNull() && key.IsDefined() ? key : node;
  const int line = at.Mark().line;
  return line >= 0 ? line + 1 : 0;
}

} // namespace npusim::config
