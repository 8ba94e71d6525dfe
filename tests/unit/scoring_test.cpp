#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include "admission_fixtures.hpp"
#include "error_kind.hpp"
#include "scoring/score_store.hpp"
#include "scoring/staging_index.hpp"
#include "scoring/worth_model.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

TEST_CASE("the worth model reproduces every score and tier of the real store", "[scoring][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  fs::path root = wiki / "kernel_wiki";
  REQUIRE(io::is_regular_file(root / "records" / "index.json"));
  auto index = json::parse_file(root / "records" / "index.json");
  const auto *entries = index.get("records").as_array();
  REQUIRE(entries);
  REQUIRE(entries->size() == 847);
  std::vector<std::string> differences;
  for (const auto &e : *entries) {
    auto rec = json::parse_file(root / e.string_or("path"));
    auto rank = scoring::rank_record(rec);
    if (e.get("worth_score").as_number() != std::optional<double>(rank.score) || e.string_or("tier") != rank.tier)
      differences.push_back(e.string_or("id") + ": index " + e.get("worth_score").python_str() + "/" +
                            e.string_or("tier") + ", model " + std::to_string(rank.score) + "/" + rank.tier);
  }
  INFO((differences.empty() ? std::string() : differences.front()));
  CHECK(differences.empty());
}

TEST_CASE("worth model terms by hand", "[scoring]") {
  using scoring::prior_score;
  auto obj = [](const char *text) { return json::parse(text); };
  CHECK(prior_score(obj("{}"), "doc") == Approx(0.40));
  CHECK(prior_score(obj("{}"), "strategy") == Approx(0.30));
  CHECK(prior_score(obj("{}"), "technique-card") == Approx(0.55));
  // kept 0.85: 0.55 + 0.30 * clamp(0.35 / 0.35) = 0.85
  CHECK(prior_score(obj(R"({"corpus_kept_ratio": 0.85})"), "technique-card") == Approx(0.85));
  // strategy: step gain 100% → 1.0 (weight 1.5), kept 0.8 → 1.0 (weight 1) → 1.0
  CHECK(prior_score(obj(R"({"step_gain_pct": 100, "corpus_kept_ratio": 0.8})"), "strategy") == Approx(1.0));
  // anti-strategy: 0.45 + 0.30 * ln 10 / ln 10 = 0.75
  CHECK(prior_score(obj(R"({"rediscovered": 10})"), "anti-strategy") == Approx(0.75));
  // reference-kernel: 0.45 + 0.15 for a 300x speed-up
  CHECK(prior_score(obj(R"({"best_speedup_x": 300})"), "reference-kernel") == Approx(0.60));
  // feedback: 3 good of 4, base 0.5 → posterior 4/6, signed (0.6667-0.5)/0.5, confidence 0.5
  auto fb = scoring::feedback(obj(R"({"verified_effective": 3, "verified_ineffective": 1})"), std::nullopt);
  CHECK(fb.signed_signal == Approx(1.0 / 3.0));
  CHECK(fb.confidence == Approx(0.5));
  CHECK(scoring::reference_rate(obj(R"({"corpus_kept_ratio": 0.3})"), "anti-strategy") == Approx(0.7));
}

TEST_CASE("degenerate inputs are dropped before scoring", "[scoring]") {
  auto rec = strategy_record("nvidia.b200.triton.toy-op.x-s01");
  // A null step gain must not read as "measured 0 %", a lone run must not add a weighted zero.
  rec = with_path(rec, {"worth", "track", "prior"}, json::parse(R"({"step_gain_pct": null, "n_independent_runs": 1})"));
  auto r = scoring::rank_record(rec);
  CHECK(r.score == Approx(0.30));
  CHECK(r.tier == "promising");
  rec = with_path(rec, {"worth", "gain", "basis"}, "reported");
  CHECK(scoring::rank_record(rec).tier == "provisional");
  rec = with_path(rec, {"type"}, "anti-strategy");
  CHECK(scoring::rank_record(rec).tier == "cautionary");
  // Decided negative feedback makes even a measured strategy cautionary.
  auto bad = with_path(strategy_record("nvidia.b200.triton.toy-op.y-s01"), {"worth", "track", "counters"},
                       json::parse(R"({"verified_ineffective": 8})"));
  CHECK(scoring::rank_record(bad).tier == "cautionary");
  CHECK(scoring::rank(scoring::inputs_of(bad), 1e9).score == scoring::rank_record(bad).score); // no last_used_ts
}

TEST_CASE("staging index title and search text", "[scoring]") {
  auto rec = strategy_record("nvidia.b200.triton.toy-op.t-s01");
  CHECK(scoring::staging_title(rec) == "Make the toy kernel read rows with wide loads.");
  auto no_goal = with_path(rec, {"payload", "goal"}, "   ");
  CHECK(scoring::staging_title(no_goal) == "nvidia.b200.triton.toy-op.t-s01");
  auto text = scoring::staging_search_text(rec, scoring::staging_title(rec));
  CHECK(text.starts_with("nvidia.b200.triton.toy-op.t-s01 make the toy kernel read rows with wide loads. make the"));
  CHECK(text.ends_with("wide-loads row loads are narrow"));
  auto long_goal = with_path(rec, {"payload", "goal"}, std::string(3000, 'x'));
  CHECK(scoring::staging_search_text(long_goal, "t").size() == 2000);
}

TEST_CASE("otm-score rewrites changed ranks and writes the staging index", "[scoring]") {
  TempDir tmp;
  fs::path staging = tmp.path / "staging";
  auto a = strategy_record("nvidia.b200.triton.toy-op.a-s01");
  auto b = with_path(strategy_record("nvidia.b200.triton.toy-op.b-s01"), {"worth", "rank"},
                     json::parse(R"({"score": 0.99, "tier": "proven"})"));
  auto ra = scoring::rank_record(a);
  a = with_path(a, {"worth", "rank"}, json::parse(R"({"score": 0.0, "tier": "promising"})"));
  a = with_path(a, {"worth", "rank", "score"}, ra.score);
  for (const auto &r : {a, b})
    io::write_file_atomic(staging / "records" / record::record_relpath(r), json::to_pretty(r));
  fs::path pa = staging / "records" / record::record_relpath(a), pb = staging / "records" / record::record_relpath(b);
  std::string a_text = io::read_file(pa), b_text = io::read_file(pb);

  scoring::ScoreOptions dry{staging, true, "opt-trace-0.1"};
  auto d = scoring::score_staging(dry);
  CHECK(d.records == 2);
  CHECK(d.rescored == 1);
  CHECK_FALSE(fs::exists(staging / "records" / "index.json"));
  CHECK(io::read_file(pb) == b_text);

  auto s = scoring::score_staging({staging, false, "opt-trace-0.1"});
  CHECK(s.rescored == 1);
  CHECK(io::read_file(pa) == a_text); // unchanged score: not rewritten
  auto nb = json::parse_file(pb);
  CHECK(nb.get("worth").get("rank").get("score").as_number() == scoring::rank_record(b).score);
  CHECK(nb.get("worth").get("rank").string_or("builder_version") == "opt-trace-0.1");
  CHECK(nb.get("worth").get("rank").string_or("formula") == scoring::kFormula);
  auto index = json::parse_file(staging / "records" / "index.json");
  CHECK(index.get("count").as_int() == 2);
  CHECK(index.get("records")[1].string_or("path") ==
        "records/strategy/nvidia/blackwell/triton/toy-op/nvidia.b200.triton.toy-op.b-s01.json");
  CHECK(store_disagreements(staging).empty());
  // Idempotent: a second run changes nothing.
  std::string idx_text = io::read_file(staging / "records" / "index.json");
  CHECK(scoring::score_staging({staging, false, "opt-trace-0.1"}).rescored == 0);
  CHECK(io::read_file(staging / "records" / "index.json") == idx_text);
}

TEST_CASE("otm-score refuses an empty store and names broken files", "[scoring]") {
  TempDir tmp;
  CHECK_THROWS_MATCHES(scoring::score_staging({tmp.path, false, "v"}), Error,
                       test::of_kind(ErrorKind::NegativeVerdict));
  io::write_file_atomic(tmp.path / "records" / "strategy" / "bad.json", "{nope");
  io::write_file_atomic(tmp.path / "records" / "strategy" / "x.json",
                        json::to_pretty(strategy_record("nvidia.b200.triton.toy-op.x-s01")));
  CHECK_THROWS_WITH(scoring::score_staging({tmp.path, false, "v"}), Catch::Contains("bad.json"));
  CHECK_FALSE(fs::exists(tmp.path / "records" / "index.json"));
  CHECK(run({bin("otm-score"), "--store", tmp.path.string()}) == 2);
  TempDir empty;
  CHECK(run({bin("otm-score"), "--store", empty.path.string()}) == 1);
}
