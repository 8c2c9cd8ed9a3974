#pragma once
// How every YAML file npusim reads is read (configurations here, sweep files
// and serving scenarios in their modules): UTF-8 text holding exactly one
// YAML document. A second document (after `---`) would otherwise be dropped
// without a word, and a bad byte would fail only when a report is written.
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace npusim::config {

/// The single document of `text`. Throws core::InputError naming the file and
/// the line: invalid UTF-8, malformed YAML, or a second document. An empty
/// text (or only comments) is one null document.
YAML::Node parseYamlDocument(std::string_view text, const std::string &file);

/// The line of a node, from 1. yaml-cpp places an absent value (`lanes:` and
/// nothing after it) at the next token, lines later: for such a value the
/// line of its key is meant, which `key` gives.
int yamlLine(const YAML::Node &node, const YAML::Node &key = YAML::Node());

} // namespace npusim::config
