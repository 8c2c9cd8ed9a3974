// The page frame: one style sheet and one script for every npusim page.
#include "report/html_page.h"

#include "core/error.h"
#include "core/output_file.h"

#include <cstdio>
#include <fstream>

namespace npusim::report {

namespace {

// Print-friendly: black text, thin rules, a serif-free font the reader has.
const char *const kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px auto;
       max-width: 1100px; color: #1b1b1b; line-height: 1.4; padding: 0 16px; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; padding-bottom: 2px; }
dl { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }
dt { color: #555; } dd { margin: 0; }
table { border-collapse: collapse; font-size: 0.85em; margin: 8px 0; }
caption { text-align: left; color: #555; padding-bottom: 4px; }
th, td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { cursor: pointer; user-select: none; background: #f3f3f3; position: sticky; top: 0; }
th[data-order="asc"]::after { content: " \25B2"; } th[data-order="desc"]::after { content: " \25BC"; }
svg.chart { display: block; margin: 8px 0; font-size: 11px; }
svg.chart .axis line, svg.chart .axis path { stroke: #444; }
svg.chart .grid line { stroke: #e8e8e8; }
svg.chart text { fill: #222; }
svg.chart circle.point { fill-opacity: 0.75; }
svg.chart polyline.series { fill: none; stroke-width: 1.5; }
.note { color: #555; font-size: 0.9em; }
)";

// Sorts a table by the clicked column: numeric cells by data-v, others by text.
// The body's data-sortable-tables tells a test that the script ran.
const char *const kScript = R"(
var tables = document.querySelectorAll("table.sortable");
document.body.setAttribute("data-sortable-tables", String(tables.length));
tables.forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var ascending = th.getAttribute("data-order") !== "asc";
      table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("data-order"); });
      th.setAttribute("data-order", ascending ? "asc" : "desc");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        var d = (x.hasAttribute("data-v") && y.hasAttribute("data-v"))
          ? parseFloat(x.getAttribute("data-v")) - parseFloat(y.getAttribute("data-v"))
          : x.textContent.localeCompare(y.textContent);
        return ascending ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
)";

} // namespace

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

HtmlPage::HtmlPage(std::string title) : title_(std::move(title)) {}

void HtmlPage::heading(std::string_view text) {
  body_ += "<h2>" + escapeHtml(text) + "</h2>\n";
}

void HtmlPage::paragraph(std::string_view text) {
  body_ += "<p>" + escapeHtml(text) + "</p>\n";
}

void HtmlPage::definitions(const std::vector<std::pair<std::string, std::string>> &items) {
  body_ += "<dl>\n";
  for (const auto &[name, value] : items)
    body_ += "<dt>" + escapeHtml(name) + "</dt><dd>" + escapeHtml(value) + "</dd>\n";
  body_ += "</dl>\n";
}

void HtmlPage::table(const Table &table) {
  body_ += "<table class=\"sortable\">\n";
  if (!table.caption.empty())
    body_ += "<caption>" + escapeHtml(table.caption) + "</caption>\n";
  body_ += "<thead><tr>";
  for (const std::string &h : table.headings)
    body_ += "<th>" + escapeHtml(h) + "</th>";
  body_ += "</tr></thead>\n<tbody>\n";
  for (const std::vector<Table::Cell> &row : table.rows) {
    body_ += "<tr>";
    for (const Table::Cell &cell : row) {
      if (cell.numeric) {
        char key[40];
        std::snprintf(key, sizeof key, "%.17g", cell.sortKey);
        body_ += "<td class=\"num\" data-v=\"" + std::string(key) + "\">" + escapeHtml(cell.text) + "</td>";
      } else {
        body_ += "<td>" + escapeHtml(cell.text) + "</td>";
      }
    }
    body_ += "</tr>\n";
  }
  body_ += "</tbody></table>\n";
}

void HtmlPage::raw(std::string_view markup) {
  body_ += markup;
  body_ += "\n";
}

std::string HtmlPage::str() const {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         escapeHtml(title_) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" +
         escapeHtml(title_) + "</h1>\n" + body_ + "<script>" + kScript + "</script>\n</body>\n</html>\n";
}

void HtmlPage::write(const std::string &path, const std::string &what) const {
  core::writeFileAtomically(path, str(), what.empty() ? path : what);
}

} // namespace npusim::report
