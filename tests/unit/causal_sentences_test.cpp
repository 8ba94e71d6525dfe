// record::CausalRule: which sentences of a run's prose state a cause.
#include <catch2/catch.hpp>

#include "config/config.hpp"
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

TEST_CASE("a next-step note is a plan, not the cause of the step that wrote it", "[record][issue25]") {
  // Round 9: "Next: Hide global-load latency by keeping more tiles in
  // flight." became the mechanism of the step that removed the tile loop.
  const auto &config = config::Config::defaults();
  auto r = record::CausalRule::from_json(config.data().get("causal_sentences"), "defaults");
  CHECK_FALSE(r.is_causal("Next: Hide global-load latency by keeping more tiles in flight."));
  CHECK_FALSE(r.is_causal("Next steps: remove one full read of the input row since it is read twice."));
  CHECK(r.is_causal("Keeping more tiles in flight hides the global-load latency of the next row."));
}

TEST_CASE("a body of one field per line is one sentence per field", "[record][issue25]") {
  // Round 12: "Shapes (us): shape-1 3.79->3.70; ... Correctness: PASS ...
  // Rationale: Reduce memory traffic ..." was quoted whole as a mechanism.
  auto r = rule(R"({"markers": ["reduce"], "min_chars": 10})");
  auto s = r.causal_sentences("Stage the row in shared memory. Shapes (us): shape-1 3.79->3.70; shape-2 6.92->6.35\n"
                              "Correctness: PASS (max_abs_err 8.34e-03)\n"
                              "Rationale: Reduce memory traffic and improve bandwidth utilisation.\n"
                              "Next: num_warps=16");
  REQUIRE(s.size() == 1);
  CHECK(s[0] == "Rationale: Reduce memory traffic and improve bandwidth utilisation.");
  // A wrapped line of prose is no field: the sentence runs on.
  auto wrapped = r.causal_sentences("Two rows per program reduce the partial\nlast wave on the long shapes.");
  REQUIRE(wrapped.size() == 1);
  CHECK(wrapped[0] == "Two rows per program reduce the partial last wave on the long shapes.");
}
