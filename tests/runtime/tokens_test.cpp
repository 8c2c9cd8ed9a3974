// Which bundles are language models, and their tokens, from the recorded
// shapes (docs/energy.md, "Energy per token"). Expected token counts are the
// input_ids shapes of the committed bundles multiplied by hand.
#include "runtime/loader.h"
#include "runtime/tokens.h"

#include <gtest/gtest.h>

#include <string>

namespace npusim::runtime {
namespace {

const std::string kExamples = std::string(NPUSIM_SOURCE_DIR) + "/examples/";

TEST(LanguageModelTokens, PrefillBundlesCountBatchTimesSequence) {
  struct Case {
    const char *bundle;
    int64_t batch, sequence, vocabulary;
    const char *output;
  };
  // graph.json: input_ids [1, 32] randint [0, 50257), logits [1, 32, 50257], and so on.
  for (const Case &c : {Case{"gpt2", 1, 32, 50257, "logits"}, Case{"llama", 1, 32, 32000, "logits"},
                        Case{"mistral", 1, 32, 512, "logits"}, Case{"moe", 1, 32, 512, "output_0"}}) {
    const Bundle bundle = loadBundle(kExamples + c.bundle);
    std::string why;
    const std::optional<LanguageModelTokens> lm = languageModelTokens(bundle, &why);
    ASSERT_TRUE(lm) << c.bundle << ": " << why;
    EXPECT_EQ(lm->batch, c.batch) << c.bundle;
    EXPECT_EQ(lm->sequence, c.sequence) << c.bundle;
    EXPECT_EQ(lm->vocabulary, c.vocabulary) << c.bundle;
    EXPECT_EQ(lm->tokens(), c.batch * c.sequence) << c.bundle;
    EXPECT_EQ(lm->output, c.output) << c.bundle;
  }
}

TEST(LanguageModelTokens, OtherBundlesAreNotLanguageModelsAndSayWhy) {
  std::string why = "unchanged";
  // No input_ids at all: nothing to explain.
  EXPECT_FALSE(languageModelTokens(loadBundle(kExamples + "resnet18"), &why));
  EXPECT_EQ(why, "unchanged");
  EXPECT_FALSE(languageModelTokens(loadBundle(kExamples + "mlp"), &why));
  EXPECT_EQ(why, "unchanged");
  // Token ids in, but no logits over their vocabulary out: an encoder's hidden
  // states (bert), a tagger's 5 tags over a vocabulary of 64 (lstm_tagger).
  for (const char *bundle : {"bert", "lstm_tagger"}) {
    why.clear();
    EXPECT_FALSE(languageModelTokens(loadBundle(kExamples + bundle), &why)) << bundle;
    EXPECT_NE(why.find("no output of shape [batch, sequence, vocabulary]"), std::string::npos) << bundle << ": " << why;
  }
}

TEST(LanguageModelTokens, TrainingStepsCountTheTokensTheyTrainOn) {
  // graph.json: input_ids [1, 16] randint [0, 512); outputs the scalar loss and
  // the updated parameters, among them the token embedding [512, 64]: 1 x 16
  // tokens trained on per step (a BERT classifier's word embeddings too).
  struct Case {
    const char *bundle, *table;
  };
  for (const Case &c : {Case{"gpt2-train", "updated.transformer.wte.weight"},
                        Case{"llama-train", "updated.model.embed_tokens.weight"},
                        Case{"bert-train-adamw", "updated.embeddings.word_embeddings.weight"}}) {
    std::string why;
    const std::optional<LanguageModelTokens> lm = languageModelTokens(loadBundle(kExamples + c.bundle), &why);
    ASSERT_TRUE(lm) << c.bundle << ": " << why;
    EXPECT_TRUE(lm->trainingStep) << c.bundle;
    EXPECT_EQ(lm->tokens(), 16) << c.bundle;
    EXPECT_EQ(lm->vocabulary, 512) << c.bundle;
    EXPECT_EQ(lm->output, c.table) << c.bundle;
  }
  // Without its loss, or without a table of a row per id, a step's outputs do
  // not show a language model.
  for (const bool dropLoss : {true, false}) {
    Bundle bundle = loadBundle(kExamples + "gpt2-train");
    std::erase_if(bundle.outputs, [&](const Output &o) {
      return dropLoss ? o.tensor.shape.empty() : (o.tensor.shape.size() == 2 && o.tensor.shape[0] == 512);
    });
    std::string why;
    EXPECT_FALSE(languageModelTokens(bundle, &why)) << dropLoss;
    EXPECT_NE(why.find("nor a training step's scalar loss beside an updated [vocabulary, width] table"),
              std::string::npos)
        << why;
  }
  // An inference bundle is not a training step.
  const std::optional<LanguageModelTokens> gpt2 = languageModelTokens(loadBundle(kExamples + "gpt2"));
  ASSERT_TRUE(gpt2);
  EXPECT_FALSE(gpt2->trainingStep);
}

TEST(LanguageModelTokens, ADecodeStepCountsItsBatch) {
  // gpt2's shapes turned into one decode step of batch 4: input_ids [4, 1],
  // logits [4, 1, 50257]: 4 x 1 = 4 tokens generated.
  Bundle bundle = loadBundle(kExamples + "gpt2");
  for (Input &input : bundle.inputs)
    if (input.name == "input_ids")
      input.tensor.shape = {4, 1};
  for (Output &output : bundle.outputs)
    if (output.name == "logits")
      output.tensor.shape = {4, 1, 50257};
  const std::optional<LanguageModelTokens> lm = languageModelTokens(bundle);
  ASSERT_TRUE(lm);
  EXPECT_EQ(lm->tokens(), 4);

  // The same ids drawn uniformly as floats: not token ids.
  Bundle floats = loadBundle(kExamples + "gpt2");
  for (Input &input : floats.inputs)
    if (input.name == "input_ids")
      input.init.kind = InitKind::Uniform;
  std::string why;
  EXPECT_FALSE(languageModelTokens(floats, &why));
  EXPECT_EQ(why, "input_ids is not drawn by randint from a vocabulary");
}

} // namespace
} // namespace npusim::runtime
