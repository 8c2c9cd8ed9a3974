#pragma once
// One self-contained HTML page: inline style and script, no network access to
// open it. Pages of npusim (a run, a comparison, a sweep) are built from
// sections of headings, paragraphs, sortable tables and SVG charts, so they all
// look alike; docs/reports.md describes them.
#include <string>
#include <string_view>
#include <vector>

namespace npusim::report {

/// `text` with &, <, >, " and ' escaped for HTML text and attribute values.
std::string escapeHtml(std::string_view text);

/// A table whose columns sort by a click on their heading. A cell given a
/// number sorts numerically; its text is what the page shows.
struct Table {
  struct Cell {
    std::string text;
    double sortKey = 0.0;
    bool numeric = false;
  };
  std::vector<std::string> headings;
  std::vector<std::vector<Cell>> rows;
  std::string caption;

  static Cell text(std::string value) { return {std::move(value), 0.0, false}; }
  static Cell number(std::string shown, double value) { return {std::move(shown), value, true}; }
};

class HtmlPage {
public:
  explicit HtmlPage(std::string title);

  void heading(std::string_view text);
  void paragraph(std::string_view text);
  /// Name/value lines, e.g. a machine summary.
  void definitions(const std::vector<std::pair<std::string, std::string>> &items);
  void table(const Table &table);
  /// Markup built elsewhere (an SVG chart from report::Chart); inserted as is.
  void raw(std::string_view markup);

  /// The whole document.
  std::string str() const;
  /// Writes str() to `path`; throws core::InputError naming the path on failure.
  /// Writes the page through a temporary file (core/output_file.h); `what`
  /// names it in errors (default: the path).
  void write(const std::string &path, const std::string &what = "") const;

private:
  std::string title_;
  std::string body_;
};

} // namespace npusim::report
