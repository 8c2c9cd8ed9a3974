// The request streams: fixed arrival times, Poisson arrivals, closed loop.
#include "core/error.h"
#include "serving/policies.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>

namespace npusim::serving {

TimePs psOfUs(double us) {
  return static_cast<TimePs>(std::llround(us * 1.0e6));
}

namespace {

std::string shortNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

/// Throws naming the first key the stream does not read.
void onlyKeys(const StreamSpec &spec, std::initializer_list<const char *> allowed) {
  const std::set<std::string> known(allowed.begin(), allowed.end());
  for (const std::string &key : spec.keys)
    if (known.count(key) == 0)
      throw core::InputError(spec.where + ": key '" + key + "' does not apply to arrival '" + spec.arrival +
                             "'");
}

void positiveCount(const StreamSpec &spec) {
  if (spec.count <= 0)
    throw core::InputError(spec.where + ": arrival '" + spec.arrival + "' needs count >= 1");
  if (spec.count > kMaxRequests)
    throw core::InputError(spec.at("count") + ": " + std::to_string(spec.count) + " is out of range (1 .. " +
                           std::to_string(kMaxRequests) + ")");
}

/// A time of `key` in [0, kMaxArrivalUs].
void checkTime(const StreamSpec &spec, const std::string &key, double us) {
  if (!std::isfinite(us) || us < 0.0 || us > kMaxArrivalUs) {
    throw core::InputError(spec.at(key) + ": " + shortNumber(us) + " us is out of range (0 .. " +
                           shortNumber(kMaxArrivalUs) + " us of simulated time)");
  }
}

class FixedArrivals final : public RequestStream {
public:
  explicit FixedArrivals(const StreamSpec &spec) {
    onlyKeys(spec, {"times_us"});
    if (spec.timesUs.empty())
      throw core::InputError(spec.where + ": arrival 'fixed' needs times_us (a list of microseconds)");
    if (static_cast<int64_t>(spec.timesUs.size()) > kMaxRequests)
      throw core::InputError(spec.at("times_us") + ": " + std::to_string(spec.timesUs.size()) +
                             " times, more than " + std::to_string(kMaxRequests) + " requests");
    for (double us : spec.timesUs) {
      checkTime(spec, "times_us", us);
      times_.push_back(psOfUs(us));
    }
    std::stable_sort(times_.begin(), times_.end());
  }
  std::vector<TimePs> initialArrivals() override { return times_; }
  std::optional<TimePs> afterCompletion(TimePs) override { return std::nullopt; }

private:
  std::vector<TimePs> times_;
};

/// Exponential gaps by inversion of 53-bit uniforms from mt19937_64, whose
/// sequence the C++ standard fixes: the same seed gives the same arrivals
/// with every standard library (std::exponential_distribution would not).
class PoissonArrivals final : public RequestStream {
public:
  explicit PoissonArrivals(const StreamSpec &spec) {
    onlyKeys(spec, {"rate_per_s", "seed", "count"});
    positiveCount(spec);
    if (!(spec.ratePerSecond > 0.0) || !std::isfinite(spec.ratePerSecond))
      throw core::InputError(spec.where + ": arrival 'poisson' needs rate_per_s > 0");
    std::mt19937_64 random(spec.seed);
    const double meanGapUs = 1.0e6 / spec.ratePerSecond;
    double atUs = 0.0;
    for (int64_t k = 0; k < spec.count; ++k) {
      const double uniform = static_cast<double>(random() >> 11) * 0x1.0p-53; // [0, 1)
      atUs += -std::log1p(-uniform) * meanGapUs;
      if (!(atUs <= kMaxArrivalUs))
        throw core::InputError(spec.at("rate_per_s") + ": at " + shortNumber(spec.ratePerSecond) +
                               " per second, arrival " + std::to_string(k + 1) + " of " +
                               std::to_string(spec.count) + " comes after " + shortNumber(kMaxArrivalUs) +
                               " us of simulated time; raise the rate or lower count");
      times_.push_back(psOfUs(atUs));
    }
  }
  std::vector<TimePs> initialArrivals() override { return times_; }
  std::optional<TimePs> afterCompletion(TimePs) override { return std::nullopt; }

private:
  std::vector<TimePs> times_;
};

/// `outstanding` requests at time 0; each completion sends the next after
/// the think time, until `count` have been sent.
class ClosedLoop final : public RequestStream {
public:
  explicit ClosedLoop(const StreamSpec &spec) : count_(spec.count), thinkPs_(psOfUs(spec.thinkUs)) {
    onlyKeys(spec, {"outstanding", "count", "think_us"});
    positiveCount(spec);
    if (spec.outstanding <= 0)
      throw core::InputError(spec.where + ": arrival 'closed_loop' needs outstanding >= 1");
    if (spec.outstanding > kMaxRequests)
      throw core::InputError(spec.at("outstanding") + ": " + std::to_string(spec.outstanding) +
                             " is out of range (1 .. " + std::to_string(kMaxRequests) + ")");
    checkTime(spec, "think_us", spec.thinkUs);
    sent_ = std::min(spec.outstanding, count_);
    thinkAt_ = spec.at("think_us");
  }
  std::vector<TimePs> initialArrivals() override {
    return std::vector<TimePs>(static_cast<size_t>(sent_), 0);
  }
  std::optional<TimePs> afterCompletion(TimePs now) override {
    if (sent_ >= count_)
      return std::nullopt;
    ++sent_;
    if (now > psOfUs(kMaxArrivalUs) - thinkPs_)
      throw core::InputError(thinkAt_ + ": request " + std::to_string(sent_) + " would arrive after " +
                             shortNumber(kMaxArrivalUs) +
                             " us of "
                             "simulated time; lower think_us or count");
    return now + thinkPs_;
  }

private:
  int64_t count_;
  TimePs thinkPs_;
  int64_t sent_ = 0;
  std::string thinkAt_;
};

const bool kFixed = RequestStreams::add<FixedArrivals>("fixed");
const bool kPoisson = RequestStreams::add<PoissonArrivals>("poisson");
const bool kClosedLoop = RequestStreams::add<ClosedLoop>("closed_loop");

} // namespace
} // namespace npusim::serving
