// Scenario files: what they say reaches the simulation, and every mistake is
// an error naming the file and line.
#include "core/error.h"
#include "serving/scenario.h"
#include "serving/serving.h"

#include <gtest/gtest.h>

namespace npusim::serving {
namespace {

std::string scenarioErrorOf(const std::string &text) {
  try {
    parseScenario(text, "/tmp/s.yaml");
  } catch (const core::InputError &error) {
    return error.what();
  }
  return "";
}

const char *const kTenants = R"(
tenants:
  - name: a
    bundle: ../a
    priority: 3
    requests: {arrival: poisson, rate_per_s: 100, seed: 5, count: 7}
  - name: b
    bundle: /abs/b
    requests: {arrival: closed_loop, outstanding: 2, count: 9, think_us: 1.5}
)";

TEST(Scenario, ReadsEveryKey) {
  const Scenario scenario =
      parseScenario(std::string("machine: {base: tpuv3-like, num_cores: 2}\n") + kTenants +
                        "placement:\n  - {name: partitioned, cores: {a: [1], b: [0]}}\n"
                        "  - {name: shared, policy: priority}\n"
                        "values: true\ncore_queue_depth: 3\n",
                    "/tmp/x/s.yaml");
  EXPECT_EQ(scenario.machine.numCores, 2);
  EXPECT_EQ(scenario.machine.lanes, 128); // from the tpuv3-like base
  ASSERT_EQ(scenario.tenants.size(), 2u);
  EXPECT_EQ(scenario.tenants[0].bundle, "/tmp/a"); // relative to the scenario's folder
  EXPECT_EQ(scenario.tenants[1].bundle, "/abs/b");
  EXPECT_EQ(scenario.tenants[0].priority, 3);
  EXPECT_EQ(scenario.tenants[0].requests.arrival, "poisson");
  EXPECT_EQ(scenario.tenants[0].requests.ratePerSecond, 100.0);
  EXPECT_EQ(scenario.tenants[0].requests.seed, 5u);
  EXPECT_EQ(scenario.tenants[0].requests.count, 7);
  EXPECT_EQ(scenario.tenants[1].requests.outstanding, 2);
  EXPECT_EQ(scenario.tenants[1].requests.thinkUs, 1.5);
  ASSERT_EQ(scenario.placements.size(), 2u);
  EXPECT_EQ(scenario.placements[0].cores.at("a"), std::vector<int>{1});
  EXPECT_EQ(scenario.placements[1].name, "shared");
  EXPECT_EQ(scenario.placements[1].policy, "priority");
  EXPECT_TRUE(scenario.values);
  EXPECT_EQ(scenario.coreQueueDepth, 3);
}

TEST(Scenario, MistakesNameFileAndLine) {
  EXPECT_EQ(scenarioErrorOf("machine: tpuv3-like\ntenants: []\n"),
            "/tmp/s.yaml:2: tenants must be a list of at least one tenant");
  EXPECT_NE(scenarioErrorOf(std::string("machine: tpuv3-like\nplacment: shared\n") + kTenants)
                .find("/tmp/s.yaml:2: scenario: unknown key 'placment'"),
            std::string::npos);
  EXPECT_NE(scenarioErrorOf("machine: tpuv3-like\ntenants:\n  - {name: a, bundle: b, requests: {arrival: fixed, "
                    "times_us: [x]}}\n")
                .find("/tmp/s.yaml:3: key 'times_us': 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(
      scenarioErrorOf("machine: {base: tpuv3-like, num_corez: 2}\ntenants:\n  - {name: a, bundle: b, requests: {}}\n")
          .find("num_corez"),
      std::string::npos);
  // The machine's keys are checked by the config module, at their own lines.
  EXPECT_NE(
      scenarioErrorOf(
          "machine:\n  base: tpuv3-like\n  num_cores: -2\ntenants:\n  - {name: a, bundle: b, requests: {}}\n")
          .find("/tmp/s.yaml:3: key 'num_cores': -2 is out of range"),
      std::string::npos);
  EXPECT_NE(scenarioErrorOf("machine: tpuv3-like\ntenants:\n  - {name: a, bundle: b}\n")
                .find("/tmp/s.yaml:3: a tenant needs"),
            std::string::npos);
}

TEST(Scenario, StreamsAndPlacementsAreCheckedBeforeAnyBundleRuns) {
  const std::string machine = "machine: {base: tpuv3-like, num_cores: 2}\ntenants:\n";
  const std::string fixed = "  - {name: a, bundle: b, requests: {arrival: fixed, times_us: [1]}}\n";
  EXPECT_EQ(scenarioErrorOf(machine + fixed + "placement: {name: partitioned, cores: {a: [0, 5]}}\n"),
            "/tmp/s.yaml:4: cores: a: core 5 of a machine with 2 cores");
  EXPECT_EQ(scenarioErrorOf(machine +
                    "  - {name: a, bundle: b, requests: {arrival: poisson, rate_per_s: 10, times_us: [1], "
                    "count: 1}}\n"),
            "/tmp/s.yaml:3: key 'times_us' does not apply to arrival 'poisson'");
  EXPECT_NE(scenarioErrorOf(machine + "  - {name: a, bundle: b, requests: {arrival: bursty}}\n")
                .find("/tmp/s.yaml:3: key 'arrival': 'bursty' is not registered (registered: closed_loop, "
                      "fixed, poisson)"),
            std::string::npos);
  EXPECT_EQ(
      scenarioErrorOf(machine + fixed + "placement:\n  - shared\n  - {name: partitioned, policy: fifo}\n"),
      "/tmp/s.yaml:6: placement 'partitioned' gives each core one tenant: a policy has nothing to choose");
  EXPECT_NE(scenarioErrorOf(machine + fixed + "placement: {name: shared, policy: lottery}\n")
                .find("/tmp/s.yaml:4: key 'policy': 'lottery' is not registered (registered: fifo, priority, "
                      "round_robin)"),
            std::string::npos);
  EXPECT_EQ(scenarioErrorOf(machine + fixed + "placement: []\n"),
            "/tmp/s.yaml:4: placement: the list is empty (leave the key out for the default, partitioned)");

  // simulate() checks a placement built elsewhere the same way.
  const Scenario scenario = parseScenario(machine + fixed, "/tmp/s.yaml");
  Workload empty;
  try {
    simulate(scenario, PlacementSpec{"partitioned", {}, "fifo", "/tmp/s.yaml:8"}, {&empty});
    ADD_FAILURE() << "no error";
  } catch (const core::InputError &error) {
    EXPECT_EQ(
        std::string(error.what()),
        "/tmp/s.yaml:8: placement 'partitioned' gives each core one tenant: a policy has nothing to choose");
  }
}

/// A scenario whose request stream is `stream` (one key a line, each at
/// four spaces), after `padding` blank lines and comments.
std::string streamScenario(int padding, const std::string &stream) {
  std::string text = "machine: tpuv3-like\ntenants:\n  - name: a\n    bundle: b\n    requests:\n";
  for (int i = 0; i < padding; ++i)
    text += i % 2 == 0 ? "\n" : "      # a comment\n";
  return text + stream;
}

TEST(Scenario, CountsAndTimesAreRangeCheckedOnTheirLines) {
  for (int padding = 0; padding < 4; ++padding) {
    const std::string at = "/tmp/s.yaml:" + std::to_string(6 + padding) + ": ";
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      count: 100000000\n      arrival: poisson\n"
                                              "      rate_per_s: 10\n")),
              at + "key 'count': 100000000 is out of range (1 .. 1000000)");
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      outstanding: 0\n      arrival: closed_loop\n"
                                              "      count: 3\n")),
              at + "key 'outstanding': 0 is out of range (1 .. 1000000)");
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      times_us: [0, 1e300]\n      arrival: fixed\n")),
              at + "key 'times_us': 1e+300 us is out of range (0 .. 1e+10 us of simulated time)");
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      times_us: [-1]\n      arrival: fixed\n")),
              at + "key 'times_us': -1 us is out of range (0 .. 1e+10 us of simulated time)");
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      think_us: 1e300\n      arrival: closed_loop\n"
                                              "      count: 3\n      outstanding: 1\n")),
              at + "key 'think_us': 1e+300 us is out of range (0 .. 1e+10 us of simulated time)");
    // 3 arrivals 1e306 us apart: the first is past the limit.
    EXPECT_EQ(scenarioErrorOf(streamScenario(padding, "      rate_per_s: 1e-300\n      arrival: poisson\n"
                                              "      count: 3\n")),
              at + "key 'rate_per_s': at 1e-300 per second, arrival 1 of 3 comes after 1e+10 us of simulated "
                   "time; raise the rate or lower count");
  }
  // The limits themselves are accepted.
  EXPECT_EQ(scenarioErrorOf(streamScenario(0, "      arrival: fixed\n      times_us: [0, 1e10]\n")), "");
  EXPECT_EQ(
      scenarioErrorOf(streamScenario(0, "      arrival: poisson\n      rate_per_s: 1000\n      count: 1000000\n")),
      "");
}

} // namespace
} // namespace npusim::serving
