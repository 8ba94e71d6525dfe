// record::CausalRule: which sentences of a run's prose state a cause.
#include <catch2/catch.hpp>

#include "error/error.hpp"
#include "record/causal_sentences.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {
record::CausalRule rule(const char *section) { return record::CausalRule::from_json(json::parse(section), "test"); }
} // namespace

TEST_CASE("a causal marker is a word of prose, not a name of code", "[record][issue25]") {
  auto r = rule(R"({"markers": ["reduce", "keeps"], "min_chars": 10})");
  CHECK(r.is_causal("Two rows per program reduce the partial last wave."));
  CHECK_FALSE(r.is_causal("Tree reduction with tl.reduce kept on the warm harness."));
  CHECK_FALSE(r.is_causal("Called reduce(x) on the combined partials."));
}

TEST_CASE("a sentence of the run's bookkeeping is no cause", "[record][issue25]") {
  auto r = rule(R"({"markers": ["keeps"], "not_causal": ["reverted", "tried earlier"], "min_chars": 10})");
  CHECK(r.is_causal("evict_first keeps the streaming row out of L1."));
  CHECK_FALSE(r.is_causal("Note: the wider variant tried earlier was reverted; this keeps the smaller setting."));
  // Without the key, as an override written before it existed.
  CHECK(rule(R"({"markers": ["keeps"], "min_chars": 10})")
            .is_causal("Note: the wider variant tried earlier was reverted; this keeps the smaller setting."));
  CHECK_THROWS_AS(rule(R"({"markers": ["keeps"], "not_causal": "reverted", "min_chars": 10})"), Error);
}
