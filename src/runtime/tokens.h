#pragma once
// The tokens one run of a language-model bundle processes, read from the
// bundle's recorded shapes (docs/energy.md, "Energy per token"): what energy
// per token divides by.
#include "runtime/bundle.h"

#include <cstdint>
#include <optional>
#include <string>

namespace npusim::runtime {

/// A language model's `input_ids` of shape [batch, sequence] drawn from
/// [low, vocabulary), and an output of shape [batch, sequence, vocabulary].
struct LanguageModelTokens {
  int64_t batch = 0, sequence = 0, vocabulary = 0;
  std::string output; // the output holding the logits (a training step: the updated token table)
  /// A training step of a language model: its tokens are the ones it trains
  /// on, and its outputs are the loss and the updated parameters.
  bool trainingStep = false;
  /// batch x sequence: a prefill's tokens processed; a decode step's
  /// (sequence 1) tokens generated.
  int64_t tokens() const { return batch * sequence; }
};

/// The bundle's tokens when it is a language model, or a training step of
/// one (docs/energy.md, "Energy per token"); otherwise nullopt, and
/// `why` (when given) says which condition of docs/energy.md it misses; `why`
/// stays empty for a bundle without an `input_ids` input, which nothing
/// makes resemble a language model.
std::optional<LanguageModelTokens> languageModelTokens(const Bundle &bundle, std::string *why = nullptr);

} // namespace npusim::runtime
