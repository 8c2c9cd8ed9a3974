// `npusim compare`: two reports of one bundle, step by step.
#include "core/error.h"
#include "report/run_page.h"
#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace npusim::report {

namespace {

using nlohmann::json;

std::string runName(const json &report) {
  std::string machine = report.value("machine", std::string("reference"));
  if (report.contains("machine_config"))
    machine = report["machine_config"].value("name", machine);
  return report.value("bundle", std::string("?")) + " on " + machine;
}

std::string ratioText(double a, double b) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", b > 0.0 ? a / b : 0.0);
  return text;
}

} // namespace

Comparison compareReports(const json &a, const json &b) {
  Comparison c;
  c.nameA = runName(a);
  c.nameB = runName(b);
  const json &sa = a["steps"], &sb = b["steps"];
  if (sa.size() != sb.size())
    throw core::InputError("the reports ran different numbers of steps (" + std::to_string(sa.size()) +
                           " and " + std::to_string(sb.size()) +
                           "): compare runs of one bundle that both completed");
  for (size_t i = 0; i < sa.size(); ++i) {
    const std::string name = sa[i].value("name", std::string());
    if (name != sb[i].value("name", std::string()))
      throw core::InputError("step " + std::to_string(i) + " is " + name + " in A but " +
                             sb[i].value("name", std::string()) +
                             " in B: the reports are of different bundles");
    if (!sa[i].contains("timing") || !sb[i].contains("timing"))
      continue; // a host step or a reference-mode run: no simulated time
    StepComparison s;
    s.index = i;
    s.name = name;
    s.timeA = sa[i]["timing"].value("time_us", 0.0);
    s.timeB = sb[i]["timing"].value("time_us", 0.0);
    s.cyclesA = sa[i]["timing"].value("cycles", int64_t{0});
    s.cyclesB = sb[i]["timing"].value("cycles", int64_t{0});
    s.boundA = sa[i]["timing"].value("bound", std::string());
    s.boundB = sb[i]["timing"].value("bound", std::string());
    c.steps.push_back(std::move(s));
  }
  // The runs' own totals: the steps' times as the reports rounded them may
  // add up to a slightly different sum.
  c.totalA = a["totals"].value("time_us", 0.0);
  c.totalB = b["totals"].value("time_us", 0.0);
  c.cyclesA = a["totals"].value("cycles", int64_t{0});
  c.cyclesB = b["totals"].value("cycles", int64_t{0});
  if (c.steps.empty())
    throw core::InputError("neither report has timed steps: compare reports of --mode timing or full runs");
  return c;
}

std::string verdict(double a, double b, const std::string &nameA, const std::string &nameB) {
  // Times within 0.05% are the same for a reader: the report rounds to ns.
  if (std::fabs(a - b) <= 5e-4 * std::max(a, b))
    return nameA + " and " + nameB + " take the same time";
  return a < b ? nameA + " is " + ratioText(b, a) + " faster than " + nameB
               : nameB + " is " + ratioText(a, b) + " faster than " + nameA;
}

void printComparison(const Comparison &c, size_t rows, std::ostream &out) {
  char line[200];
  std::snprintf(line, sizeof line, "total: A %.3f us (%lld cycles), B %.3f us (%lld cycles): ", c.totalA,
                static_cast<long long>(c.cyclesA), c.totalB, static_cast<long long>(c.cyclesB));
  out << line << verdict(c.totalA, c.totalB, "A", "B") << "\n";
  out << "A: " << c.nameA << "\nB: " << c.nameB << "\n";
  std::vector<const StepComparison *> order;
  for (const StepComparison &s : c.steps)
    order.push_back(&s);
  if (rows > 0) {
    std::stable_sort(order.begin(), order.end(), [](const StepComparison *x, const StepComparison *y) {
      return std::fabs(x->timeA - x->timeB) > std::fabs(y->timeA - y->timeB);
    });
    order.resize(std::min(rows, order.size()));
    out << order.size() << " of " << c.steps.size() << " timed steps, largest difference first:\n";
  }
  out << "   step       A (us)       B (us)   B/A  faster  bound A / bound B  name\n";
  for (const StepComparison *s : order) {
    const char *faster = s->timeA < s->timeB ? "A" : s->timeB < s->timeA ? "B" : "=";
    std::snprintf(line, sizeof line, "  %5zu %12.3f %12.3f %5.2f  %-6s  ", s->index, s->timeA, s->timeB,
                  s->timeA > 0.0 ? s->timeB / s->timeA : 0.0, faster);
    out << line << s->boundA << " / " << s->boundB << "  " << s->name << "\n";
  }
}

HtmlPage comparePage(const Comparison &c) {
  HtmlPage page("npusim compare");
  page.definitions({{"A", c.nameA}, {"B", c.nameB}, {"total", verdict(c.totalA, c.totalB, "A", "B")}});
  Table table;
  table.caption = "Timed steps; B/A below 1 means B is faster. Click a heading to sort.";
  table.headings = {"step", "name", "A (us)", "B (us)", "B/A", "faster", "bound A", "bound B"};
  Series points{"steps", Series::Style::Points, {}, {}};
  double lo = 1e300, hi = 0.0;
  for (const StepComparison &s : c.steps) {
    const double ratio = s.timeA > 0.0 ? s.timeB / s.timeA : 0.0;
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.2f", ratio);
    table.rows.push_back({Table::number(std::to_string(s.index), double(s.index)), Table::text(s.name),
                          Table::number(std::to_string(s.timeA), s.timeA),
                          Table::number(std::to_string(s.timeB), s.timeB), Table::number(shown, ratio),
                          Table::text(s.timeA < s.timeB   ? "A"
                                      : s.timeB < s.timeA ? "B"
                                                          : "="),
                          Table::text(s.boundA), Table::text(s.boundB)});
    points.points.emplace_back(s.timeA, s.timeB);
    points.labels.push_back("step " + std::to_string(s.index) + " " + s.name);
    if (s.timeA > 0.0 && s.timeB > 0.0) {
      lo = std::min({lo, s.timeA, s.timeB});
      hi = std::max({hi, s.timeA, s.timeB});
    }
  }
  Chart chart{"Step time, B against A", {"A: step time (us)", true}, {"B: step time (us)", true}, {}};
  chart.series.push_back(std::move(points));
  if (hi > 0.0)
    chart.series.push_back({"equal time", Series::Style::Line, {{lo, lo}, {hi, hi}}, {}});
  page.heading("Steps");
  page.raw(chart.svg());
  page.paragraph("Points below the diagonal are steps B runs faster.");
  page.table(table);
  return page;
}

} // namespace npusim::report
