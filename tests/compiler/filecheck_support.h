#pragma once
// A small FileCheck: checks a text against the CHECK lines of a test file.
//   // CHECK: TEXT       the next line at or after the current one that contains TEXT
//   // CHECK-NEXT: TEXT  the line right after the previous match contains TEXT
//   // CHECK-NOT: TEXT   no line between the previous match and the next one
//                        (or the end) contains TEXT
// TEXT is matched literally, after trimming; runs of spaces in TEXT and in the
// checked lines count as one space.
#include <string>
#include <vector>

namespace npusim::compiler::testing {

struct CheckDirective {
  enum class Kind { Check, Next, Not };
  Kind kind;
  std::string text;
  int line; // in the test file, for messages
};

/// The directives of a test file, in order.
std::vector<CheckDirective> checkDirectives(const std::string &testFile);

/// Empty when `output` satisfies the directives; otherwise what failed, naming
/// the directive's line.
std::string runChecks(const std::vector<CheckDirective> &directives, const std::string &output);

} // namespace npusim::compiler::testing
