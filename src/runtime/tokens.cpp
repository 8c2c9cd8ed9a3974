// Recognising a language model by its shapes, not its name: token ids in,
// logits over the ids' vocabulary out, one row per token; or a training step
// of one: a scalar loss and an updated table of a row per id out.
#include "runtime/tokens.h"

#include <algorithm>

namespace npusim::runtime {

std::optional<LanguageModelTokens> languageModelTokens(const Bundle &bundle, std::string *why) {
  const auto missing = [why](std::string reason) -> std::optional<LanguageModelTokens> {
    if (why)
      *why = std::move(reason);
    return std::nullopt;
  };
  const auto ids = std::find_if(bundle.inputs.begin(), bundle.inputs.end(),
                                [](const Input &input) { return input.name == "input_ids"; });
  if (ids == bundle.inputs.end())
    return std::nullopt;
  const auto storage = std::find_if(bundle.storages.begin(), bundle.storages.end(),
                                    [&](const Storage &s) { return s.id == ids->tensor.storage; });
  if (storage == bundle.storages.end() || !core::isInteger(storage->dtype))
    return missing("input_ids is not an integer tensor");
  const std::vector<int64_t> &shape = ids->tensor.shape;
  if (shape.size() != 2 || shape[0] < 1 || shape[1] < 1)
    return missing("input_ids is not [batch, sequence]");
  // The generator draws the ids from [low, high): high is the vocabulary.
  if (ids->init.kind != InitKind::Randint || ids->init.intHigh < 1)
    return missing("input_ids is not drawn by randint from a vocabulary");
  LanguageModelTokens tokens{shape[0], shape[1], ids->init.intHigh, {}};
  const std::vector<int64_t> logits = {tokens.batch, tokens.sequence, tokens.vocabulary};
  const auto output = std::find_if(bundle.outputs.begin(), bundle.outputs.end(),
                                   [&](const Output &o) { return o.tensor.shape == logits; });
  if (output != bundle.outputs.end()) {
    tokens.output = output->name;
    return tokens;
  }
  // A training step shows no logits: its outputs are a scalar loss and the
  // updated parameters, among them a table with one row per id of the
  // vocabulary (the token embedding) that only a model reading these ids
  // as tokens has.
  const bool loss = std::any_of(bundle.outputs.begin(), bundle.outputs.end(),
                                [](const Output &o) { return o.tensor.shape.empty(); });
  const auto table = std::find_if(bundle.outputs.begin(), bundle.outputs.end(), [&](const Output &o) {
    return o.tensor.shape.size() == 2 && o.tensor.shape[0] == tokens.vocabulary && o.tensor.shape[1] >= 1;
  });
  if (!loss || table == bundle.outputs.end())
    return missing("no output of shape [batch, sequence, vocabulary] (logits over the ids' vocabulary), "
                   "nor a training step's scalar loss beside an updated [vocabulary, width] table");
  tokens.output = table->name;
  tokens.trainingStep = true;
  return tokens;
}

} // namespace npusim::runtime
