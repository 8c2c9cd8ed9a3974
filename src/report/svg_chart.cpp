// SVG charts drawn by hand: no script and no library, so a page opens anywhere
// and the figures print as vectors (docs/reports.md says why).
#include "report/svg_chart.h"

#include "report/html_page.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace npusim::report {

namespace {

// Okabe-Ito: told apart with any colour vision, and in grey print by order.
const char *const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr int kLeft = 72, kRight = 160, kTop = 28, kBottom = 46;

std::string fixed(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  return text;
}

bool drawable(double v, bool log) {
  return std::isfinite(v) && (!log || v > 0.0);
}

/// Maps data values to pixels along one axis.
struct Scale {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  double from = 0.0, to = 1.0; // pixels of lo and hi

  double operator()(double v) const {
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
    const double t = ((log ? std::log10(v) : v) - a) / (b - a);
    return from + t * (to - from);
  }
};

/// The axis range: the one given, or the data's, widened so ends are not on a point.
std::pair<double, double> range(const Axis &axis, const std::vector<Series> &series, bool isX) {
  if (!axis.categories.empty())
    return {-0.5, static_cast<double>(axis.categories.size()) - 0.5};
  if (axis.min < axis.max && drawable(axis.min, axis.log))
    return {axis.min, axis.max};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Series &s : series)
    for (const auto &[x, y] : s.points) {
      const double v = isX ? x : y;
      if (!drawable(v, axis.log))
        continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  if (!(lo <= hi))
    return {axis.log ? 1.0 : 0.0, axis.log ? 10.0 : 1.0};
  if (axis.log) {
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (hi <= lo)
      hi = lo * 10.0;
    return {lo, hi};
  }
  if (lo > 0.0 && lo < 0.5 * hi)
    lo = 0.0; // bars of time and counts read best from zero
  if (hi == lo) {
    hi = lo + (lo == 0.0 ? 1.0 : std::fabs(lo) * 0.1);
    lo -= lo == 0.0 ? 0.0 : std::fabs(lo) * 0.1;
  }
  const double pad = 0.05 * (hi - lo);
  return {lo == 0.0 ? 0.0 : lo - pad, hi + pad};
}

std::vector<double> ticks(double lo, double hi, bool log, size_t categories) {
  std::vector<double> out;
  if (categories > 0) {
    for (size_t i = 0; i < categories; ++i)
      out.push_back(static_cast<double>(i));
    return out;
  }
  if (log) {
    for (double v = lo; v <= hi * 1.0000001; v *= 10.0)
      out.push_back(v);
    return out;
  }
  const double raw = (hi - lo) / 5.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

} // namespace

std::string shortNumber(double value) {
  if (!std::isfinite(value))
    return std::isnan(value) ? "n/a" : (value > 0 ? "inf" : "-inf");
  const char *suffix = "";
  double v = value;
  const double a = std::fabs(value);
  if (a >= 1e15) {
    v = value / 1e15;
    suffix = "P";
  } else if (a >= 1e12) {
    v = value / 1e12;
    suffix = "T";
  } else if (a >= 1e9) {
    v = value / 1e9;
    suffix = "G";
  } else if (a >= 1e6) {
    v = value / 1e6;
    suffix = "M";
  } else if (a >= 1e4) {
    v = value / 1e3;
    suffix = "k";
  }
  char text[40];
  std::snprintf(text, sizeof text, a >= 1e3 && a < 1e4 ? "%.4g%s" : "%.3g%s", v, suffix);
  return text;
}

std::string Chart::svg() const {
  const auto [xlo, xhi] = range(x, series, true);
  const auto [ylo, yhi] = range(y, series, false);
  const Scale sx{xlo, xhi, x.log, double(kLeft), double(width - kRight)};
  const Scale sy{ylo, yhi, y.log, double(height - kBottom), double(kTop)};
  std::string out = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
                    std::to_string(width) + " " + std::to_string(height) + "\" role=\"img\" aria-label=\"" +
                    escapeHtml(title) + "\">\n";
  out += "<text x=\"" + std::to_string(kLeft) + "\" y=\"16\" font-weight=\"bold\" font-size=\"13\">" +
         escapeHtml(title) + "</text>\n";
  // Grid and ticks.
  out += "<g class=\"grid\">";
  std::string tickLabels;
  const auto tickText = [](const Axis &axis, double t) {
    return axis.categories.empty() ? shortNumber(t) : axis.categories[static_cast<size_t>(t)];
  };
  for (double t : ticks(xlo, xhi, x.log, x.categories.size())) {
    const std::string px = fixed(sx(t));
    out += "<line x1=\"" + px + "\" x2=\"" + px + "\" y1=\"" + std::to_string(kTop) + "\" y2=\"" +
           std::to_string(height - kBottom) + "\"/>";
    tickLabels += "<text x=\"" + px + "\" y=\"" + std::to_string(height - kBottom + 14) +
                  "\" text-anchor=\"middle\">" + escapeHtml(tickText(x, t)) + "</text>";
  }
  for (double t : ticks(ylo, yhi, y.log, y.categories.size())) {
    const std::string py = fixed(sy(t));
    out += "<line x1=\"" + std::to_string(kLeft) + "\" x2=\"" + std::to_string(width - kRight) + "\" y1=\"" +
           py + "\" y2=\"" + py + "\"/>";
    tickLabels += "<text x=\"" + std::to_string(kLeft - 6) + "\" y=\"" + py +
                  "\" text-anchor=\"end\" dominant-baseline=\"middle\">" + escapeHtml(shortNumber(t)) +
                  "</text>";
  }
  out += "</g>\n<g class=\"axis\"><path d=\"M" + std::to_string(kLeft) + " " + std::to_string(kTop) + " V" +
         std::to_string(height - kBottom) + " H" + std::to_string(width - kRight) + "\" fill=\"none\"/>" +
         tickLabels + "</g>\n";
  out += "<text x=\"" + std::to_string((kLeft + width - kRight) / 2) + "\" y=\"" +
         std::to_string(height - 10) + "\" text-anchor=\"middle\">" + escapeHtml(x.label) + "</text>\n";
  out += "<text transform=\"translate(14," + std::to_string((kTop + height - kBottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escapeHtml(y.label) + "</text>\n";
  // Data, clipped to the plot area.
  size_t drawn = 0;
  const auto inside = [&](double vx, double vy) {
    return drawable(vx, x.log) && drawable(vy, y.log) && vx >= xlo && vx <= xhi && vy >= ylo && vy <= yhi;
  };
  for (size_t k = 0; k < series.size(); ++k) {
    const Series &s = series[k];
    const size_t index = s.colour >= 0 ? static_cast<size_t>(s.colour) : k;
    const std::string colour = kColours[index % std::size(kColours)];
    out += "<g class=\"series\" data-name=\"" + escapeHtml(s.name) + "\">";
    if (s.style == Series::Style::Line) {
      std::string points;
      for (const auto &[vx, vy] : s.points)
        if (inside(vx, vy))
          points += fixed(sx(vx)) + "," + fixed(sy(vy)) + " ";
      if (!points.empty()) {
        out += "<polyline class=\"series\" stroke=\"" + colour + "\" points=\"" + points + "\"/>";
        ++drawn;
      }
    } else {
      for (size_t i = 0; i < s.points.size(); ++i) {
        const auto [vx, vy] = s.points[i];
        if (!inside(vx, vy))
          continue;
        out += "<circle class=\"point\" cx=\"" + fixed(sx(vx)) + "\" cy=\"" + fixed(sy(vy)) +
               "\" r=\"3.5\" fill=\"" + colour + "\">";
        if (i < s.labels.size())
          out += "<title>" + escapeHtml(s.labels[i]) + "</title>";
        out += "</circle>";
        ++drawn;
      }
    }
    out += "</g>\n";
    // Legend entry.
    const int ly = kTop + 8 + static_cast<int>(k) * 16;
    const int lx = width - kRight + 12;
    if (s.style == Series::Style::Line)
      out += "<line x1=\"" + std::to_string(lx) + "\" x2=\"" + std::to_string(lx + 14) + "\" y1=\"" +
             std::to_string(ly) + "\" y2=\"" + std::to_string(ly) + "\" stroke=\"" + colour +
             "\" stroke-width=\"2\"/>";
    else
      out += "<rect x=\"" + std::to_string(lx + 3) + "\" y=\"" + std::to_string(ly - 4) +
             "\" width=\"8\" height=\"8\" fill=\"" + colour + "\"/>";
    out += "<text x=\"" + std::to_string(lx + 20) + "\" y=\"" + std::to_string(ly) +
           "\" dominant-baseline=\"middle\">" + escapeHtml(s.name) + "</text>\n";
  }
  if (drawn == 0)
    out += "<text class=\"empty\" x=\"" + std::to_string((kLeft + width - kRight) / 2) + "\" y=\"" +
           std::to_string((kTop + height - kBottom) / 2) +
           "\" text-anchor=\"middle\">no data to draw</text>\n";
  out += "</svg>";
  return out;
}

} // namespace npusim::report
