#pragma once
// The interchangeable parts of serving, each registered by name in one line
// next to its definition (core/registry.h):
//
//   const bool kRegistered = RequestStreams::add<MyStream>("my_stream");
//
// - request streams: when requests arrive (fixed times, Poisson, closed loop);
// - placements: which cores each tenant may use (partitioned, shared);
// - scheduling policies: which tenant's instance a shared core runs next
//   (fifo, round_robin, priority).
#include "core/registry.h"
#include "serving/scenario.h"
#include "timing/event_queue.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npusim::serving {

using timing::TimePs;

/// The arrivals of one tenant's requests.
class RequestStream {
public:
  virtual ~RequestStream() = default;
  /// Arrival times known before the run (open loop, and a closed loop's first
  /// requests), in increasing order.
  virtual std::vector<TimePs> initialArrivals() = 0;
  /// A request finished at `now`: the arrival of the request that follows
  /// (closed loop), or nothing.
  virtual std::optional<TimePs> afterCompletion(TimePs now) = 0;
};
using RequestStreams = core::Registry<RequestStream, const StreamSpec &>;

/// Which cores each tenant may run on (by tenant index).
class Placement {
public:
  virtual ~Placement() = default;
  virtual std::vector<std::vector<int>> coresOf(const Scenario &scenario, const PlacementSpec &spec) = 0;
  /// Whether tenants share cores, so that the policy decides.
  virtual bool shared() const = 0;
};
using Placements = core::Registry<Placement>;

/// The oldest ready instance of one tenant that may run on the core.
struct Candidate {
  int tenant = 0;
  int priority = 0;
  TimePs arrival = 0;  // of the instance's request
  int64_t request = 0; // global request number, in arrival order
};

/// Chooses, for a core with room, whose instance goes next.
class SchedulingPolicy {
public:
  virtual ~SchedulingPolicy() = default;
  /// `candidates` is not empty and lists one entry per tenant, in tenant
  /// order. Returns an index into it.
  virtual size_t pick(int core, std::span<const Candidate> candidates) = 0;
};
using SchedulingPolicies = core::Registry<SchedulingPolicy>;

/// make() of the registry, with the scenario's own error ("FILE:LINE: key
/// 'KEY': 'NAME' is not registered (registered: ...)").
template <class Registry, class... Args>
auto makeNamed(const std::string &where, const std::string &key, const std::string &name, Args &&...args) {
  return Registry::make(where + ": key '" + key + "'", name, std::forward<Args>(args)...);
}

/// A placement of the scenario as the simulation uses it: each tenant's
/// cores, and the policy that picks among them (fifo unless named).
struct ResolvedPlacement {
  bool shared = false;
  std::vector<std::vector<int>> cores; // by tenant index
  std::string policyName;
  std::unique_ptr<SchedulingPolicy> policy;
};
/// Throws core::InputError naming the placement's line: an unregistered
/// placement or policy, cores that do not fit the machine or the tenants, a
/// policy on a placement that gives each core one tenant.
ResolvedPlacement resolvePlacement(const Scenario &scenario, const PlacementSpec &spec);

/// Picoseconds of a time in microseconds, rounded to the nearest.
TimePs psOfUs(double us);

} // namespace npusim::serving
