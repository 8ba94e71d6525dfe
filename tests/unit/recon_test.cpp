#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include "packets_fixture.hpp"
#include "recon/inputs.hpp"
#include "recon/recon.hpp"

using namespace otm;

namespace {

recon::Sources sources(const testing::SyntheticTrace &t) {
  recon::Sources s;
  s.ladder = (t.workspace / "work" / "ladder.jsonl").string();
  s.meta = t.workspace / "work" / "meta.json";
  s.profiles = t.workspace / "work" / "profiles.jsonl";
  s.trace = t.trace;
  return s;
}

bool has(const std::string &md, const std::string &s) { return md.find(s) != std::string::npos; }

} // namespace

TEST_CASE("recon counts the trace without a live store", "[recon]") {
  testing::SyntheticTrace t("recon");
  auto in = recon::load_inputs(sources(t), config::Config::defaults());
  auto md = recon::report(in);
  CHECK(md.find("# Recon: fused_softmax_h4096\n") == 0);
  CHECK(has(md, "| HEAD | `" + t.sha.at("v6").substr(0, 12) + "` |"));
  CHECK(has(md, "| fixed axes | N=4096 |"));
  CHECK(has(md, "**DSL per version**: v0:`triton`\n"));
  CHECK(has(md, "| versions (union) | 8 |"));
  CHECK(has(md, "| with a commit | 7 |"));
  CHECK(has(md, "| reverted | 2 |"));
  CHECK(has(md, "Filtered suffixes: `rerun` x1."));
  CHECK(has(md, "- running minimum: 4 points, 100.00us -> 46.20us, 2.16x"));
  CHECK(has(md, "`v0` 100.0 -> `v1` 88.0 -> `v3` 61.6 -> `v4` 46.2"));
  CHECK(has(md, "| **distillable milestones** | **4** |"));
  CHECK(has(md, "| v1 | milestone | 88.00 | 12.00% | triton |"));
  CHECK(has(md, "| v5 | final | 46.20 | - | triton |"));
  CHECK(has(md, "5 of 5 milestones carry a geomean"));
  CHECK(has(md, "Rejection reasons: under 1.5% x1, no commit, code not reachable x1"));
  CHECK(has(md, "| items split out | 3 |"));
  CHECK(has(md, "| mined as dead-ends by the ladder | 2 |"));
  CHECK(has(md, "Prose share: 50%."));
  CHECK(has(md, "| softmax (usable) | 1 |"));
  CHECK(has(md, "Usable: 1 of 1 directories (100%)"));
  CHECK(has(md, "No live store configured"));
  CHECK(has(md, "- anti-strategy: up to 4 (3 list items + 1 prose versions)"));
  CHECK(has(md, "- reference-kernel: up to 2 (the final kernel and the mega milestones with a snapshot)"));
  CHECK(recon::report(in) == md); // deterministic
}

TEST_CASE("recon reports what a copy of the real live store holds", "[recon][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  std::filesystem::path shared = wiki / "kernel_wiki";
  testing::SyntheticTrace t("recon-live");
  auto live = t.root / "live";
  std::filesystem::copy(shared, live, std::filesystem::copy_options::recursive);
  // Pretend the trace is about an operator family the real store holds.
  json::Value meta = t.meta_file.get("meta");
  meta.set("operator_slug", "gemm");
  meta.set("workload_family", "gemm");
  t.meta_file.set("meta", meta);
  io::write_file_atomic(t.workspace / "work" / "meta.json", json::to_pretty(t.meta_file));
  auto src = sources(t);
  src.live = live;
  auto in = recon::load_inputs(src, config::Config::defaults());
  CHECK(in.live_entries.size() >= 800);
  auto md = recon::report(in);
  std::size_t gemm = in.coverage.records();
  CHECK(gemm > 0);
  CHECK(has(md, "Scanned `" + live.string() + "` (" + std::to_string(in.live_entries.size()) + " records)."));
  CHECK(has(md, std::to_string(gemm) + " live records already cover `gemm`."));
  CHECK(has(md, "| (unrecorded) | " + std::to_string(gemm) + " | - |"));
  CHECK(has(md, "Independent run"));
  CHECK(has(md, "Family `gemm` overall: "));
  CHECK(has(md, "Highest id suffix per marker in this operator's namespace: none."));
}
