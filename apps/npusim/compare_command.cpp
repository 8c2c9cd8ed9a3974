// npusim compare A.json B.json: which of two runs of one bundle is faster,
// per step and in total.
#include "cli.h"
#include "outputs.h"

#include "report/run_page.h"

#include <exception>
#include <ostream>

namespace npusim::cli {

const char *const kCompareUsage =
    R"(usage: npusim compare A.json B.json [--html OUT.html] [--steps N]

Compares two reports of `npusim run --report` (timing or full mode) of one bundle,
e.g. on two machines: the total time of each and which is faster by how much, then
per step the times, their ratio B/A, the faster one and each one's bound.

options:
  --steps N        print only the N steps whose times differ most (default: all)
  --html OUT.html  also write the comparison as one self-contained page
  --help           show this help

exit status: 0 compared; 1 a report is missing, malformed or of another bundle;
2 the command line is wrong.
)";

namespace {

constexpr OptionSpec kCompareOptions[] = {{"--html", true, false}, {"--steps", true, false}};

} // namespace

int runCompare(std::span<const std::string> args, std::ostream &out, std::ostream &err) {
  const ParsedOptions options = parseOptions(args, kCompareOptions, "compare");
  if (options.help) {
    out << kCompareUsage;
    return kExitOk;
  }
  if (options.positionals.size() != 2)
    throw UsageError("compare takes two report files, A.json and B.json");
  size_t rows = 0;
  if (auto text = options.get("--steps")) {
    const std::optional<int64_t> n = parseInteger(*text);
    if (!n || *n < 1)
      throw UsageError("--steps expects a positive integer, got '" + *text + "'");
    rows = static_cast<size_t>(*n);
  }
  const std::string &a = options.positionals[0], &b = options.positionals[1];
  OutputFiles outputs;
  outputs.add(options, "--html");
  if (!outputs.check("npusim compare", err))
    return kExitError;
  try {
    const report::Comparison comparison =
        report::compareReports(report::readReport(a), report::readReport(b));
    report::printComparison(comparison, rows, out);
    outputs.write(
        "--html",
        [&comparison](const std::string &path) {
          report::comparePage(comparison).write(path, "--html " + path);
        },
        "npusim compare", err);
    return outputs.failed() ? kExitError : kExitOk;
  } catch (const std::exception &e) {
    err << "npusim compare: error: " << a << " vs " << b << ": " << e.what() << "\n";
  }
  return kExitError;
}

} // namespace npusim::cli
