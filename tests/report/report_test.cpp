// The report module: HTML escaping, SVG charts, comparisons of two reports;
// expected values by hand arithmetic in the comments.
#include "report/html_page.h"
#include "report/run_page.h"
#include "report/svg_chart.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace npusim::report {
namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

TEST(Html, EscapesTextAndAttributes) {
  EXPECT_EQ(escapeHtml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
}

TEST(Html, PageIsOneDocumentWithItsTableAndNoExternalResource) {
  HtmlPage page("t <1>");
  Table t;
  t.headings = {"name", "cycles"};
  t.rows.push_back({Table::text("k<0>"), Table::number("10", 10)});
  t.rows.push_back({Table::text("k1"), Table::number("9", 9)});
  page.table(t);
  const std::string html = page.str();
  EXPECT_EQ(count(html, "<html"), 1u);
  EXPECT_NE(html.find("<title>t &lt;1&gt;</title>"), std::string::npos);
  EXPECT_EQ(count(html, "<tr>"), 3u); // heading + 2 rows
  EXPECT_NE(html.find("data-v=\"10\""), std::string::npos);
  EXPECT_NE(html.find("k&lt;0&gt;"), std::string::npos);
  // Self-contained: no script, style or image is fetched.
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
}

TEST(Chart, PointsLandWhereTheScaleSays) {
  Chart c{"c", {"x", false, 0.0, 10.0}, {"y", false, 0.0, 100.0}, {}};
  c.series.push_back({"s", Series::Style::Points, {{5.0, 50.0}, {10.0, 0.0}}, {"a", "b"}});
  const std::string svg = c.svg();
  EXPECT_EQ(count(svg, "<circle class=\"point\""), 2u);
  // Plot area x: 72 .. 640 - 160 = 480, so x = 5 is 72 + 0.5 * 408 = 276;
  // y: 360 - 46 = 314 (0) .. 28 (100), so y = 50 is 171.
  EXPECT_NE(svg.find("cx=\"276.0\" cy=\"171.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("cx=\"480.0\" cy=\"314.0\""), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>a</title>"), std::string::npos);
}

TEST(Chart, LogAxisLeavesOutNonPositiveValuesAndSpansDecades) {
  Chart c{"c", {"x", true}, {"y", true}, {}};
  c.series.push_back(
      {"s", Series::Style::Points, {{2.0, 30.0}, {0.0, 5.0}, {300.0, -1.0}, {50.0, 700.0}}, {}});
  const std::string svg = c.svg();
  EXPECT_EQ(count(svg, "<circle"), 2u);
  // x from 2 and 50: decades 1 .. 100, ticks 1, 10, 100; y 30 .. 700: 10 .. 1000.
  EXPECT_NE(svg.find(">100</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1000</text>"), std::string::npos);
  EXPECT_EQ(svg.find("no data to draw"), std::string::npos);
}

TEST(Chart, SaysSoWhenNothingIsDrawable) {
  Chart c{"c", {"x", true}, {"y"}, {}};
  c.series.push_back({"s", Series::Style::Line, {{0.0, 1.0}}, {}});
  EXPECT_NE(c.svg().find("no data to draw"), std::string::npos);
}

TEST(Chart, CategoryAxisLabelsItsWords) {
  Chart c{"c", {"dram"}, {"t"}, {}};
  c.x.categories = {"hbm2", "hbm3"};
  c.series.push_back({"s", Series::Style::Points, {{0.0, 1.0}, {1.0, 2.0}}, {}});
  const std::string svg = c.svg();
  EXPECT_NE(svg.find(">hbm2</text>"), std::string::npos);
  EXPECT_NE(svg.find(">hbm3</text>"), std::string::npos);
}

TEST(Chart, ShortNumbers) {
  EXPECT_EQ(shortNumber(6158), "6158");
  EXPECT_EQ(shortNumber(61.6e12), "61.6T");
  EXPECT_EQ(shortNumber(25000), "25k");
  EXPECT_EQ(shortNumber(0.125), "0.125");
}

nlohmann::json report(const std::string &machine, std::vector<std::pair<std::string, double>> steps) {
  nlohmann::json r = {{"bundle", "b"}, {"machine", machine}, {"steps", nlohmann::json::array()}};
  double total = 0.0;
  for (size_t i = 0; i < steps.size(); ++i) {
    r["steps"].push_back({{"index", i},
                          {"name", steps[i].first},
                          {"timing",
                           {{"time_us", steps[i].second},
                            {"cycles", static_cast<int64_t>(steps[i].second * 1000)},
                            {"bound", "vector"},
                            {"unit_busy_percent", nlohmann::json::object()}}}});
    total += steps[i].second;
  }
  r["totals"] = {{"time_us", total}, {"cycles", static_cast<int64_t>(total * 1000)}};
  return r;
}

TEST(Compare, TotalsAndStepsSayWhoIsFasterByHowMuch) {
  // A: 2 + 4 = 6 us, B: 1 + 8 = 9 us: A is 9 / 6 = 1.50x faster in total;
  // step 0 B is 2.00x faster, step 1 A is 2.00x faster.
  const Comparison c =
      compareReports(report("m1", {{"k0", 2.0}, {"k1", 4.0}}), report("m2", {{"k0", 1.0}, {"k1", 8.0}}));
  EXPECT_DOUBLE_EQ(c.totalA, 6.0);
  EXPECT_DOUBLE_EQ(c.totalB, 9.0);
  EXPECT_EQ(verdict(c.totalA, c.totalB, "A", "B"), "A is 1.50x faster than B");
  ASSERT_EQ(c.steps.size(), 2u);
  EXPECT_EQ(verdict(c.steps[0].timeA, c.steps[0].timeB, "A", "B"), "B is 2.00x faster than A");
  EXPECT_EQ(c.nameA, "b on m1");
  EXPECT_EQ(verdict(3.0, 3.0, "A", "B"), "A and B take the same time");
  std::ostringstream out;
  printComparison(c, 1, out);
  // Largest difference first: step 1 (4 us) before step 0 (1 us), and only one row.
  EXPECT_NE(out.str().find("1 of 2 timed steps"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("k1"), std::string::npos);
  EXPECT_EQ(out.str().find("k0"), std::string::npos);
  const std::string html = comparePage(c).str();
  EXPECT_EQ(count(html, "<circle class=\"point\""), 2u);
}

TEST(Compare, ReportsOfDifferentBundlesAreRefused) {
  EXPECT_THROW(compareReports(report("m", {{"k0", 1.0}}), report("m", {{"other", 1.0}})), std::exception);
  EXPECT_THROW(compareReports(report("m", {{"k0", 1.0}}), report("m", {{"k0", 1.0}, {"k1", 1.0}})),
               std::exception);
}

TEST(RunPage, MachineJsonHasTheRoofs) {
  config::HardwareConfig m = config::loadConfig("tpuv3-like");
  const nlohmann::json j = machineJson(m);
  // 1 core x 2 arrays x 128^2 x 2 x 940 MHz = 61.6 TFLOP/s; 16 ch x 64 B / (2 x 1064 ps, the DRAM clock the simulator steps) = 481.2 GB/s.
  EXPECT_NEAR(j["peak_flops_per_s"].get<double>(), 2.0 * 128 * 128 * 2 * 940e6, 1.0);
  EXPECT_NEAR(j["peak_dram_bytes_per_s"].get<double>(), 16 * 64 / (2 * 1064e-12), 1e3);
  EXPECT_EQ(j["spad_bytes"].get<int64_t>(), int64_t{128} * 1024 * 128);
}

TEST(RunPage, DrawsOneRooflinePointPerStepWithMacs) {
  nlohmann::json r = report("m", {{"mm", 2.0}, {"add", 1.0}});
  r["machine_config"] = machineJson(config::loadConfig("tpuv3-like"));
  r["steps"][0]["timing"]["macs"] = 1000000;
  r["steps"][0]["timing"]["dram_bytes_read"] = 4000;
  r["steps"][1]["timing"]["dram_bytes_read"] = 800;
  r["steps"][0]["timing"]["unit_busy_percent"] = {{"vector", 10.0}, {"dma", 50.0}};
  const std::string html = runPage(r).str();
  EXPECT_EQ(count(html, "<svg class=\"chart\""), 3u); // roofline, utilisation, DRAM bandwidth
  EXPECT_EQ(count(html, "<circle class=\"point\""), 1u);
  EXPECT_NE(html.find("1 timed steps without MACs"), std::string::npos);
  // Point: 2e6 FLOP / 4000 B = 500 FLOP/B, 2e6 FLOP / 2 us = 1 TFLOP/s.
  EXPECT_NE(html.find("500 FLOP/B, 1T FLOP/s"), std::string::npos);
}

} // namespace
} // namespace npusim::report
