// Placements (which cores a tenant may use) and the scheduling policies of
// shared cores.
#include "serving/policies.h"
#include "core/error.h"

#include <string>
#include <tuple>

namespace npusim::serving {
namespace {

/// Each tenant on cores of its own: the scenario's `cores` per tenant name,
/// or, without it, the cores split into contiguous runs as evenly as they go
/// (tenant t of T on a machine of C cores: cores [t C / T, (t + 1) C / T)).
class Partitioned final : public Placement {
public:
  std::vector<std::vector<int>> coresOf(const Scenario &scenario, const PlacementSpec &spec) override {
    const int cores = scenario.machine.numCores;
    const auto tenants = static_cast<int>(scenario.tenants.size());
    std::vector<std::vector<int>> out(scenario.tenants.size());
    if (spec.cores.empty()) {
      if (tenants > cores)
        throw core::InputError(spec.where + ": placement 'partitioned': " + std::to_string(tenants) +
                               " tenants on " + std::to_string(cores) + " cores (give each tenant a core)");
      for (int t = 0; t < tenants; ++t)
        for (int c = t * cores / tenants; c < (t + 1) * cores / tenants; ++c)
          out[static_cast<size_t>(t)].push_back(c);
      return out;
    }
    std::vector<int> owner(static_cast<size_t>(cores), -1);
    for (const auto &[name, list] : spec.cores) {
      int tenant = -1;
      for (int t = 0; t < tenants; ++t)
        if (scenario.tenants[static_cast<size_t>(t)].name == name)
          tenant = t;
      if (tenant < 0)
        throw core::InputError(spec.where + ": cores: no tenant is named '" + name + "'");
      for (int core : list) {
        if (core < 0 || core >= cores)
          throw core::InputError(spec.where + ": cores: " + name + ": core " + std::to_string(core) +
                                 " of a machine with " + std::to_string(cores) + " cores");
        if (owner[static_cast<size_t>(core)] >= 0)
          throw core::InputError(
              spec.where + ": cores: core " + std::to_string(core) + " is given to both " +
              scenario.tenants[static_cast<size_t>(owner[static_cast<size_t>(core)])].name + " and " + name);
        owner[static_cast<size_t>(core)] = tenant;
        out[static_cast<size_t>(tenant)].push_back(core);
      }
    }
    for (int t = 0; t < tenants; ++t)
      if (out[static_cast<size_t>(t)].empty())
        throw core::InputError(spec.where + ": cores: tenant '" +
                               scenario.tenants[static_cast<size_t>(t)].name + "' has no core");
    return out;
  }
  bool shared() const override { return false; }
};

/// Every tenant on every core.
class Shared final : public Placement {
public:
  std::vector<std::vector<int>> coresOf(const Scenario &scenario, const PlacementSpec &spec) override {
    if (!spec.cores.empty())
      throw core::InputError(spec.where +
                             ": placement 'shared' takes no cores (every tenant uses every core)");
    std::vector<int> all;
    for (int c = 0; c < scenario.machine.numCores; ++c)
      all.push_back(c);
    return std::vector<std::vector<int>>(scenario.tenants.size(), all);
  }
  bool shared() const override { return true; }
};

/// The oldest request first (ties: the lower tenant).
class Fifo final : public SchedulingPolicy {
public:
  size_t pick(int, std::span<const Candidate> candidates) override {
    size_t best = 0;
    for (size_t i = 1; i < candidates.size(); ++i)
      if (std::tie(candidates[i].arrival, candidates[i].request) <
          std::tie(candidates[best].arrival, candidates[best].request))
        best = i;
    return best;
  }
};

/// Per core, the tenants take turns, one instance each: the first candidate
/// after the tenant the core ran last.
class RoundRobin final : public SchedulingPolicy {
public:
  size_t pick(int core, std::span<const Candidate> candidates) override {
    if (static_cast<size_t>(core) >= last_.size())
      last_.resize(static_cast<size_t>(core) + 1, -1);
    int &last = last_[static_cast<size_t>(core)];
    size_t chosen = 0; // wraps around to the lowest tenant
    for (size_t i = 0; i < candidates.size(); ++i)
      if (candidates[i].tenant > last) {
        chosen = i;
        break;
      }
    last = candidates[chosen].tenant;
    return chosen;
  }

private:
  std::vector<int> last_;
};

/// The highest priority first, the oldest request among equals.
class Priority final : public SchedulingPolicy {
public:
  size_t pick(int, std::span<const Candidate> candidates) override {
    size_t best = 0;
    for (size_t i = 1; i < candidates.size(); ++i)
      if (std::tuple(-candidates[i].priority, candidates[i].arrival, candidates[i].request) <
          std::tuple(-candidates[best].priority, candidates[best].arrival, candidates[best].request))
        best = i;
    return best;
  }
};

const bool kPartitioned = Placements::add<Partitioned>("partitioned");
const bool kShared = Placements::add<Shared>("shared");
const bool kFifo = SchedulingPolicies::add<Fifo>("fifo");
const bool kRoundRobin = SchedulingPolicies::add<RoundRobin>("round_robin");
const bool kPriority = SchedulingPolicies::add<Priority>("priority");

} // namespace
ResolvedPlacement resolvePlacement(const Scenario &scenario, const PlacementSpec &spec) {
  ResolvedPlacement resolved;
  const std::unique_ptr<Placement> place = makeNamed<Placements>(spec.where, "placement", spec.name);
  resolved.cores = place->coresOf(scenario, spec);
  resolved.shared = place->shared();
  if (!resolved.shared && !spec.policy.empty())
    throw core::InputError(spec.where + ": placement '" + spec.name +
                           "' gives each core one tenant: a policy has nothing to choose");
  // Without sharing any policy gives the same order; fifo is the default.
  resolved.policyName = spec.policy.empty() ? "fifo" : spec.policy;
  resolved.policy = makeNamed<SchedulingPolicies>(spec.where, "policy", resolved.policyName);
  return resolved;
}

} // namespace npusim::serving
