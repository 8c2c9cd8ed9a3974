#pragma once
// The run page's energy section (internal to the report module): from the
// report's "energy" object and each timed step's "timing.energy"
// (docs/energy.md, "Report"), the totals, the parts' shares and the power
// over time.
#include "report/html_page.h"

#include <nlohmann/json.hpp>

namespace npusim::report {

/// Appends the section; a report without "energy" (reference or functional
/// mode, or an older report) gets a line that says so.
void energySection(const nlohmann::json &report, HtmlPage &page);

} // namespace npusim::report
