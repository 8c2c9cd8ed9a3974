// The validation page and plot.
#include "validation/validation.h"

#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace npusim::validation {
namespace {

std::string percent(double value, bool sign) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, sign ? "%+.1f%%" : "%.1f%%", value);
  return buffer;
}

std::string seconds(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

std::string summaryLine(const Result &result) {
  return "MAE " + percent(result.maePercent, false) + " over " + std::to_string(result.ran) + " of " +
         std::to_string(result.rows.size()) + " workloads on " + result.machine + " (limit " +
         percent(result.suite.maxMaePercent, false) + ")";
}

} // namespace

report::HtmlPage page(const Result &result) {
  const std::string title = result.suite.title.empty() ? "Silicon validation" : result.suite.title;
  report::HtmlPage page(title + ": npusim against silicon");
  page.paragraph(summaryLine(result) + (result.withinLimit() ? "." : ": above the limit or incomplete."));
  page.definitions({{"suite", result.suite.path},
                    {"silicon cycles from", result.suite.source},
                    {"machine", result.machine},
                    {"largest error", percent(result.maxAbsErrorPercent, false)},
                    {"workloads that failed", std::to_string(result.failed)}});

  report::Chart errors;
  errors.title = "error per workload (npusim / silicon - 1)";
  errors.x.label = "workload";
  errors.y.label = "error (%)";
  report::Series points{"error", report::Series::Style::Points, {}, {}, 0};
  for (size_t i = 0; i < result.rows.size(); ++i) {
    const Row &row = result.rows[i];
    errors.x.categories.push_back(row.workload.name);
    if (row.ran) {
      points.points.emplace_back(static_cast<double>(i), row.errorPercent);
      points.labels.push_back(row.workload.name + ": " + percent(row.errorPercent, true));
    }
  }
  const double last = static_cast<double>(result.rows.size()) - 0.5;
  errors.series = {points,
                   {"+20%", report::Series::Style::Line, {{-0.5, 20.0}, {last, 20.0}}, {}, 2},
                   {"-20%", report::Series::Style::Line, {{-0.5, -20.0}, {last, -20.0}}, {}, 2}};
  errors.width = 900;
  page.raw(errors.svg());

  report::Chart scatter;
  scatter.title = "simulated against silicon cycles";
  scatter.x = {"silicon cycles", true};
  scatter.y = {"npusim cycles", true};
  report::Series measured{"workloads", report::Series::Style::Points, {}, {}, 0};
  double low = 1e300, high = 0.0;
  for (const Row &row : result.rows)
    if (row.ran) {
      const double s = static_cast<double>(row.workload.siliconCycles);
      measured.points.emplace_back(s, static_cast<double>(row.cycles));
      measured.labels.push_back(row.workload.name);
      low = std::min({low, s, static_cast<double>(row.cycles)});
      high = std::max({high, s, static_cast<double>(row.cycles)});
    }
  scatter.series = {measured};
  if (high > 0.0)
    scatter.series.push_back({"equal", report::Series::Style::Line, {{low, low}, {high, high}}, {}, 2});
  page.raw(scatter.svg());

  report::Table table;
  table.headings = {"workload", "bundle", "silicon cycles", "npusim cycles", "error", "wall (s)"};
  for (const Row &row : result.rows)
    table.rows.push_back(
        {report::Table::text(row.workload.name), report::Table::text(row.workload.bundle),
         report::Table::number(std::to_string(row.workload.siliconCycles), static_cast<double>(row.workload.siliconCycles)),
         row.ran ? report::Table::number(std::to_string(row.cycles), static_cast<double>(row.cycles))
                 : report::Table::text("failed: " + row.failure),
         row.ran ? report::Table::number(percent(row.errorPercent, true), row.errorPercent) : report::Table::text(""),
         report::Table::number(seconds(row.wallSeconds), row.wallSeconds)});
  page.table(table);
  return page;
}

report::RasterImage plot(const Result &result) {
  constexpr int kScale = 2, kRow = 26, kTop = 72, kBottom = 40, kRight = 110;
  int labelWidth = 0;
  for (const Row &row : result.rows)
    labelWidth = std::max(labelWidth, report::RasterImage::textWidth(row.workload.name, kScale));
  const int left = labelWidth + 24;
  const int width = std::max(900, left + 520 + kRight);
  const int height = kTop + kRow * static_cast<int>(result.rows.size()) + kBottom;
  report::RasterImage image(width, height);
  const report::Rgb ink{30, 30, 30}, grid{215, 215, 215}, band{220, 242, 220}, slow{68, 114, 196},
      fast{237, 125, 49}, failedColour{200, 0, 0};

  // The axis spans -range .. +range percent, range a multiple of 25 past the
  // largest error (at least 50, at most 400: longer bars are cut and labelled).
  const double range = std::clamp(std::ceil(std::max(result.maxAbsErrorPercent, 45.0) / 25.0) * 25.0, 50.0, 400.0);
  const int x0 = left, x1 = width - kRight, mid = (x0 + x1) / 2;
  auto xOf = [&](double pct) {
    const double clamped = std::clamp(pct, -range, range);
    return mid + static_cast<int>(std::lround(clamped / range * (x1 - mid)));
  };
  const int chartTop = kTop - 6, chartBottom = kTop + kRow * static_cast<int>(result.rows.size());
  image.fillRect(xOf(-20.0), chartTop, xOf(20.0) + 1, chartBottom, band);
  const double step = range <= 100 ? 25.0 : range <= 200 ? 50.0 : 100.0;
  for (double v = -range; v <= range + 1e-9; v += step) {
    const int x = xOf(v);
    image.line(x, chartTop, x, chartBottom, v == 0.0 ? ink : grid);
    char tick[16];
    std::snprintf(tick, sizeof tick, "%+.0f%%", v);
    const std::string t = v == 0.0 ? "0" : tick;
    image.text(x - report::RasterImage::textWidth(t, 1) / 2, chartBottom + 6, t, ink, 1);
  }
  image.text(x0, chartBottom + 22, "ERROR = NPUSIM CYCLES / SILICON CYCLES - 1 (SHADED: WITHIN 20%)", ink, 1);
  image.text(12, 12, result.suite.title.empty() ? "SILICON VALIDATION" : result.suite.title, ink, kScale);
  image.text(12, 36, summaryLine(result), ink, 1);

  for (size_t i = 0; i < result.rows.size(); ++i) {
    const Row &row = result.rows[i];
    const int y = kTop + kRow * static_cast<int>(i);
    image.text(left - 12 - report::RasterImage::textWidth(row.workload.name, kScale), y + 3, row.workload.name,
               ink, kScale);
    if (!row.ran) {
      image.text(mid + 6, y + 3, "FAILED", failedColour, kScale);
      continue;
    }
    const int end = xOf(row.errorPercent);
    image.fillRect(std::min(mid, end), y + 2, std::max(mid, end) + 1, y + kRow - 6,
                   row.errorPercent >= 0 ? slow : fast);
    std::string label = percent(row.errorPercent, true);
    if (std::fabs(row.errorPercent) > range)
      label += " (CUT)";
    const int labelX = row.errorPercent >= 0 ? std::max(mid, end) + 6
                                             : std::min(mid, end) - 6 - report::RasterImage::textWidth(label, kScale);
    image.text(std::clamp(labelX, 0, width - report::RasterImage::textWidth(label, kScale)), y + 3, label, ink,
               kScale);
  }
  return image;
}

} // namespace npusim::validation
