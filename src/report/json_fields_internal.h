#pragma once
// Fields of a report's JSON as the pages read them.
#include <nlohmann/json.hpp>

namespace npusim::report {

/// The number at `key` of `object`, or 0 where there is none (an older report).
inline double numberField(const nlohmann::json &object, const char *key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

} // namespace npusim::report
