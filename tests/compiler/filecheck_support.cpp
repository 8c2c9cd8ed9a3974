#include "filecheck_support.h"

#include <sstream>

namespace npusim::compiler::testing {
namespace {

std::string normalized(const std::string &s) {
  std::string out;
  for (char c : s) {
    const bool space = c == ' ' || c == '\t';
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

std::vector<std::string> linesOf(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(normalized(line));
  return lines;
}

} // namespace

std::vector<CheckDirective> checkDirectives(const std::string &testFile) {
  static const std::pair<const char *, CheckDirective::Kind> kPrefixes[] = {
      {"// CHECK-NEXT:", CheckDirective::Kind::Next},
      {"// CHECK-NOT:", CheckDirective::Kind::Not},
      {"// CHECK:", CheckDirective::Kind::Check},
  };
  std::vector<CheckDirective> directives;
  int number = 0;
  for (const std::string &line : linesOf(testFile)) {
    ++number;
    for (const auto &[prefix, kind] : kPrefixes) {
      const std::string p = prefix;
      if (line.rfind(p, 0) == 0) {
        directives.push_back(CheckDirective{kind, normalized(line.substr(p.size())), number});
        break;
      }
    }
  }
  return directives;
}

std::string runChecks(const std::vector<CheckDirective> &directives, const std::string &output) {
  const std::vector<std::string> lines = linesOf(output);
  size_t next = 0;      // first line the next CHECK may match
  bool matched = false; // whether a line was matched yet (for CHECK-NEXT)
  std::vector<const CheckDirective *> pendingNot;
  auto where = [](const CheckDirective &d) { return "line " + std::to_string(d.line) + ": "; };
  auto notsBetween = [&](size_t from, size_t to) -> std::string {
    for (const CheckDirective *d : pendingNot)
      for (size_t i = from; i < to; ++i)
        if (lines[i].find(d->text) != std::string::npos)
          return where(*d) + "CHECK-NOT: \"" + d->text + "\" found in output line " + std::to_string(i + 1) +
                 ": " + lines[i];
    pendingNot.clear();
    return {};
  };
  for (const CheckDirective &d : directives) {
    switch (d.kind) {
    case CheckDirective::Kind::Not: pendingNot.push_back(&d); break;
    case CheckDirective::Kind::Next:
      if (!matched)
        return where(d) + "CHECK-NEXT: without a previous match";
      if (next >= lines.size() || lines[next].find(d.text) == std::string::npos)
        return where(d) + "CHECK-NEXT: \"" + d.text + "\" is not on the line after the previous match (" +
               (next < lines.size() ? lines[next] : std::string("end of output")) + ")";
      if (std::string failure = notsBetween(next, next); !failure.empty())
        return failure;
      ++next;
      break;
    case CheckDirective::Kind::Check: {
      size_t i = next;
      while (i < lines.size() && lines[i].find(d.text) == std::string::npos)
        ++i;
      if (i == lines.size())
        return where(d) + "CHECK: \"" + d.text + "\" not found after output line " + std::to_string(next);
      if (std::string failure = notsBetween(next, i); !failure.empty())
        return failure;
      next = i + 1;
      matched = true;
      break;
    }
    }
  }
  return notsBetween(next, lines.size());
}

} // namespace npusim::compiler::testing
