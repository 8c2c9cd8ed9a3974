#pragma once
// A serving scenario (docs/serving.md): the machine, the tenants with their
// bundles and request streams, the placements to simulate, and whether
// requests compute values. Loaded from YAML; every error names the file and
// line.
#include "config/hardware.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npusim::serving {

/// Requests a stream may send (count, outstanding, the entries of times_us):
/// each one's record and instance spans stay in memory for the report.
inline constexpr int64_t kMaxRequests = 1'000'000;
/// Every arrival lies within this much simulated time (10,000 s), far inside
/// the picosecond clock's range (about 106 days).
inline constexpr double kMaxArrivalUs = 1.0e10;

/// A request stream as the scenario spells it; the stream registered as
/// `arrival` (streams.h) reads the fields it needs and rejects the rest.
struct StreamSpec {
  std::string arrival = "fixed";               // "fixed", "poisson", "closed_loop", or any registered stream
  std::vector<double> timesUs;                 // fixed: arrival times
  double ratePerSecond = 0.0;                  // poisson: mean arrivals per second
  uint64_t seed = 1;                           // poisson
  int64_t count = 0;                           // poisson, closed_loop: requests in all
  int64_t outstanding = 0;                     // closed_loop: requests in flight
  double thinkUs = 0.0;                        // closed_loop: from a completion to the next request
  std::vector<std::string> keys;               // the keys the scenario gave (besides arrival)
  std::string where;                           // "FILE:LINE" of the stream, for errors
  std::map<std::string, std::string> keyWhere; // "FILE:LINE" of each key given

  /// "FILE:LINE: key 'KEY'" for an error about one key (the stream's line
  /// when the key was not given).
  std::string at(const std::string &key) const {
    const auto found = keyWhere.find(key);
    return (found == keyWhere.end() ? where : found->second) + ": key '" + key + "'";
  }
};

struct TenantSpec {
  std::string name;
  std::string bundle; // a bundle directory, relative paths resolved against the scenario's folder
  int priority = 0;   // the priority policy runs higher first
  StreamSpec requests;
  std::string where;
};

/// One placement to simulate. `name` is a registered placement
/// ("partitioned", "shared"); `cores` (partitioned) gives tenants their cores
/// by tenant name, and `policy` (shared) a registered scheduling policy
/// (empty: fifo).
struct PlacementSpec {
  std::string name = "partitioned";
  std::map<std::string, std::vector<int>> cores;
  std::string policy;
  std::string where;
};

struct Scenario {
  std::string path; // the scenario file
  config::HardwareConfig machine;
  std::vector<TenantSpec> tenants;
  std::vector<PlacementSpec> placements; // simulated one after another, each from an idle machine
  bool values = false;                   // requests compute values (full mode) or only cycles
  /// Instances a core holds at once (submitted, not completed): 2 lets a
  /// double-buffered program overlap one instance's loads with another's
  /// compute; the policy chooses only among what is not yet on a core.
  int coreQueueDepth = 2;
};

/// Reads a scenario and checks every key, the request streams and the
/// placements (against the machine and the tenants) before any bundle runs;
/// throws core::InputError "FILE:LINE: message".
Scenario loadScenario(const std::string &path);
Scenario parseScenario(const std::string &yamlText, const std::string &path);

} // namespace npusim::serving
