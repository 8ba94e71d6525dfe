// Issue 25, "a quality report users can see": each quality signal of a
// staged record read against its packet, on a record/packet pair that
// raises it and one that does not; the read-first order; the signals in the
// staging README and on the review page; and the report changing no record
// and no gate verdict.
#include <catch2/catch.hpp>

#include <map>

#include "config/config.hpp"
#include "gates/context.hpp"
#include "gates_fixture.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "record/store_layout.hpp"
#include "report/added_cause.hpp"
#include "report/quality_report.hpp"
#include "report/readme.hpp"
#include "report/record_signals.hpp"
#include "review/review_page.hpp"
#include "scratch.hpp"
#include "test_paths.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using report::SignalState;

namespace {

// The kernel after the change: `_TUNE_ID` is read by nothing; the launch
// passes num_warps=8.
const char *kAfter = R"(import triton
import triton.language as tl

_TUNE_ID = 7


@triton.jit
def kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * 2, mask=offs < n)


def launch(x, y, n):
    # wider warps for the long rows
    kernel[(1,)](x, y, n, BLOCK_SIZE=1024, num_warps=8)
)";

// Two hunks: a bumped constant nothing reads, and the launch's num_warps
// with its comment.
const char *kDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -1,6 +1,6 @@
 import triton
 import triton.language as tl
 
-_TUNE_ID = 6
+_TUNE_ID = 7
 
 
@@ -12,5 +12,5 @@
 
 
 def launch(x, y, n):
-    # one warp group
-    kernel[(1,)](x, y, n, BLOCK_SIZE=1024, num_warps=4)
+    # wider warps for the long rows
+    kernel[(1,)](x, y, n, BLOCK_SIZE=1024, num_warps=8)
)";

const char *kLaunchSnippet = R"( def launch(x, y, n):
-    # one warp group
-    kernel[(1,)](x, y, n, BLOCK_SIZE=1024, num_warps=4)
+    # wider warps for the long rows
+    kernel[(1,)](x, y, n, BLOCK_SIZE=1024, num_warps=8)
)";

const char *kConstantSnippet = "-_TUNE_ID = 6\n+_TUNE_ID = 7\n";

json::Value strategy(const std::string &id, const std::string &change, const std::string &mechanism,
                     const std::string &snippet = kLaunchSnippet, const std::string &trace = "trace-a") {
  auto r = json::parse(R"({"type": "strategy", "retrieval": {"scope": {"dsl": "triton"}},
    "payload": {"implementation": {"format": "unified-diff"}}, "evidence": {"raw": {"version": "v7"}}})");
  r.set("id", "nvidia.b200.triton.op." + id);
  r.find("payload")->set("change", change);
  r.find("payload")->set("mechanism", mechanism);
  r.find("payload")->find("implementation")->set("snippet", snippet);
  r.find("evidence")->find("raw")->set("source_repo", trace);
  return r;
}

json::Value anti(const std::string &id, const std::string &attempted, const std::string &lesson,
                 const std::string &mechanism, const std::string &trace = "trace-a") {
  auto r = json::parse(R"({"type": "anti-strategy", "retrieval": {"scope": {"dsl": "triton"}},
    "payload": {"established_fact": {}}, "evidence": {"raw": {"version": "v9"}}})");
  r.set("id", "nvidia.b200.triton.op.anti." + id);
  r.find("payload")->set("attempted", attempted);
  r.find("payload")->set("lesson", lesson);
  r.find("payload")->find("established_fact")->set("mechanism", mechanism);
  r.find("evidence")->find("raw")->set("source_repo", trace);
  return r;
}

// A packet with the diff and the kernel after it; `agent_facing` fields
// merged from `extra` (JSON object text).
gates::PacketEntry packet(const std::string &change, const std::string &extra = "{}", const std::string &diff = kDiff,
                          const std::string &after = kAfter) {
  gates::PacketEntry p;
  p.seg_id = "strategy-v7";
  p.file = "packets/strategy-v7.json";
  p.packet = json::parse(R"({"target": {"scope": {"dsl": "triton"}},
    "agent_facing": {"what_the_run_said": {}, "diff_file": "strategy-v7.diff"}})");
  auto *af = p.packet.find("agent_facing");
  af->find("what_the_run_said")->set("change", change);
  const auto fields = json::parse(extra); // named: a range over a temporary's member dangles
  for (const auto &[k, v] : *fields.as_object()) {
    if (k == "what_the_run_said")
      for (const auto &[k2, v2] : *v.as_object()) af->find("what_the_run_said")->set(k2, v2);
    else
      af->set(k, v);
  }
  p.code_text = diff;
  p.code_after = after;
  return p;
}

report::RecordSignals signals_of(const json::Value &record, const gates::PacketEntry *p,
                                 const std::vector<const json::Value *> &store = {}) {
  std::vector<const json::Value *> all = store;
  if (all.empty()) all.push_back(&record);
  return report::record_signals(record, p, report::StagedTexts(all), report::QualityRules::defaults());
}

const report::Signal &signal(const report::RecordSignals &s, const std::string &name) {
  const auto *found = s.find(name);
  REQUIRE(found);
  return *found;
}

} // namespace

TEST_CASE("claim in code: a claimed lever in no running change warns", "[quality]") {
  const std::string warps = "num_warps 4 -> 8 so each thread holds fewer elements";
  auto p = packet(warps);
  auto ok =
      signal(signals_of(strategy("a-s01", warps, "halves the register footprint of the row"), &p), "claim in code");
  CHECK(ok.state == SignalState::Ok);
  CHECK_THAT(ok.reason, Catch::Contains("`num-warps-tuning`"));

  const std::string vec = "vectorized the loads with max_contiguous";
  auto q = packet(vec);
  auto warn =
      signal(signals_of(strategy("b-s02", vec, "wider loads issue fewer instructions per row"), &q), "claim in code");
  CHECK(warn.state == SignalState::Warn);
  CHECK_THAT(warn.fact, Catch::Contains("`vectorized-memory-access`"));
  CHECK_THAT(warn.reason, Catch::Contains("not visible in the code"));

  // A change text naming no lever, or no packet: nothing read, never a pass.
  auto none = signal(signals_of(strategy("c-s03", "reworked the kernel", "fewer instructions per element"), &p),
                     "claim in code");
  CHECK(none.state == SignalState::NotRead);
  auto alone = signals_of(strategy("d-s04", warps, "halves the register footprint"), nullptr);
  CHECK(signal(alone, "claim in code").state == SignalState::NotRead);
  CHECK(signal(alone, "snippet runs").state != SignalState::NotRead); // judged by the lexer alone

  // An anti-strategy: whether the attempted lever is in the attempt's running code.
  auto a = packet("num_stages 1 -> 2");
  const char *stages_diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                            "@@ -1,2 +1,2 @@\n def launch(x):\n-    kernel[(1,)](x, num_stages=1)\n"
                            "+    kernel[(1,)](x, num_stages=2)\n";
  a.code_text = stages_diff;
  a.code_after = "def launch(x):\n    kernel[(1,)](x, num_stages=2)\n";
  auto in_code = signal(signals_of(anti("s-t01", "num_stages 1 -> 2", "l", "m"), &a), "claim in code");
  CHECK(in_code.state == SignalState::Ok);
  a.code_text = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                "@@ -1,2 +1,2 @@\n def launch(x):\n-    # tried num_stages=2\n+    # num_stages=2 was slower\n";
  a.code_after = "def launch(x):\n    # num_stages=2 was slower\n";
  auto comment = signal(signals_of(anti("s-t01", "num_stages 1 -> 2", "l", "m"), &a), "claim in code");
  CHECK(comment.state == SignalState::Warn);
  CHECK_THAT(comment.fact, Catch::Contains("attempt lacks `pipeline-stages`"));
}

TEST_CASE("snippet runs: a snippet of lines that run for nothing warns", "[quality]") {
  const std::string warps = "num_warps 4 -> 8 so each thread holds fewer elements";
  auto p = packet(warps);
  auto ok = signal(signals_of(strategy("a-s01", warps, "halves the register footprint"), &p), "snippet runs");
  CHECK(ok.state == SignalState::Ok);
  CHECK(ok.fact == "2 of 4 run; quotes the lever");
  CHECK_THAT(ok.reason, Catch::Contains("2 are comments, docstrings, blank lines or stamps"));
  CHECK_THAT(ok.reason, Catch::Contains("against the kernel after the change"));

  // The bumped constant nothing reads: found in the packet's diff, judged
  // against the kernel after the change.
  auto dead = signal(signals_of(strategy("b-s02", warps, "halves the register footprint", kConstantSnippet), &p),
                     "snippet runs");
  CHECK(dead.state == SignalState::Warn);
  CHECK(dead.fact == "0 of 2 run; no claimed lever");
  CHECK_THAT(dead.reason, Catch::Contains("assign `_TUNE_ID`, which nothing reads"));
  CHECK_THAT(dead.reason, Catch::Contains("quotes no running code of the claimed `num-warps-tuning`"));

  // Lines that run, but none of the claimed lever's code.
  const std::string stages = "num_stages 2 -> 3";
  auto q = packet(stages);
  auto off =
      signal(signals_of(strategy("c-s03", stages, "deeper pipelining hides the load latency"), &q), "snippet runs");
  CHECK(off.state == SignalState::Warn);
  CHECK_THAT(off.fact, Catch::Contains("no claimed lever"));

  // A reference kernel quotes source: not read.
  auto ref = json::parse(R"({"type": "reference-kernel", "payload": {"implementation": {"snippet": "x = 1"}}})");
  CHECK(signal(signals_of(ref, &p), "snippet runs").state == SignalState::NotRead);
}

TEST_CASE("span: a diff that also holds earlier kept steps warns", "[quality]") {
  const std::string warps = "num_warps 4 -> 8";
  auto alone = packet(warps, R"({"span": {"this_step_changes_running_code": true, "earlier_kept_steps": []}})");
  auto ok = signal(signals_of(strategy("a-s01", warps, "halves the register footprint"), &alone), "span");
  CHECK(ok.state == SignalState::Ok);

  auto spanned = packet(warps, R"({"span": {"this_step_changes_running_code": false,
      "earlier_kept_steps": [{"change": "num_warps 4 -> 8 for the long rows"}, {"change": "variance in one pass"},
                             {"change": "BLOCK_SIZE 512 -> 1024"}]}})");
  // The step's own change is only the comment: the claimed lever is the span's.
  spanned.step_diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n@@ -14,2 +14,2 @@\n"
                      " def launch(x, y, n):\n-    # one warp group\n+    # wider warps for the long rows\n";
  auto warn = signal(signals_of(strategy("b-s02", warps, "halves the register footprint"), &spanned), "span");
  CHECK(warn.state == SignalState::Warn);
  // The block size is a lever the span's running code does not change: a
  // later step undid it, so it is not listed.
  CHECK(warn.fact == "+2 earlier steps; own change runs nothing");
  CHECK_THAT(warn.reason, Catch::Contains("(1) num_warps 4 -> 8 for the long rows; (2) variance in one pass") &&
                              !Catch::Contains("BLOCK_SIZE"));
  CHECK_THAT(warn.reason, Catch::Contains("The claimed `num-warps-tuning` is changed by the span's code, not by this "
                                          "step's own change"));
  // No span stated (a packet built before issue 25), or an anti-strategy: not read.
  auto old = packet(warps);
  CHECK(signal(signals_of(strategy("c-s03", warps, "m"), &old), "span").state == SignalState::NotRead);
  CHECK(signal(signals_of(anti("x-t01", "a", "l", "m"), &old), "span").state == SignalState::NotRead);
}

TEST_CASE("boilerplate: a template expected impact or a mechanism too many of a trace's records carry warns",
          "[quality]") {
  const std::string impact = "Lower latency from better memory throughput on the long rows.";
  auto templated = packet("num_warps 4 -> 8", R"({"what_the_run_said": {"expected_impact": ")" + impact +
                                                  R"(", "expected_impact_stated_by_steps": 12}})");
  auto warn = signal(signals_of(strategy("a-s01", "num_warps 4 -> 8", impact), &templated), "boilerplate");
  CHECK(warn.state == SignalState::Warn);
  CHECK(warn.fact == "impact of 12 steps");
  CHECK_THAT(warn.reason, Catch::Contains("which 12 steps state (a template default from 3)"));

  auto own = packet("num_warps 4 -> 8", R"({"what_the_run_said": {"expected_impact": ")" + impact +
                                            R"(", "expected_impact_stated_by_steps": 1}})");
  auto ok = signal(signals_of(strategy("b-s02", "num_warps 4 -> 8", impact), &own), "boilerplate");
  CHECK(ok.state == SignalState::Ok);

  // The drafter's share rule (max_mechanism_share 0.1, at least one): of
  // a trace's strategies, more than max(1, 10%) carrying one mechanism is
  // the run's text. Two of twelve is more than one: warned.
  std::vector<json::Value> run;
  for (int i = 0; i < 12; ++i)
    run.push_back(strategy("r-s" + std::to_string(10 + i), "num_warps 4 -> 8",
                           i < 2 ? "The kernel is  memory-bound" : "reason number " + std::to_string(i)));
  std::vector<const json::Value *> store;
  for (const auto &r : run) store.push_back(&r);
  auto shared = signal(signals_of(run[0], &own, store), "boilerplate");
  CHECK(shared.state == SignalState::Warn);
  CHECK(shared.fact == "on 2 of 12 strategies");
  CHECK_THAT(shared.reason, Catch::Contains("2 of the trace's 12 staged strategies carry this mechanism, more than the "
                                            "1 a share of 0.10 allows"));
  CHECK(signal(signals_of(run[2], &own, store), "boilerplate").state == SignalState::Ok);
  // Of twenty strategies two may share it (10% of 20); records of other
  // traces do not count.
  for (int i = 0; i < 8; ++i)
    run.push_back(strategy("r-s" + std::to_string(30 + i), "num_warps 4 -> 8", "own " + std::to_string(i)));
  auto other_trace = strategy("o-s01", "num_warps 4 -> 8", "the kernel is memory-bound", kLaunchSnippet, "trace-b");
  store.clear();
  for (const auto &r : run) store.push_back(&r);
  store.push_back(&other_trace);
  auto allowed = signal(signals_of(run[0], &own, store), "boilerplate");
  CHECK(allowed.state == SignalState::Ok);
  CHECK_THAT(allowed.reason, Catch::Contains("2 of the trace's 20 staged strategies carry this mechanism (a share of "
                                             "0.10 allows 2)"));
}

TEST_CASE("duplicate: another record of the same trace with the same lesson or mechanism", "[quality]") {
  auto a = anti("tma-t01", "TMA loads", "TMA gains nothing for one row per program.", "latency-bound");
  auto b = anti("tma-t02", "TMA descriptor loads", "TMA gains  nothing for one row per program.", "latency-bound");
  auto c = anti("tma-t03", "TMA loads", "TMA gains nothing for one row per program.", "latency-bound", "trace-b");
  std::vector<const json::Value *> store = {&a, &b, &c};
  auto dup = signal(signals_of(a, nullptr, store), "duplicate");
  CHECK(dup.state == SignalState::Warn);
  CHECK(dup.fact == "same as `tma-t02`"); // trace-b's record is another trace's
  auto other = signal(signals_of(c, nullptr, store), "duplicate");
  CHECK(other.state == SignalState::Ok);

  auto s1 = strategy("x-s01", "num_warps 4 -> 8", "halves the register footprint");
  auto s2 = strategy("y-s02", "BLOCK_SIZE 512 -> 1024", "halves the register footprint");
  auto s3 = strategy("z-s03", "num_stages 1 -> 2", "hides the load latency");
  std::vector<const json::Value *> strategies = {&s1, &s2, &s3};
  CHECK(signal(signals_of(s2, nullptr, strategies), "duplicate").state == SignalState::Warn);
  CHECK(signal(signals_of(s3, nullptr, strategies), "duplicate").state == SignalState::Ok);
}

TEST_CASE("adds a cause: a mechanism that restates what was done warns", "[quality]") {
  const auto &causal = report::QualityRules::defaults().causal;
  auto restated = report::added_cause("TMA descriptor loads on B200 gain nothing for one 8 KB row per program",
                                      "TMA descriptor loads on B200 gain nothing for one 8 KB row per program", causal);
  CHECK_FALSE(restated.adds);
  CHECK(restated.new_words.empty());
  // The claim part only: a cause clause of the change text is not what was done.
  auto clause = report::added_cause("the output row does not evict the next input rows",
                                    "streaming stores (cache_modifier .cs) so the output row does not evict the next "
                                    "input rows",
                                    causal);
  CHECK(clause.adds);
  // One new word with a causal connective is enough; one without is not.
  CHECK(report::added_cause("num_warps 4 -> 8 because of spills", "num_warps 4 -> 8", causal).adds);
  CHECK_FALSE(report::added_cause("num_warps 4 -> 8 everywhere", "num_warps 4 -> 8", causal).adds);
  // Plurals and spellings compare alike.
  CHECK(report::added_cause("vectorised loads", "vectorized load", causal).new_words.empty());

  auto p = packet("num_warps 4 -> 8");
  auto warn = signal(signals_of(strategy("a-s01", "num_warps 4 -> 8", "num_warps 4 -> 8"), &p), "adds a cause");
  CHECK(warn.state == SignalState::Warn);
  CHECK(warn.fact == "restates");
  auto ok = signal(signals_of(strategy("b-s02", "num_warps 4 -> 8", "halves the register footprint of the row"), &p),
                   "adds a cause");
  CHECK(ok.state == SignalState::Ok);
  CHECK_THAT(ok.reason, Catch::Contains("(`halves`, `register`, `footprint` and `row`), with the causal connective"));
  auto tma = anti("tma-t01", "TMA loads gain nothing", "TMA loads gain nothing.", "TMA loads gain nothing");
  CHECK(signal(signals_of(tma, nullptr), "adds a cause").state == SignalState::Warn);
}

TEST_CASE("the quality report puts the most-warned records first", "[quality]") {
  gates::Context ctx;
  auto clean = strategy("a-s01", "num_warps 4 -> 8", "halves the register footprint of the row");
  clean.set("id", "nvidia.b200.triton.op.a-s01");
  auto bad = strategy("z-s09", "vectorized the loads with max_contiguous", "vectorized the loads", kConstantSnippet);
  ctx.records.push_back({"records/a.json", {}, clean, ""});
  ctx.records.push_back({"records/z.json", {}, bad, ""});
  ctx.records.push_back({"records/broken.json", {}, json::Value(), "does not parse"});
  auto p = packet("num_warps 4 -> 8");
  p.packet.set("target", json::parse(R"({"id": "nvidia.b200.triton.op.a-s01", "scope": {"dsl": "triton"}})"));
  ctx.packets.push_back(p);
  auto q = report::quality_report(ctx, report::QualityRules::defaults());
  REQUIRE(q.records.size() == 2);
  CHECK(q.unreadable == 1);
  CHECK(q.without_packet == 1); // z-s09's packet is not in the workspace
  CHECK(q.records[0].id == "nvidia.b200.triton.op.z-s09");
  CHECK(q.records[0].entry == 1);
  CHECK(q.records[0].warnings() > q.records[1].warnings());
  CHECK(q.records[1].warnings() == 0);
}

TEST_CASE("the staging README and the review page show the quality signals", "[quality][readme][review]") {
  testing::GateFixture f;
  // A change naming no lever, and a mechanism that restates it: the fixture
  // record still passes every gate.
  f.record.find("payload")->set("change", "Multiply by two where it added one");
  f.record.find("payload")->set("mechanism", "Multiply by two where it added one");
  auto ctx = f.write_and_load();
  report::ReadmeInputs in{f.store(), f.workspace(), std::nullopt, std::nullopt};
  auto readme = report::make_readme(in);
  const auto &t = readme.text;
  CHECK_THAT(t, Catch::Contains("## Quality signals\n"));
  CHECK_THAT(t, Catch::Contains("| # | id tail | type | version | warnings | claim in code | snippet runs | span | "
                                "boilerplate | duplicate | adds a cause |"));
  CHECK_THAT(t, Catch::Contains("| 1 | row-tiling-s01 | strategy | v1 | 1 |"));
  CHECK_THAT(t, Catch::Contains("**warn**: restates |"));
  CHECK_THAT(t, Catch::Contains("* `row-tiling-s01`: **adds a cause**: the mechanism has no word beyond the change's "
                                "claim's: it restates what was done."));
  CHECK_THAT(t, Catch::Contains("| signal | reads | warns when |"));
  CHECK(t.find("## Quality signals") < t.find("## Refusals from distillation"));
  CHECK(report::make_readme(in).text == t); // deterministic

  review::PageInputs page_in;
  page_in.context = &ctx;
  page_in.gates = review::run_all_gates(ctx);
  auto page = review::review_page(page_in);
  CHECK_THAT(page, Catch::Contains("<table class=\"summary\" id=\"read-first\">"));
  CHECK_THAT(page, Catch::Contains("data-warnings=\"1\"><td>1</td><td>nvidia.b200.triton.fused-softmax.row-tiling-s01"
                                   "</td><td>1</td><td>adds a cause</td></tr>"));
  CHECK(page.find("href") == std::string::npos); // the page links nothing
  CHECK_THAT(page, Catch::Contains("<table class=\"signals\">"));
  CHECK_THAT(page, Catch::Contains("<tr class=\"warn\" data-signal=\"adds a cause\" data-state=\"warn\">"));
  CHECK_THAT(page, Catch::Contains("data-signal=\"claim in code\" data-state=\"not-read\""));
  CHECK(page.find("<script") == std::string::npos);

  // Every text of the signals is escaped: a mechanism holding markup, and
  // an earlier step's change text that the span signal quotes.
  f.record.find("payload")->set("mechanism", "<script>alert(1)</script> spills <b>registers</b>");
  f.packet.find("agent_facing")->set("span", json::parse(R"({"this_step_changes_running_code": true,
          "earlier_kept_steps": [{"change": "<i>wider</i> rows"}]})"));
  auto hostile = f.write_and_load();
  page_in.context = &hostile;
  page = review::review_page(page_in);
  CHECK(page.find("<script>alert") == std::string::npos);
  CHECK(page.find("<b>registers") == std::string::npos);
  CHECK(page.find("<i>wider") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("<tr class=\"warn\" data-signal=\"span\" data-state=\"warn\"><td>span</td><td "
                                   "class=\"state\">warn</td><td>the diff from the best-so-far also holds 1 earlier "
                                   "kept step: (1) &lt;i&gt;wider&lt;/i&gt; rows"));
}

TEST_CASE("the quality report changes no record and no gate verdict", "[quality][review]") {
  testing::GateFixture f;
  f.record.find("payload")->set("mechanism", "Process one row per program"); // a warning
  f.write_and_load();
  auto snapshot = [&] {
    std::map<std::string, std::string> files;
    for (const auto &root : {f.store(), f.workspace()})
      for (const auto &e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file() && e.path().filename() != "README.md" && e.path().filename() != "review.html")
          files[e.path().string()] = io::read_file(e.path());
    return files;
  };
  const auto env = "env -u OTM_CONFIG -u RTM_TRACE_NAME RTM_STORE='" + f.store().string() + "' RTM_WORKSPACE='" +
                   f.workspace().string() + "' ";
  auto tool = [&](const std::string &name, const std::string &args = "") {
    return testsupport::run_in(f.root, env + testsupport::shell_quote(testsupport::tool_path(name)) + " " + args);
  };
  // The gates' verdicts as otm-validate prints them, on the store as it stands.
  auto verdicts = [&] {
    auto r = tool("otm-validate", "--trace '" + f.trace().string() + "' --live '" + f.live().string() + "'");
    return std::to_string(r.code) + "\n" + r.out;
  };
  auto before_files = snapshot();
  auto before = verdicts();
  CHECK_THAT(before, Catch::Contains("records=1"));
  auto readme = tool("otm-readme");
  INFO(readme.err);
  REQUIRE(readme.code == 0);
  auto review = tool("otm-review", "'" + f.store().string() + "' --quiet");
  INFO(review.err);
  REQUIRE(review.code == 0);
  CHECK_THAT(io::read_file(f.store() / "README.md"), Catch::Contains("**warn**: restates"));
  CHECK_THAT(io::read_file(f.store() / "review.html"),
             Catch::Contains("data-signal=\"adds a cause\" data-state=\"warn\""));
  CHECK(snapshot() == before_files); // no record, index or packet touched
  CHECK(verdicts() == before);       // and every gate decides as before
}
