// Reading an LLM serving scenario (docs/serving.md, "LLM serving"): the model's
// prefill and decode bundles, the machine, the request trace and the
// scheduler. Every key is checked; an error names the file, line and key.
#include "config/yaml_input.h"
#include "core/error.h"
#include "core/text_input.h"
#include "serving/llm.h"
#include "serving/policies.h"
#include "serving/scenario_reader_internal.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

namespace npusim::serving {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxTokens = 1'000'000;

using Reader = detail::ScenarioReader;
using detail::readMachine;

/// [low, high] of `key`: integers in [1, kMaxTokens] with low <= high.
std::pair<int64_t, int64_t> tokenRange(const Reader &reader, const YAML::Node &node, const std::string &key) {
  if (!node.IsSequence() || node.size() != 2)
    reader.fail(node, "key '" + key + "' must be [low, high] (a uniform range of tokens)");
  const int64_t low = reader.integerIn(node[0], key, 1, kMaxTokens),
                high = reader.integerIn(node[1], key, 1, kMaxTokens);
  if (low > high)
    reader.fail(node, "key '" + key + "': low " + std::to_string(low) + " is above high " + std::to_string(high));
  return {low, high};
}

std::string resolve(const fs::path &folder, const std::string &name) {
  const fs::path path(name);
  return (path.is_absolute() ? path : folder / path).lexically_normal().string();
}

LlmBundleSpec readBundle(const Reader &reader, const YAML::Node &node, const fs::path &folder, bool decode) {
  const std::string what = decode ? "decode" : "prefill";
  reader.expectMap(node, what);
  LlmBundleSpec spec;
  spec.where = reader.where(node);
  const auto keys = decode ? reader.keyNodes(node, {"bundle", "batch", "past"}, what)
                           : reader.keyNodes(node, {"bundle", "tokens"}, what);
  for (const auto &[key, keyNode] : keys) {
    const YAML::Node value = node[key];
    if (key == "bundle")
      spec.bundle = resolve(folder, reader.text(value, key));
    else if (key == "tokens")
      spec.tokens = reader.text(value, key);
    else if (key == "batch")
      spec.batch = reader.text(value, key);
    else
      spec.past = reader.text(value, key);
  }
  if (spec.bundle.empty() || (decode ? spec.batch.empty() && spec.past.empty() : spec.tokens.empty()))
    reader.fail(node, decode ? "decode needs bundle and batch or past (its size names)"
                             : "prefill needs bundle and tokens (the size name of a chunk's tokens)");
  return spec;
}

LlmTraceSpec readTrace(const Reader &reader, const YAML::Node &node, const fs::path &folder) {
  reader.expectMap(node, "requests");
  LlmTraceSpec spec;
  spec.where = reader.where(node);
  std::set<std::string> given;
  for (const auto &[key, keyNode] :
       reader.keyNodes(node, {"arrival", "rate_per_s", "seed", "count", "prompt_tokens", "output_tokens", "file"},
                   "requests")) {
    const YAML::Node value = node[key];
    given.insert(key);
    if (key == "arrival") {
      spec.arrival = reader.text(value, key);
      if (spec.arrival != "poisson" && spec.arrival != "csv")
        reader.fail(value, "key 'arrival': '" + spec.arrival + "' is not an LLM trace (poisson, csv)");
    } else if (key == "rate_per_s") {
      spec.ratePerSecond = reader.numberIn(value, key, kMinLlmRatePerSecond, kMaxLlmRatePerSecond);
    } else if (key == "seed") {
      spec.seed = static_cast<uint64_t>(reader.integerIn(value, key, 0, INT64_MAX));
    } else if (key == "count") {
      spec.count = reader.integerIn(value, key, 1, kMaxRequests);
    } else if (key == "prompt_tokens") {
      std::tie(spec.promptMin, spec.promptMax) = tokenRange(reader, value, key);
    } else if (key == "output_tokens") {
      std::tie(spec.outputMin, spec.outputMax) = tokenRange(reader, value, key);
    } else {
      spec.file = resolve(folder, reader.text(value, key));
    }
  }
  const std::set<std::string> needs = spec.arrival == "poisson"
                                          ? std::set<std::string>{"rate_per_s", "count", "prompt_tokens",
                                                                  "output_tokens"}
                                          : std::set<std::string>{"file"};
  const std::set<std::string> allowed = spec.arrival == "poisson"
                                            ? std::set<std::string>{"arrival", "rate_per_s", "seed", "count",
                                                                    "prompt_tokens", "output_tokens"}
                                            : std::set<std::string>{"arrival", "file"};
  for (const auto &entry : node)
    if (allowed.count(entry.first.Scalar()) == 0)
      reader.fail(entry.first, "key '" + entry.first.Scalar() + "' does not apply to arrival '" + spec.arrival + "'");
  for (const std::string &key : needs)
    if (given.count(key) == 0)
      reader.fail(node, "requests: arrival '" + spec.arrival + "' needs key '" + key + "'");
  return spec;
}

LlmSchedulerSpec readScheduler(const Reader &reader, const YAML::Node &node) {
  reader.expectMap(node, "scheduler");
  LlmSchedulerSpec spec;
  spec.where = reader.where(node);
  for (const auto &[key, keyNode] :
       reader.keyNodes(node, {"max_batch", "token_budget", "block_tokens", "kv_blocks", "past_bucket"}, "scheduler")) {
    const YAML::Node value = node[key];
    if (key == "max_batch")
      spec.maxBatch = reader.integerIn(value, key, 1, 65536);
    else if (key == "token_budget")
      spec.tokenBudget = reader.integerIn(value, key, 1, kMaxTokens);
    else if (key == "block_tokens")
      spec.blockTokens = reader.integerIn(value, key, 1, 65536);
    else if (key == "kv_blocks")
      spec.kvBlocks = reader.integerIn(value, key, 1, int64_t{1} << 40);
    else
      spec.pastBucket = reader.integerIn(value, key, 1, kMaxTokens);
  }
  if (spec.tokenBudget < spec.maxBatch)
    reader.fail(node, "token_budget " + std::to_string(spec.tokenBudget) + " is below max_batch " +
                          std::to_string(spec.maxBatch) + ": a full batch of decodes would not fit one iteration");
  return spec;
}

} // namespace

bool isLlmScenario(const std::string &path) {
  const YAML::Node root = config::parseYamlDocument(core::readTextFile(path, "scenario"), path);
  return root.IsMap() && root["llm"];
}

LlmScenario parseLlmScenario(const std::string &yamlText, const std::string &path) {
  const Reader reader(path);
  const YAML::Node root = config::parseYamlDocument(yamlText, path);
  if (!root.IsMap())
    throw core::InputError(path + ": a scenario is a map of keys (machine, llm, requests, scheduler)");
  const fs::path folder = fs::path(path).parent_path();
  LlmScenario scenario;
  scenario.path = path;
  bool machine = false, llm = false, requests = false;
  for (const auto &[key, keyNode] : reader.keyNodes(root, {"machine", "llm", "requests", "scheduler"}, "scenario")) {
    const YAML::Node value = root[key];
    if (key == "machine") {
      scenario.machine = readMachine(reader, value, folder);
      machine = true;
    } else if (key == "llm") {
      reader.expectMap(value, "llm");
      bool prefill = false, decode = false;
      for (const auto &[k, kNode] :
           reader.keyNodes(value, {"prefill", "decode", "weights_bytes", "kv_bytes_per_token"}, "llm")) {
        const YAML::Node v = value[k];
        if (k == "prefill") {
          scenario.prefill = readBundle(reader, v, folder, false);
          prefill = true;
        } else if (k == "decode") {
          scenario.decode = readBundle(reader, v, folder, true);
          decode = true;
        } else if (k == "weights_bytes") {
          scenario.weightsBytes = reader.numberIn(v, k, 0, 1e18);
        } else {
          scenario.kvBytesPerToken = reader.numberIn(v, k, 1e-3, 1e12);
        }
      }
      if (!prefill || !decode)
        reader.fail(value, "llm needs prefill and decode");
      llm = true;
    } else if (key == "requests") {
      scenario.trace = readTrace(reader, value, folder);
      requests = true;
    } else {
      scenario.scheduler = readScheduler(reader, value);
    }
  }
  if (!machine || !llm || !requests)
    throw core::InputError(path + ": an LLM scenario needs machine, llm and requests");
  if (scenario.decode.past.empty() && !scenario.kvBytesPerToken)
    throw core::InputError(scenario.decode.where +
                           ": decode names no past size: give llm.kv_bytes_per_token, the KV cache's bytes per token");
  if (scenario.scheduler.where.empty())
    scenario.scheduler.where = path;
  return scenario;
}

LlmScenario loadLlmScenario(const std::string &path) {
  return parseLlmScenario(core::readTextFile(path, "scenario"), path);
}

std::vector<LlmRequest> makeLlmRequests(const LlmTraceSpec &trace) {
  std::vector<LlmRequest> requests;
  if (trace.arrival == "poisson") {
    // One mt19937_64(seed): per request, its gap (inversion of a 53-bit
    // uniform), then its prompt and output lengths (uniform in the ranges, by
    // the 53-bit uniform times the range's size): the same on every library.
    std::mt19937_64 random(trace.seed);
    auto uniform = [&random] { return static_cast<double>(random() >> 11) * 0x1.0p-53; };
    auto pick = [&uniform](int64_t low, int64_t high) {
      const auto n = static_cast<double>(high - low + 1);
      return std::min(high, low + static_cast<int64_t>(std::floor(uniform() * n)));
    };
    double us = 0.0;
    for (int64_t i = 0; i < trace.count; ++i) {
      us += -std::log1p(-uniform()) / trace.ratePerSecond * 1.0e6;
      if (us > kMaxArrivalUs)
        throw core::InputError(trace.where + ": key 'rate_per_s': arrival " + std::to_string(i + 1) +
                               " comes after 1e+10 us of simulated time");
      LlmRequest request;
      request.arrival = psOfUs(us);
      request.promptTokens = pick(trace.promptMin, trace.promptMax);
      request.outputTokens = pick(trace.outputMin, trace.outputMax);
      requests.push_back(request);
    }
    return requests;
  }
  const std::string text = core::readTextFile(trace.file, "request trace");
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#')
      continue;
    const std::string at = trace.file + ":" + std::to_string(number);
    if (number == 1 && line.find("arrival") != std::string::npos) {
      if (line.find("arrival_us") == std::string::npos || line.find("prompt_tokens") == std::string::npos ||
          line.find("output_tokens") == std::string::npos)
        throw core::InputError(at + ": the header must be arrival_us,prompt_tokens,output_tokens");
      continue;
    }
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
      fields.push_back(cell);
    if (fields.size() != 3)
      throw core::InputError(at + ": expected 3 fields (arrival_us, prompt_tokens, output_tokens), got " +
                             std::to_string(fields.size()));
    LlmRequest request;
    try {
      size_t used = 0;
      const double us = std::stod(fields[0], &used);
      if (!(us >= 0.0 && us <= kMaxArrivalUs))
        throw core::InputError(at + ": arrival_us " + fields[0] + " is out of range (0 .. 1e10)");
      request.arrival = psOfUs(us);
      request.promptTokens = std::stoll(fields[1]);
      request.outputTokens = std::stoll(fields[2]);
    } catch (const core::InputError &) {
      throw;
    } catch (const std::exception &) {
      throw core::InputError(at + ": '" + line + "' is not arrival_us,prompt_tokens,output_tokens (numbers)");
    }
    if (request.promptTokens < 1 || request.promptTokens > kMaxTokens || request.outputTokens < 1 ||
        request.outputTokens > kMaxTokens)
      throw core::InputError(at + ": prompt_tokens and output_tokens must be 1 .. 1000000");
    requests.push_back(request);
    if (static_cast<int64_t>(requests.size()) > kMaxRequests)
      throw core::InputError(at + ": more than 1000000 requests");
  }
  if (requests.empty())
    throw core::InputError(trace.file + ": the request trace has no request");
  std::stable_sort(requests.begin(), requests.end(),
                   [](const LlmRequest &a, const LlmRequest &b) { return a.arrival < b.arrival; });
  return requests;
}

} // namespace npusim::serving
