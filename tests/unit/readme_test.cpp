#include <catch2/catch.hpp>

#include "admission/merged_marker.hpp"
#include "admission_fixtures.hpp"
#include "error_kind.hpp"
#include "report/readme.hpp"

using namespace otm;
using namespace otm::testing;
namespace fs = std::filesystem;

TEST_CASE("the staging README summarises records, gates, refusals and the live boundary", "[readme]") {
  TempDir tmp;
  fs::path staging = tmp.path / "staging";
  auto a = strategy_record("nvidia.b200.triton.toy-op.a-s01", "k", 12.5);
  auto b = with_path(strategy_record("nvidia.b200.triton.toy-op.b-s01"), {"type"}, "anti-strategy");
  b = with_path(b, {"worth", "rank", "tier"}, "cautionary");
  for (const auto &r : {a, b})
    io::write_file_atomic(staging / "records" / record::record_relpath(r), json::to_pretty(r));
  io::write_file_atomic(
      staging / "reports" / "toy" / "refusals.jsonl",
      R"({"seg_id": "anti-v4-02", "id": "x", "record_type": "anti-strategy", "refused": "established_fact", "why": "no mechanism | none"})"
      "\n"
      R"({"seg_id": "strategy-v5", "id": "y", "record_type": "strategy", "refused": "payload.goal", "why": "[no-fabrication] 87.6 is not in the packet", "gate": "no-fabrication", "by": "otm-draft"})"
      "\n");
  admission::Outcome o;
  o.action = "confirm";
  o.target = "nvidia.b200.triton.seed-op.seed-00-s01";
  admission::mark_merged(staging / "records" / record::record_relpath(a), o, a, {"2026-01-02T03:04:05Z", "x"});
  fs::path ws = tmp.path / "ws";
  io::write_file_atomic(ws / "work" / "meta.json",
                        R"({"meta": {"operator_name": "Toy Op", "operator_slug": "toy-op", "workload_family": "misc",
                        "vendor": "nvidia", "arch": "blackwell", "product": "b200", "arch_basis": "registry",
                        "harness": "toy harness", "n_shapes": 3, "source_repo": "toy-trace",
                        "head_sha": "0123456789abcdef0123"}})");
  io::write_file_atomic(ws / "work" / "versions.jsonl", "{\"version\": \"v0\"}\n{\"version\": \"v1\"}\n");
  io::write_file_atomic(ws / "work" / "segments.jsonl",
                        "{\"seg_id\": \"strategy-v1\", \"record_type\": \"strategy\"}\n");

  report::ReadmeInputs in{staging, ws, std::nullopt, std::nullopt};
  auto r1 = report::make_readme(in);
  auto r2 = report::make_readme(in);
  CHECK(r1.text == r2.text); // deterministic, no clock
  const auto &t = r1.text;
  CHECK_THAT(t, Catch::StartsWith("# Staged optimisation-trace records\n"));
  CHECK_THAT(t, Catch::Contains("| HEAD | 0123456789ab |"));
  CHECK_THAT(t, Catch::Contains("| versions parsed | 2 |"));
  CHECK_THAT(t, Catch::Contains("Segments by type: strategy=1"));
  CHECK_THAT(t, Catch::Contains("Records by type: anti-strategy=1, strategy=1."));
  CHECK_THAT(t, Catch::Contains("| a-s01 | strategy | promising | 0.5 | +12.50% | measured | v3 |"));
  CHECK_THAT(t, Catch::Contains("Tiers: cautionary=1, promising=1."));
  CHECK_THAT(t, Catch::Contains("**Not recorded.**"));
  CHECK_THAT(t, Catch::Contains("| anti-v4-02 | anti-strategy | - | established_fact | no mechanism \\| none |"));
  CHECK_THAT(
      t, Catch::Contains("| strategy-v5 | strategy | no-fabrication | payload.goal | [no-fabrication] 87.6 is not in "
                         "the packet |"));
  CHECK_THAT(t, Catch::Contains("Not yet submitted to the gate (1):\n  * `nvidia.b200.triton.toy-op.b-s01`"));
  CHECK_THAT(t, Catch::Contains(
                    "`nvidia.b200.triton.toy-op.a-s01`: confirm against `nvidia.b200.triton.seed-op.seed-00-s01`"));
  CHECK_THAT(t, !Catch::Contains("every anti-strategy states an established fact"));

  io::write_file_atomic(tmp.path / "gates.txt",
                        "store=x  records=2  packets=2\n\n== store gates\n  schema             PASS         2 records\n"
                        "  index              FAIL (1)     \n      - records/x.json: stale\n\nALL GATES PASS\n");
  in.gate_report = tmp.path / "gates.txt";
  in.generated_at = "2026-01-02";
  auto r3 = report::make_readme(in);
  CHECK_THAT(r3.text, Catch::Contains("**ALL GATES PASS**"));
  CHECK_THAT(r3.text, Catch::Contains("```\n== store gates\n  schema             PASS         2 records\n  index   "));
  CHECK_THAT(r3.text, !Catch::Contains("stale"));
  CHECK_THAT(r3.text, Catch::Contains("every anti-strategy states an established fact"));
  CHECK_THAT(r3.text, Catch::Contains(" at 2026-01-02;"));
}

TEST_CASE("otm-readme refuses when there is nothing to summarise and warns on unreadable records", "[readme]") {
  TempDir tmp;
  CHECK_THROWS_MATCHES(report::make_readme({tmp.path, std::nullopt, std::nullopt, std::nullopt}), Error,
                       test::of_kind(ErrorKind::NegativeVerdict));
  CHECK(run({bin("otm-readme"), "--store", tmp.path.string()}) == 1);
  io::write_file_atomic(tmp.path / "records" / "x" / "bad.json", "[1,");
  io::write_file_atomic(tmp.path / "records" / "x" / "ok.json",
                        json::to_pretty(strategy_record("nvidia.b200.triton.toy-op.ok-s01")));
  auto r = report::make_readme({tmp.path, std::nullopt, std::nullopt, std::nullopt});
  REQUIRE(r.warnings.size() == 1);
  CHECK_THAT(r.warnings[0], Catch::Contains("bad.json"));
  CHECK(run({bin("otm-readme"), "--store", tmp.path.string()}) == 0);
  CHECK(io::read_file(tmp.path / "README.md") == r.text);
}
