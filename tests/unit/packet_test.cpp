#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "packet/build.hpp"
#include "packet/earlier_tries.hpp"
#include "packet/kernel_code.hpp"
#include "packet/packet_texts.hpp"
#include "packet/report_conclusion.hpp"
#include "packet/run_facts.hpp"
#include "packet/span.hpp"
#include "packets_fixture.hpp"
#include "partition/inputs.hpp"
#include "partition/partition.hpp"
#include "scrub/scrubber.hpp"
#include "text/utf8.hpp"
#include "workspace/segment_kinds.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Built {
  std::vector<workspace::Segment> segments;
  packet::BuildResult result;
  fs::path dir;
};

std::vector<workspace::VersionRow> versions_of(const testing::SyntheticTrace &t) {
  auto file = t.workspace / "work" / "versions.jsonl";
  return workspace::read_version_rows(json::parse_lines_file(file), file.string());
}

std::vector<workspace::Segment> segments_of(const testing::SyntheticTrace &t) {
  partition::Sources s;
  s.ladder = (t.workspace / "work" / "ladder.jsonl").string();
  s.meta = t.workspace / "work" / "meta.json";
  s.profiles = t.workspace / "work" / "profiles.jsonl";
  s.trace = t.trace;
  return workspace::read_segments(partition::run(partition::load_inputs(s)).segments, "partition's segments");
}

Built build(const testing::SyntheticTrace &t, const scrub::Denylist *deny = nullptr, packet::Filters f = {}) {
  Built b;
  b.segments = segments_of(t);
  auto repo = git::Repository::open(t.trace);
  packet::VersionCommits commits(repo);
  packet::Context ctx;
  ctx.meta = workspace::TraceMeta::from_json(t.meta_file.get("meta"));
  ctx.repo = &repo;
  ctx.commits = &commits;
  trace::TraceFiles files(t.trace, config::Limits{});
  ctx.files = &files;
  ctx.denylist = deny;
  b.dir = t.workspace / "packets";
  b.result = packet::build_all(b.segments, f, versions_of(t), ctx, b.dir);
  return b;
}

// A packet as build_all wrote it, read back from its files.
struct Loaded {
  json::Value packet;
  std::string code; // the code file's bytes; empty when none
  std::vector<record::Leak> leaks;
  std::string code_name;
};

Loaded load(const Built &b, const packet::Written &w) {
  return {json::parse_file(b.dir / (w.seg_id + ".json")), w.code_name.empty() ? "" : io::read_file(b.dir / w.code_name),
          w.leaks, w.code_name};
}

Loaded find(const Built &b, const std::string &seg) {
  for (const auto &p : b.result.packets)
    if (p.seg_id == seg) return load(b, p);
  throw std::runtime_error("no packet " + seg);
}

// A version row as otm-ingest writes it, with the fields RunFacts reads.
json::Value version_row(const std::string &version, int n, const std::string &sha, bool reverted,
                        const std::string &correctness = "") {
  json::Value r = json::Value::object();
  r.set("version", version);
  r.set("n", n);
  r.set("sha", sha);
  r.set("reverted", reverted);
  // A step record holds the status: a row without one has none.
  r.set("has_memory", !correctness.empty());
  if (!correctness.empty()) r.set("correctness_status", correctness);
  return r;
}

// A git repository of kernel.py commits, built with the git binary (tests
// only; the product reads git through libgit2).
struct KernelRepo {
  fs::path dir;
  std::map<std::string, std::string> sha; // label -> commit
  explicit KernelRepo(const std::string &name) : dir(testing::fresh_dir(name)) {
    git("init -q");
    git("config user.email t@example.invalid");
    git("config user.name tester");
    git("config commit.gpgsign false");
  }
  std::string git(const std::string &args) const {
    return testing::sh("cd '" + dir.string() + "' && git " + args + " 2>&1");
  }
  void commit(const std::string &label, const std::string &subject, const std::string &kernel) {
    testing::write(dir / "kernel.py", kernel);
    git("add -A");
    git("commit -q --allow-empty -m '" + subject + "'");
    sha[label] = git("rev-parse HEAD").substr(0, 40);
  }
};

// A run read from a KernelRepo and its version rows, as otm-packet reads
// one: the context span_of and the texts take.
struct RunOfRepo {
  git::Repository repo;
  packet::VersionCommits commits;
  packet::RunFacts facts;
  packet::Context ctx;
  RunOfRepo(const KernelRepo &r, std::vector<json::Value> rows)
      : repo(git::Repository::open(r.dir)), commits(repo), facts(std::move(rows)) {
    ctx.repo = &repo;
    ctx.commits = &commits;
    ctx.facts = &facts;
  }
};

} // namespace

TEST_CASE("every diff is git's diff of the whole version change, scrubbed in comments only", "[packet]") {
  testing::SyntheticTrace t("packet-diff");
  auto b = build(t);
  REQUIRE(b.result.clean());
  std::size_t diffs = 0;
  scrub::Scrubber plain;
  for (const auto &w : b.result.packets) {
    auto p = load(b, w);
    if (p.packet.string_or("record_type") == "reference-kernel") continue;
    const auto &prov = p.packet.get("provenance");
    if (p.code_name.empty()) continue;
    ++diffs;
    std::string from = prov.get("diff_from").string_or("git_commit"), to = prov.get("diff_to").string_or("git_commit");
    std::string expected = t.git("diff " + from + ".." + to + " -- kernel.py");
    auto repo = git::Repository::open(t.trace);
    CHECK(repo.diff_path(from, to, "kernel.py") == expected);
    scrub::Scrubber s(nullptr, prov.string_or("version"));
    CHECK(io::read_file(b.dir / p.code_name) == s.code(expected));
  }
  CHECK(diffs == 8); // strategies v1 v3 v4 v5, dead-ends v2 (x2) and v6, v1's pitfall
  // v3 was committed twice: its diff starts before the first commit.
  const auto &v3 = find(b, "strategy-v3");
  CHECK(v3.packet.get("provenance").get("diff_from").string_or("git_commit") == t.sha.at("v2"));
  CHECK(v3.packet.get("provenance").get("diff_from").string_or("version") == "v2");
  CHECK(v3.packet.get("provenance").get("diff_to").string_or("version") == "v3");
  CHECK(v3.code.find("+    m = tl.max(x)  # online max") != std::string::npos);
  CHECK(v3.code.find("+def mask(n):") != std::string::npos);
  // The packet's own version reads "this step" (issue 10).
  CHECK(v3.code.find("'''Mask for shape-1 shapes from this step.'''") != std::string::npos);
  CHECK(v3.code.find("return n // 2") != std::string::npos);
  // v2's last commit restored the kernel: the diff shows the failed attempt.
  const auto &v2 = find(b, "anti-v2-01");
  CHECK(v2.packet.get("provenance").get("diff_to").string_or("git_commit") == t.sha.at("v2a"));
  CHECK(v2.code.find("+STAGE = 2") != std::string::npos);
  CHECK(v2.code.find("kernel_opt_001") == std::string::npos);
  // The version id in a code comment is scrubbed too.
  const auto &v1 = find(b, "strategy-v1");
  CHECK(v1.code.find("+    # this step: 128-bit loads, see a local path") != std::string::npos);
}

TEST_CASE("reference kernels come from git objects", "[packet]") {
  testing::SyntheticTrace t("packet-refk");
  auto b = build(t);
  scrub::Scrubber s1, s2;
  CHECK(io::read_file(b.dir / "refk-final.py") == s1.code(t.git("show " + t.sha.at("v5") + ":kernel.py")));
  CHECK(io::read_file(b.dir / "refk-v4.py") == s2.code(t.git("show " + t.sha.at("v4") + ":kernel.py")));
  CHECK(find(b, "refk-final").packet.get("agent_facing").string_or("kernel_file") == "refk-final.py");
  // Round 12: a milestone's snapshot that holds another version's code
  // (stale) is not what the run measured: the milestone's commit is.
  testing::write(t.trace / "versions" / "kernel_v4.py", "# a stale snapshot\nBLOCK = 1\n");
  t.git("add -A");
  t.git("commit -q -m 'bookkeeping: refresh snapshots'");
  auto stale = build(t);
  scrub::Scrubber s3;
  CHECK(io::read_file(stale.dir / "refk-v4.py") == s3.code(t.git("show " + t.sha.at("v4") + ":kernel.py")));
  // v5's own commit only adds `NUM_WARPS = 8`, which nothing reads: its
  // change text ("retuned num_warps to 8") does not describe the kernel.
  CHECK(find(b, "refk-final").packet.get("agent_facing").get("span").get("this_step_changes_running_code") ==
        json::Value(false));
}

TEST_CASE("packet layout, labels, caps and counters", "[packet]") {
  testing::SyntheticTrace t("packet-layout");
  auto b = build(t);
  auto p = json::parse_file(b.dir / "strategy-v1.json");
  std::vector<std::string> keys;
  for (const auto &[k, _] : *p.as_object()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"seg_id", "record_type", "seg_kind", "target", "agent_facing", "provenance",
                                         "evidence_chars", "code_bytes"});
  const auto &target = p.get("target");
  CHECK(target.string_or("output_dir") == "records/strategy/nvidia/blackwell/triton/fused-softmax-h4096");
  CHECK(target.get("scope").string_or("operator_family") == "fused-softmax-h4096");
  CHECK(target.string_or("schema") == "clean-1.3");
  const auto &af = p.get("agent_facing");
  CHECK(af.get("operator").string_or("gpu") == "B200 (nvidia blackwell)");
  CHECK(af.get("operator").string_or("what_it_computes") ==
        "Row-wise softmax of a [M, 4096] bf16 matrix (notes in a local path).");
  CHECK(af.get("what_the_run_said").string_or("commit_subject") ==
        "vectorized the row loads to 128-bit so each thread moves 16 bytes (-12.0%)");
  CHECK(af.get("what_the_run_said").get("commit_body").is_null());
  const auto &shapes = *af.get("measurements").get("per_shape_latency").as_array();
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].string_or("shape") == "shape-1"); // aaaa1111, 80.5
  CHECK(shapes[1].string_or("shape") == "shape-2"); // the 3f2a91bc... key, 90.0
  CHECK(shapes[2].string_or("shape") == "shape-3"); // M=4096, 95.0
  std::string conclusion = af.get("profiler").string_or("conclusion");
  CHECK(conclusion.find("shape shape-2") == std::string::npos);
  CHECK(conclusion.find("on shape-2, measured") != std::string::npos);
  CHECK(af.get("profiler").get("ncu_measured_the_kernel_under_test") == json::Value(true));
  CHECK(af.get("open_directions").size() == 5);
  CHECK(af.get("pitfalls_recorded_here")[0].string_or("fix") == "pad the row pitch to 8 elements");
  CHECK(af.get("builds_on").get("was_the_untouched_baseline") == json::Value(true));
  CHECK(af.get("builds_on").string_or("previous_approach") == "Baseline two-pass softmax.");
  CHECK(af.string_or("diff_file") == "strategy-v1.diff");
  const auto &prov = p.get("provenance");
  CHECK(prov.string_or("report_dir") == "v1_ncu");
  CHECK(prov.string_or("shape_label_note") == "3 workload hashes were relabelled shape-N");
  CHECK(prov.string_or("git_commit") == t.sha.at("v1"));
  // evidence_chars re-derived from what was written.
  json::Value af_no_file = af;
  // The siblings' names (<seg_id>.diff, .after.py) are not evidence.
  for (const char *k : {"diff_file", "code_after_file", "step_diff_file"}) af_no_file.erase(k);
  CHECK(af.string_or("code_after_file") == "strategy-v1.after.py");
  std::string code = io::read_file(b.dir / "strategy-v1.diff");
  CHECK(p.get("evidence_chars") == json::Value(text::code_points(packet::evidence_text(af_no_file, code))));
  CHECK(p.get("code_bytes") == json::Value(text::code_points(code)));
  auto anti = json::parse_file(b.dir / "anti-v2-01.json");
  const auto &efr = anti.get("agent_facing").get("established_fact_required");
  CHECK(efr.string_or("precheck") == "ok");
  CHECK(efr.get("precheck_note").is_null());
  // The only numeral in the fixed texts is 40.
  std::string fixed = efr.string_or("rule") + efr.string_or("verdict_must_conclude") +
                      anti.get("agent_facing").string_or("split_instruction");
  for (auto at = fixed.find("40"); at != std::string::npos; at = fixed.find("40")) fixed.erase(at, 2);
  CHECK(fixed.find_first_of("0123456789") == std::string::npos);
  CHECK(anti.get("agent_facing").string_or("the_failed_lever").find("shared-memory staging") == 0);
}

TEST_CASE("filters, stale packets and the summary line", "[packet]") {
  testing::SyntheticTrace t("packet-stale");
  testing::write(t.workspace / "packets" / "strategy-v9.json", "{}\n");
  testing::write(t.workspace / "packets" / "strategy-v1.py", "stale\n");
  testing::write(t.workspace / "packets" / "notes.txt", "kept\n");
  packet::Filters f;
  f.type = "strategy";
  f.limit = 2;
  auto b = build(t, nullptr, f);
  REQUIRE(b.result.packets.size() == 2);
  CHECK(b.result.packets[1].seg_id == "strategy-v3");
  CHECK_FALSE(fs::exists(b.dir / "strategy-v9.json"));
  CHECK_FALSE(fs::exists(b.dir / "strategy-v1.py"));
  CHECK(fs::exists(b.dir / "notes.txt"));
  CHECK(b.result.removed == std::vector<std::string>{"strategy-v1.py", "strategy-v9.json"});
  packet::Filters g;
  g.seg_ids = {"refk-final", "anti-v6-01"};
  auto segs = segments_of(t);
  auto picked = packet::select(segs, g);
  REQUIRE(picked.size() == 2);
  CHECK(picked[0].seg_id == "anti-v6-01");
  auto line = json::parse(b.result.packets[0].summary);
  CHECK(line.string_or("seg_id") == "strategy-v1");
  CHECK(line.get("leaks") == json::Value(0));
}

TEST_CASE("a segment that cannot be built stops the stage, naming the first in order", "[packet]") {
  // Enough segments for two builder threads, which take runs of neighbours
  // in turn; two name a commit the trace lacks, at the end of the first
  // run and early in the second, so the second may fail first.
  testing::SyntheticTrace t("packet-fail");
  auto segs = segments_of(t);
  std::vector<workspace::Segment> many;
  for (int copy = 0; many.size() < 96; ++copy)
    for (auto s : segs) {
      if (many.size() == 96) break;
      s.seg_id += "-c" + std::to_string(copy);
      many.push_back(std::move(s));
    }
  const std::string missing = "00000000000000000000000000000000000000a1";
  for (std::size_t i : {std::size_t(31), std::size_t(33)}) many[i].sha = missing;
  auto repo = git::Repository::open(t.trace);
  packet::VersionCommits commits(repo);
  trace::TraceFiles files(t.trace, config::Limits{});
  packet::Context ctx;
  ctx.meta = workspace::TraceMeta::from_json(t.meta_file.get("meta"));
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.files = &files;
  auto versions = versions_of(t);
  auto dir = t.workspace / "packets";
  for (int run = 0; run < 3; ++run) {
    try {
      packet::build_all(many, {}, versions, ctx, dir);
      FAIL("built packets of a segment whose commit is missing");
    } catch (const io::IoError &e) {
      std::string what = e.what();
      INFO(what);
      CHECK(what.starts_with("segment " + many[31].seg_id + " (version "));
      CHECK(what.find(missing) != std::string::npos);
      CHECK(what.ends_with("; no packet was written"));
    }
    CHECK((!fs::exists(dir) || io::list_dir(dir).empty())); // nothing published
  }
}

TEST_CASE("no denylisted term reaches an agent-facing layer", "[packet]") {
  testing::SyntheticTrace t("packet-deny");
  auto meta_file = t.meta_file;
  json::Value meta = meta_file.get("meta");
  meta.set("description", "Softmax kernel of Project Nightjar, owned by nightjar-team at ACME-Internal.");
  meta.set("harness", "nightjar bench rig");
  t.meta_file.set("meta", meta);
  auto deny = scrub::Denylist::from_terms({"Nightjar", "acme-internal"});
  auto b = build(t, &deny);
  REQUIRE(b.result.packets.size() == b.segments.size());
  for (const auto &w : b.result.packets) {
    auto p = load(b, w);
    std::string text = json::to_line(p.packet.get("agent_facing"));
    std::string lower = text::to_lower(text);
    CHECK(lower.find("nightjar") == std::string::npos);
    CHECK(lower.find("acme-internal") == std::string::npos);
    CHECK(p.leaks.empty());
  }
  CHECK(find(b, "strategy-v1").packet.get("agent_facing").get("operator").string_or("what_it_computes") ==
        "Softmax kernel of Project a private identifier, owned by a private identifier-team at a private "
        "identifier.");
  // Without the denylist the scrubber leaves the names, and the pre-flight
  // (with the list) names packet and token.
  auto open = build(t, nullptr);
  CHECK(open.result.clean());
  json::Value af = find(open, "strategy-v1").packet.get("agent_facing");
  for (const char *k : {"diff_file", "code_after_file", "step_diff_file"})
    af.erase(k); // the siblings' names (<seg_id>.diff, ...) are not evidence
  auto leaks = packet::preflight(af, &deny);
  REQUIRE_FALSE(leaks.empty());
  for (const auto &l : leaks) CHECK(l.label == "private denylist");
}

TEST_CASE("report conclusions and line-bounded caps", "[packet]") {
  CHECK(packet::conclusion_of("**Root cause**: short\n\n## Key Finding: the loads are uncoalesced across the warp "
                              "so DRAM sectors are wasted\n## Next") ==
        std::optional<std::string>("the loads are uncoalesced across the warp so DRAM sectors are wasted"));
  CHECK(packet::conclusion_of("tiny") == std::nullopt);
  std::string head;
  for (int i = 0; i < 25; ++i) head += "line " + std::to_string(i) + "\n";
  auto h = packet::conclusion_of(head);
  REQUIRE(h);
  CHECK(h->ends_with("line 19"));
  std::string code = "aaaa\nbbbb\ncccc\n";
  CHECK(packet::cap_at_line(code, 12));
  CHECK(code == "aaaa\nbbbb\n");
  std::string small = "x\n";
  CHECK_FALSE(packet::cap_at_line(small, 2));
}

TEST_CASE("an anti-strategy shows the failed attempt, not a docstring-only revert (issue 10)", "[packet][issue10]") {
  KernelRepo r("packet-revert");
  auto &dir = r.dir;
  auto &sha = r.sha;
  auto git = [&](const std::string &args) { return r.git(args); };
  auto commit = [&](const std::string &label, const std::string &subject, const std::string &kernel) {
    r.commit(label, subject, kernel);
  };
  std::string doc = "def k(x):\n    \"\"\"Row softmax.\n\n    Measured on the cold harness.\n    \"\"\"\n";
  std::string v1 = doc + "    return x * 2\n";
  commit("v0", "v0: baseline", doc + "    return x\n");
  commit("v1", "v1: doubled (-10%)", v1);
  commit("v2a", "v2: stage the row", doc + "    y = stage(x)\n    return y * 2\n");
  std::string reverted = v1;
  reverted.replace(reverted.find("cold"), 4, "warm");
  commit("v2", "v2: reverted, staging was slower", reverted);
  commit("v3", "v3: halved (-20%)", reverted + "HALF = True\n");

  auto repo = git::Repository::open(dir);
  packet::VersionCommits commits(repo);
  workspace::Segment anti;
  anti.record_type = "anti-strategy";
  anti.version = "v2";
  anti.sha = sha["v2"];
  anti.parent = sha["v2a"];
  auto d = packet::version_diff(repo, "kernel.py", commits, anti);
  REQUIRE(d);
  CHECK(d->range == packet::DiffRange::Attempt);
  CHECK(d->executable);
  CHECK(d->base == sha["v1"]);
  CHECK(d->target == sha["v2a"]);
  CHECK(d->text.find("+    y = stage(x)") != std::string::npos);
  CHECK(d->text == git("--no-pager diff " + sha["v1"] + ".." + sha["v2a"] + " -- kernel.py"));

  // A strategy's diff starts at the version its gain is measured against.
  workspace::Segment strat;
  strat.record_type = "strategy";
  strat.version = "v3";
  strat.sha = sha["v3"];
  strat.parent = sha["v2"];
  json::Value against = json::Value::object();
  against.set("version", "v1");
  against.set("sha", sha["v1"]);
  strat.measured_against = against;
  auto s = packet::version_diff(repo, "kernel.py", commits, strat);
  REQUIRE(s);
  CHECK(s->range == packet::DiffRange::MeasuredAgainst);
  CHECK(s->base == sha["v1"]);
  CHECK(s->text == git("--no-pager diff " + sha["v1"] + ".." + sha["v3"] + " -- kernel.py"));
  CHECK(commits.version_of(sha["v2a"]) == "v2");

  // Issue 25: a restoring commit that differs from the best-so-far only by
  // a constant nothing reads ("restored after revert") is no attempt: the
  // diff still ends at the attempt.
  std::string rows = reverted + "HALF = True\nROWS = 2\n";
  rows.replace(rows.find("return x * 2"), 12, "return x * ROWS");
  commit("v4a", "v4: two rows per program", rows);
  commit("v4", "v4: reverted, two rows were slower",
         reverted + "HALF = True\n_TUNE_ID = 826245  # restored after revert\n");
  repo = git::Repository::open(dir);
  packet::VersionCommits after(repo);
  workspace::Segment anti4;
  anti4.record_type = "anti-strategy";
  anti4.version = "v4";
  anti4.sha = sha["v4"];
  anti4.parent = sha["v4a"];
  json::Value tried_on = json::Value::object();
  tried_on.set("version", "v3");
  tried_on.set("sha", sha["v3"]);
  anti4.measured_against = tried_on;
  auto d4 = packet::version_diff(repo, "kernel.py", after, anti4);
  REQUIRE(d4);
  CHECK(d4->target == sha["v4a"]);
  CHECK(d4->text.find("+ROWS = 2") != std::string::npos);
  CHECK(d4->text.find("restored after revert") == std::string::npos);

  // Issue 25: a kept step whose commits follow a reverted attempt that
  // left its code committed (v6, one commit) and that only restores the
  // best code and edits a comment changes no running code: its own change
  // is read from the code it was made on (the last kept step, v3), not
  // from its parent.
  std::string four = rows;
  four.replace(four.find("ROWS = 2"), 8, "ROWS = 4");
  commit("v6", "v6: reverted, four rows were slower", four);
  commit("v7", "v7: kept, comment (-0.1%)", "# tuned\n" + reverted + "HALF = True\n");
  repo = git::Repository::open(dir);
  packet::VersionCommits later(repo);
  auto from_parent = packet::own_change(repo, "kernel.py", later, "v7");
  REQUIRE(from_parent);
  CHECK(from_parent->executable); // undoing v6's attempt reads as v7's change
  auto made_on_v3 = packet::own_change(repo, "kernel.py", later, "v7", nullptr, sha["v3"]);
  REQUIRE(made_on_v3);
  CHECK(made_on_v3->base == sha["v3"]);
  CHECK_FALSE(made_on_v3->executable);
  CHECK(made_on_v3->text.find("+# tuned") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a kept step whose own change runs nothing kept no setting", "[packet][issue25]") {
  // Kit 30, S33 and S42: "BLOCK_S 8->4" kept by a commit that only moved a
  // constant nothing reads was listed as a setting the run kept.
  testing::SyntheticTrace t("packet-own-change-runs");
  auto repo = git::Repository::open(t.trace);
  packet::VersionCommits commits(repo);
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  // This trace's kept steps change comments and names nothing reads: the
  // example trace's goldens hold the steps that run (their spans).
  CHECK_FALSE(packet::own_change_runs(ctx, "v1")); // a comment
  CHECK_FALSE(packet::own_change_runs(ctx, "v5")); // `NUM_WARPS = 8`, which nothing reads
  // Without a repository nothing can tell: kept as the run said.
  CHECK(packet::own_change_runs(packet::Context{}, "v5"));
}

TEST_CASE("a strategy's earlier tries are matched by the code they add, however worded", "[packet][issue25]") {
  // Kit 31, T03: "enable VEC (ld.global.nc.v4)" kept after "enable 128-bit
  // loads" was reverted; the words share no setting, the code is the same.
  KernelRepo r("packet-earlier-tries");
  auto &dir = r.dir;
  auto &sha = r.sha;
  auto commit = [&](const std::string &label, const std::string &subject, const std::string &kernel) {
    r.commit(label, subject, kernel);
  };
  auto kernel = [](const std::string &block, bool vec, const std::string &ret) {
    return "BLOCK = " + block + "\n" + (vec ? "VEC = 8\n" : "") + "\n\ndef k(x):\n" +
           (vec ? "    y = load(x, BLOCK, vec=VEC)\n" : "    y = load(x, BLOCK)\n") + "    " + ret + "\n";
  };
  commit("v0", "v0: baseline", kernel("1024", false, "return y"));
  commit("v1a", "v1: enable 128-bit loads", kernel("1024", true, "return y"));
  commit("v1", "v1: reverted, 128-bit loads were 2% slower", kernel("1024", false, "return y"));
  commit("v2", "v2: BLOCK 1024->2048 (-3%)", kernel("2048", false, "return y"));
  commit("v3", "v3: reverted, doubling was slower", kernel("2048", false, "return y * 2"));
  // Re-indenting the load is no edit of it (a loop wrapped around it).
  commit("v4", "v4: reverted, a loop was slower",
         "BLOCK = 2048\n\n\ndef k(x):\n    for i in range(1):\n        y = load(x, BLOCK)\n    return y\n");
  commit("v5", "v5: enable VEC (ld.global.nc.v4) (-4%)", kernel("2048", true, "return y"));

  auto repo = git::Repository::open(dir);
  packet::VersionCommits commits(repo);
  std::vector<json::Value> rows;
  int n = 0;
  for (const auto &[v, reverted] : std::vector<std::pair<std::string, bool>>{
           {"v0", false}, {"v1", true}, {"v2", false}, {"v3", true}, {"v4", true}, {"v5", false}}) {
    rows.push_back(version_row(v, n++, sha[v], reverted, "PASS"));
    rows.back().set("subject", v == "v2" ? "v2: BLOCK 1024->2048 (-3%)" : v + ": a step");
  }
  packet::RunFacts facts(rows);
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.facts = &facts;
  // v1's attempt (its first commit; the second restored the code) adds
  // the lines v5 adds; v3 changes another line, v4 only moves the load.
  CHECK(packet::tries_of_this_change(ctx, "v5", {}) == std::vector<std::string>{"v1"});
  // The tries otm-partition matched by their words stay, in run order.
  CHECK(packet::tries_of_this_change(ctx, "v5", {"v3"}) == std::vector<std::string>{"v1", "v3"});
  // Without a repository only the stated tries are known.
  packet::Context bare;
  CHECK(packet::tries_of_this_change(bare, "v5", {"v3"}) == std::vector<std::string>{"v3"});
  // What the run kept since the last try, when only the code matched it
  // (round 27, V16): read from the run, the kept step whose change runs.
  workspace::Segment seg;
  seg.record_type = "strategy";
  seg.version = "v5";
  seg.sha = sha["v5"];
  packet::Span span;
  span.reverted_tries = {"v1"};
  trace::TraceFiles files(dir, config::Limits{});
  ctx.files = &files;
  scrub::Scrubber s;
  const auto typed = workspace::read_version_rows(rows, "rows");
  auto texts = packet::scrub_texts(s, seg, typed.back(), ctx, {}, "strategy", span);
  REQUIRE(texts.kept_since_last_try.as_array());
  REQUIRE(texts.kept_since_last_try.as_array()->size() == 1);
  CHECK((*texts.kept_since_last_try.as_array())[0].python_str().find("BLOCK 1024->2048") != std::string::npos);
  // After a later try, nothing was kept since.
  span.reverted_tries = {"v1", "v4"};
  CHECK(packet::scrub_texts(s, seg, typed.back(), ctx, {}, "strategy", span).kept_since_last_try.as_array()->empty());
  fs::remove_all(dir);
}

TEST_CASE("a try of one line a strategy's change also carries is no try of the change", "[packet][issue25]") {
  // Kit 60, K07: warps tries (`THREADS = 256`) counted as eight earlier
  // tries of a change that folds the softmax scale into Q and carries the
  // same `THREADS` line.
  KernelRepo r("packet-earlier-tries-one-line");
  auto base = [](const std::string &threads, bool fold) {
    return "THREADS = " + threads + "\n\n\ndef k(q, s):\n" +
           (fold ? std::string("    q = q * (s * LOG2E)\n    m = max2(q)\n    p = exp2(q - m)\n")
                 : std::string("    m = max(q)\n    p = exp((q - m) * s)\n")) +
           "    return p\n";
  };
  r.commit("v0", "v0: baseline", base("128", false));
  r.commit("v1a", "v1: warps 4->8", base("256", false));
  r.commit("v1", "v1: reverted, 5% slower", base("128", false));
  r.commit("v2", "v2: fold the scale into Q (-10%)", base("256", true));
  auto repo = git::Repository::open(r.dir);
  packet::VersionCommits commits(repo);
  std::vector<json::Value> rows;
  int n = 0;
  for (const auto &[v, reverted] :
       std::vector<std::pair<std::string, bool>>{{"v0", false}, {"v1", true}, {"v2", false}})
    rows.push_back(version_row(v, n++, r.sha[v], reverted, "PASS"));
  packet::RunFacts facts(rows);
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.facts = &facts;
  CHECK(packet::tries_of_this_change(ctx, "v2", {}).empty());
  fs::remove_all(r.dir);
}

TEST_CASE("the final kernel names what the run kept after it without a new best", "[packet][issue25]") {
  // Kit 32, U22: the best-measured kernel quoted while the run ended on a
  // later kept step (NUM_STAGES 3 -> 2) that set no new best.
  KernelRepo r("packet-kept-after");
  r.commit("v0", "v0: baseline", "NUM_STAGES = 2\n\n\ndef k(x):\n    return load(x, NUM_STAGES)\n");
  r.commit("v1", "v1: num_stages 2->3 (-5%)", "NUM_STAGES = 3\n\n\ndef k(x):\n    return load(x, NUM_STAGES)\n");
  r.commit("v2", "v2: kept, num_stages 3->2 (+0.1%)",
           "NUM_STAGES = 2\n\n\ndef k(x):\n    return load(x, NUM_STAGES)\n");
  r.commit("v3", "v3: kept, a comment (+0.0%)",
           "# tuned\nNUM_STAGES = 2\n\n\ndef k(x):\n    return load(x, NUM_STAGES)\n");
  r.commit("v4", "v4: kept, doubled (failed its check)",
           "# tuned\nNUM_STAGES = 2\n\n\ndef k(x):\n    return 2 * load(x, NUM_STAGES)\n");
  auto repo = git::Repository::open(r.dir);
  packet::VersionCommits commits(repo);
  std::vector<json::Value> rows;
  int n = 0;
  for (const auto &v : {"v0", "v1", "v2", "v3", "v4"}) {
    rows.push_back(version_row(v, n++, r.sha[v], false, std::string(v) == "v4" ? "FAIL" : "PASS"));
  }
  packet::RunFacts facts(rows);
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.facts = &facts;
  workspace::Segment seg;
  seg.record_type = "reference-kernel";
  seg.seg_kind = workspace::kFinalKernelSegment;
  seg.version = "v1";
  seg.sha = r.sha["v1"];
  auto span = packet::span_of(seg, ctx);
  // v2 runs and passed; v3 changed a comment; v4 failed its check.
  REQUIRE(span.kept_after.size() == 1);
  CHECK(span.kept_after[0]->version == "v2");
  // A milestone snapshot is no final kernel: nothing listed.
  seg.seg_kind = workspace::kMegaSnapshotSegment;
  CHECK(packet::span_of(seg, ctx).kept_after.empty());
  // A later step that sets it back: the run ended on this kernel's code
  // (a comment apart), so nothing is listed.
  seg.seg_kind = workspace::kFinalKernelSegment;
  r.commit("v5", "v5: kept, num_stages 2->3 (+0.0%)",
           "# tuned\nNUM_STAGES = 3\n\n\ndef k(x):\n    return load(x, NUM_STAGES)\n");
  repo = git::Repository::open(r.dir);
  packet::VersionCommits back(repo);
  rows.push_back(version_row("v5", 5, r.sha["v5"], false, "PASS"));
  packet::RunFacts back_facts(rows);
  ctx.commits = &back;
  ctx.facts = &back_facts;
  CHECK(packet::span_of(seg, ctx).kept_after.empty());
  CHECK(packet::span_of(seg, ctx).kept_after_unmeasured.empty());
  // Kit 48, U24: a later kept step with no step record whose change is in
  // the code the run ended with: listed apart, its gain unknown.
  r.commit("v6", "v6: kept -> 76.3->75.7us 8 warps (was 4)",
           "# tuned\nNUM_STAGES = 3\n\n\ndef k(x):\n    return load(x, NUM_STAGES, warps=8)\n");
  repo = git::Repository::open(r.dir);
  packet::VersionCommits unmeasured(repo);
  rows.push_back(version_row("v6", 6, r.sha["v6"], false));
  packet::RunFacts unmeasured_facts(rows);
  ctx.commits = &unmeasured;
  ctx.facts = &unmeasured_facts;
  const auto late = packet::span_of(seg, ctx);
  CHECK(late.kept_after.empty());
  REQUIRE(late.kept_after_unmeasured.size() == 1);
  CHECK(late.kept_after_unmeasured[0]->version == "v6");
  fs::remove_all(r.dir);
}

TEST_CASE("a kept step with no step record is part of the lineage a kernel builds on", "[packet][issue25]") {
  // Kit 49, V12: a tile change kept with no memory file was left out, so
  // the reference kernel was said to build on an older step. One that
  // failed its check is still left out: the run undid its change.
  KernelRepo r("packet-lineage-unmeasured");
  r.commit("v0", "v0: baseline", "BLOCK = 64\n\n\ndef k(x):\n    return load(x, BLOCK)\n");
  r.commit("v1", "v1: kept -> 9.0->8.0us (-11%) BLOCK 64->128",
           "BLOCK = 128\n\n\ndef k(x):\n    return load(x, BLOCK)\n");
  r.commit("v2", "v2: kept -> 8.0->7.0us (-12%) doubled",
           "BLOCK = 128\n\n\ndef k(x):\n    return 2 * load(x, BLOCK)\n");
  r.commit("v3", "v3: kept -> 8.0->7.5us (-6%) BLOCK 128->256",
           "BLOCK = 256\n\n\ndef k(x):\n    return 2 * load(x, BLOCK)\n");
  r.commit("v4", "v4: kept -> 7.5->7.4us (-1%) warps 4->8",
           "BLOCK = 256\n\n\ndef k(x):\n    return 2 * load(x, BLOCK, warps=8)\n");
  RunOfRepo run(r, {version_row("v0", 0, r.sha["v0"], false, "PASS"), version_row("v1", 1, r.sha["v1"], false, "PASS"),
                    version_row("v2", 2, r.sha["v2"], false, "FAIL"),
                    version_row("v3", 3, r.sha["v3"], false), // no step record
                    version_row("v4", 4, r.sha["v4"], false, "PASS")});
  workspace::Segment seg;
  seg.record_type = "reference-kernel";
  seg.seg_kind = workspace::kFinalKernelSegment;
  seg.version = "v4";
  seg.sha = r.sha["v4"];
  std::vector<std::string> lineage;
  for (const auto *row : packet::span_of(seg, run.ctx).lineage) lineage.push_back(row->version);
  CHECK(lineage == std::vector<std::string>{"v1", "v3"});
  fs::remove_all(r.dir);
}

TEST_CASE("a reverted try ended as its own row says: did not build, failed its check, or measured",
          "[packet][issue25]") {
  auto ended = [](json::Value r) {
    return packet::how_a_try_ended(workspace::read_version_rows({std::move(r)}, "row").front());
  };
  auto r = version_row("v12", 12, "s12", true, "PASS");
  r.set("subject", "v12: reverted (compile, +0.00%) - TOPK_FIRST does not compile (OutOfResources)");
  CHECK(ended(r) == "did not build");
  r.set("subject", "v12: reverted (correctness) - TOPK_FIRST");
  r.set("correctness_status", "FAIL");
  CHECK(ended(r) == "failed its correctness check");
  r.set("correctness_status", "PASS");
  r.set("subject", "v12: reverted (regression, +2.1%) - TOPK_FIRST 2.1% slower");
  CHECK(ended(r) == "measured");
}

TEST_CASE("what the run kept since a code-matched try names its new bests first", "[packet][issue25]") {
  // Kit 37, Z14: flat num_stages flips named before the online pass that
  // set a new best, which fell under "and later kept steps".
  KernelRepo r("packet-kept-since-bests");
  auto kernel = [](const std::string &stages, bool online, bool vec) {
    return "STAGES = " + stages + "\n" + (vec ? "VEC = 8\n" : "") + "\n\ndef k(x):\n" +
           (online ? "    y = online(x, STAGES)\n" : "    y = two_pass(x, STAGES)\n") +
           (vec ? "    y = vectorise(y, VEC)\n" : "") + "    return y\n";
  };
  r.commit("v0", "v0: baseline", kernel("2", false, false));
  r.commit("v1a", "v1: enable VEC", kernel("2", false, true));
  r.commit("v1", "v1: reverted, VEC was slower", kernel("2", false, false));
  r.commit("v2", "v2: num_stages 2->3", kernel("3", false, false));
  r.commit("v3", "v3: single-pass online max/sum", kernel("3", true, false));
  r.commit("v4", "v4: enable VEC", kernel("3", true, true));
  auto repo = git::Repository::open(r.dir);
  packet::VersionCommits commits(repo);
  std::vector<json::Value> rows;
  struct Step {
    const char *version, *subject;
    bool reverted;
    double us;
  };
  const Step steps[] = {{"v0", "v0: baseline", false, 10.0},
                        {"v1", "v1: reverted, VEC was slower", true, 10.2},
                        {"v2", "v2: num_stages 2->3", false, 10.1},
                        {"v3", "v3: single-pass online max/sum", false, 8.6},
                        {"v4", "v4: enable VEC", false, 8.2}};
  int n = 0;
  for (const auto &st : steps) {
    rows.push_back(version_row(st.version, n++, r.sha[st.version], st.reverted, "PASS"));
    rows.back().set("subject", st.subject);
    rows.back().set("geomean_us", st.us);
  }
  packet::RunFacts facts(rows);
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.facts = &facts;
  trace::TraceFiles files(r.dir, config::Limits{});
  ctx.files = &files;
  workspace::Segment seg;
  seg.record_type = "strategy";
  seg.version = "v4";
  seg.sha = r.sha["v4"];
  packet::Span span;
  span.reverted_tries = {"v1"};
  scrub::Scrubber s;
  const auto typed = workspace::read_version_rows(rows, "rows");
  const auto since = packet::scrub_texts(s, seg, typed.back(), ctx, {}, "strategy", span).kept_since_last_try;
  REQUIRE(since.as_array());
  REQUIRE(since.as_array()->size() == 2);
  CHECK((*since.as_array())[0].python_str().find("online") != std::string::npos);
  CHECK((*since.as_array())[1].python_str().find("num_stages") != std::string::npos);
  fs::remove_all(r.dir);
}

TEST_CASE("a reference kernel's lineage names the kept step that removed a barrier", "[packet][issue25]") {
  KernelRepo r("packet-barrier");
  const std::string head = "import triton\n\n\n@triton.jit\ndef k(x_ptr, lock_ptr):\n    tl.store(x_ptr, 1)\n";
  r.commit("v0", "v0: baseline", head + "    tl.debug_barrier()\n    tl.atomic_xchg(lock_ptr, 0)\n");
  r.commit("v1", "v1: remove redundant barrier in the hot loop (-0.6%)", head + "    tl.atomic_xchg(lock_ptr, 0)\n");
  r.commit("v2", "v2: num_warps 4->8 (-3%)", head + "    tl.atomic_xchg(lock_ptr, 0)\n    y = 8\n");
  auto repo = git::Repository::open(r.dir);
  packet::VersionCommits commits(repo);
  std::vector<json::Value> rows;
  int n = 0;
  for (const auto &v : {"v0", "v1", "v2"}) rows.push_back(version_row(v, n++, r.sha[v], false, "PASS"));
  packet::RunFacts facts(rows);
  const auto config = config::Config::defaults();
  packet::Context ctx;
  ctx.repo = &repo;
  ctx.commits = &commits;
  ctx.facts = &facts;
  ctx.barriers = diff::BarrierRemovalRule::from_json(config.data().get("barrier_removal"), "otm-config.json");
  workspace::Segment seg;
  seg.record_type = "reference-kernel";
  seg.seg_kind = workspace::kFinalKernelSegment;
  seg.version = "v2";
  seg.sha = r.sha["v2"];
  auto span = packet::span_of(seg, ctx);
  REQUIRE(span.barrier_removed_by);
  CHECK(span.barrier_removed_by->version == "v1");
  CHECK(span.barrier_removal == "tl.debug_barrier()");
  // The kernel before the removal: nothing to name.
  seg.version = "v0";
  seg.sha = r.sha["v0"];
  CHECK_FALSE(packet::span_of(seg, ctx).barrier_removed_by);
}
