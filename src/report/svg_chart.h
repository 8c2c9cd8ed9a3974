#pragma once
// Hand-made SVG charts: scatter points, lines and step lines over linear or
// log axes, with ticks, labels and a legend. The markup carries classes the
// browser test counts (svg.chart, circle.point, polyline.series).
#include <string>
#include <vector>

namespace npusim::report {

struct Series {
  enum class Style { Points, Line };
  std::string name;
  Style style = Style::Points;
  std::vector<std::pair<double, double>>
      points; // (x, y); non-finite ones and, on a log axis, non-positive ones are left out
  std::vector<std::string> labels; // Points: one hover title per point, or empty
  int colour = -1;                 // index into the palette; -1: the series' own index
};

struct Axis {
  std::string label;
  bool log = false;
  /// The range; with min >= max it is taken from the data.
  double min = 0.0, max = 0.0;
  /// Words at 0, 1, 2, ... (a key such as dram: hbm2, hbm3): the ticks are
  /// these and the range is -0.5 .. size - 0.5.
  std::vector<std::string> categories = {};
};

struct Chart {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  int width = 640, height = 360;

  /// The <svg> element; a chart with no drawable point says so in its place.
  std::string svg() const;
};

/// A number for a tick or a table: 3 significant digits, k/M/G/T suffixes for
/// large magnitudes.
std::string shortNumber(double value);

} // namespace npusim::report
