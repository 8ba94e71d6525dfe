// Issue 25, anti-strategies: a failed lever is an established fact only when
// the run's code and measurements agree with it. Each rule is seen firing on
// a packet edited to break it and passing on one that keeps it (built on the
// distill fixtures, as distill_claims_test.cpp).
#include <catch2/catch.hpp>

#include "distill/draft_run.hpp"
#include "distill/drafter.hpp"
#include "distill_test_support.hpp"
#include "record/established_fact.hpp"
#include "json/parse.hpp"

using namespace otm;
using testsupport::at;

namespace {

bool holds(const json::Value &list, const std::string &s) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == json::Value(s)) return true;
  return false;
}

// The attempt: two rows per program (ROWS 1 -> 2), a change that runs.
const char *kRowsDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-ROWS = 1
+ROWS = 2
 BLOCK = 4096
@@ -20,3 +20,3 @@ def launch(x, y):
-    grid = (x.shape[0],)
+    grid = (triton.cdiv(x.shape[0], ROWS),)
     kernel[grid](x, y, BLOCK=BLOCK, ROWS=ROWS)
)";

// A revert whose diff from the best-so-far is a comment.
const char *kCommentDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -40,2 +40,3 @@ def launch(x, y):
     return y
+# experiment: two rows per program
)";

// The same lever under a code name of its own.
const char *kRowsPerProgDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -20,3 +20,3 @@ def launch(x, y):
-    kernel[grid](x, y, BLOCK=BLOCK, rows_per_prog=1)
+    kernel[grid](x, y, BLOCK=BLOCK, rows_per_prog=2)
     return y
)";

const char *kLever = "two rows per program with fp32 accumulators is slower because the second row's accumulators "
                     "raise register pressure until the kernel spills";

distill::Packet attempt(const char *diff = kRowsDiff) {
  auto p = distill::load_packet(testsupport::distill_fixtures() / "anti-v4-01.json");
  p.code = diff;
  p.code_after.clear();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", kLever);
  at(p.doc, {"provenance", "diff_from"}).set("version", "v3");
  at(p.doc, {"provenance", "diff_to"}).set("version", "v4");
  return p;
}

// A prose dead-end at num_warps 8 -> 4, its pitfalls left to the test.
distill::Packet fewer_warps_attempt() {
  auto p = distill::load_packet(testsupport::distill_fixtures() / "anti-v6-01.json");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("change", "num_warps 8 -> 4 for the short rows.");
  said.set("commit_subject", "reverted: num_warps 8 -> 4");
  said.set("commit_body", json::Value());
  return p;
}

const char *kSmemError = "RuntimeError: CUDA error: invalid argument -- "
                         "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 245760) exceeds the "
                         "232448-byte opt-in limit on H100";

// The attempt at ROWS=2 that did not launch, with the run's explanation.
distill::Packet launch_refused(const std::string &explanation, const std::string &claim = kSmemError) {
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program (compile error)");
  auto pitfall = json::Value::object();
  pitfall.set("pitfall", claim);
  pitfall.set("explanation", explanation);
  pitfall.set("fix", "reverted; keep rows*stages within the smem budget");
  auto pitfalls = json::Value::array();
  pitfalls.push_back(pitfall);
  af.set("pitfalls_recorded_here", pitfalls);
  at(p.doc, {"agent_facing", "what_the_run_said"}).set("gate_verdict", kSmemError);
  return p;
}

std::string mechanism_of(const distill::Draft &d) {
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  return *d.record->get("payload").get("established_fact").get("mechanism").as_string();
}

} // namespace

TEST_CASE("a failed lever in the attempt's running code is a fact with a lesson of its own", "[distill][issue25]") {
  auto d = distill::draft_record(attempt());
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  const std::string mechanism = pl.get("established_fact").string_or("mechanism");
  const std::string lesson = pl.string_or("lesson");
  CHECK_THAT(mechanism, Catch::Contains("register pressure"));
  // The lesson is the directive, not the mechanism restated.
  CHECK(lesson.find(mechanism) == std::string::npos);
  CHECK_THAT(lesson, Catch::StartsWith("Do not expect two rows per program"));
  // Tags from the lever, not the step's category ("compute"); the first
  // trigger names the lever.
  const auto &tags = d.record->get("retrieval").get("technique_tags");
  CHECK(holds(tags, "row-packing"));
  CHECK_FALSE(holds(tags, "compute"));
  CHECK_THAT(*d.record->get("retrieval").get("triggers")[0].as_string(),
             Catch::StartsWith("before trying two rows per program"));
}

TEST_CASE("an anti-strategy's mechanism is the reason alone, without the lever or the verdict's figures",
          "[distill][issue25]") {
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "two rows per program, since the second row's accumulators raise register pressure "
                                "until the kernel spills \xE2\x80\x94 reverted, 16.93\xE2\x86\x92"
                                "17.80us (+5.1%)");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("attempted") == "two rows per program");
  CHECK(d.record->get("payload").get("established_fact").string_or("mechanism") ==
        "since the second row's accumulators raise register pressure until the kernel spills");
}

TEST_CASE("a short lever that sets a value is what was attempted, without its predicate or figure",
          "[distill][issue25]") {
  auto p = attempt();
  p.doc.find("agent_facing")->set("the_failed_lever", "ROWS=2 spills registers (96 B/thread) (+4.6%)");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("attempted") == "ROWS=2");
  CHECK_THAT(d.record->get("payload").get("established_fact").string_or("mechanism"),
             Catch::StartsWith("ROWS=2 spills registers (96 B/thread)"));
  CHECK_THAT(d.record->get("payload").string_or("lesson"), Catch::StartsWith("Do not expect ROWS=2 to pay off"));
}

TEST_CASE("a bracketed label or a guess beside the figure is no stated cause", "[distill][issue25]") {
  // Round 14: a run tags its slow attempts with causes at random; readers
  // found "(launch overhead dominates)" and "(tail effect)" contradicted by
  // the code, and "(bank conflicts?)" a guess.
  auto with_lever = [](const std::string &lever) {
    auto p = attempt();
    p.doc.find("agent_facing")->set("the_failed_lever", lever);
    return distill::draft_record(p);
  };
  for (const char *label :
       {"8 warps per block 23.3% slower (launch overhead dominates)", "64 threads per CTA 34.1% slower (tail effect)",
        "two rows per program 28.5% slower (bank conflicts?)",
        "two rows per program are slower: the second row's registers spill?"}) {
    auto d = with_lever(label);
    INFO(label);
    REQUIRE(d.refusal);
    CHECK(d.refusal->field == "payload.established_fact.mechanism");
  }
  // The figure's form alone does not hide a stated cause.
  auto stated = with_lever("two rows per program 5.1% slower because the second row's accumulators raise register "
                           "pressure until the kernel spills");
  INFO((stated.refusal ? stated.refusal->why : ""));
  REQUIRE(stated.record);
  CHECK(stated.record->get("payload").string_or("attempted") == "two rows per program");
  // Beside a stated cause, the label is left out of the mechanism (round
  // 14: "(occupancy drop)" on a host-side workspace bug).
  auto labelled = with_lever("two rows per program 5.1% slower because the second row's accumulators raise register "
                             "pressure until the kernel spills (occupancy drop) (bank conflicts?)");
  INFO((labelled.refusal ? labelled.refusal->field + ": " + labelled.refusal->why : std::string()));
  REQUIRE(labelled.record);
  CHECK(labelled.record->get("payload").get("established_fact").string_or("mechanism") ==
        "two rows per program 5.1% slower because the second row's accumulators raise register pressure until the "
        "kernel spills");
  // The gate refuses a guess as an established fact too.
  CHECK(record::speculative_regex().contains("bank conflicts?"));
  CHECK_FALSE(record::speculative_regex().contains("a ? b : c reads both branches"));
}

TEST_CASE("the run's expected impact is no cause of the failure", "[distill][issue25]") {
  // Round 16 (I05): "Rationale: Improve memory coalescing and occupancy
  // ...", the hope the run states on 63 steps, served as why evict_first
  // on the weights was slower.
  auto p = fewer_warps_attempt();
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  const std::string hope = "Improve memory coalescing and occupancy so the kernel approaches peak achievable "
                           "bandwidth on the target GPU.";
  said.set("expected_impact", hope);
  said.set("commit_body", "num_warps 8 -> 4 for the short rows.\nRationale: " + hope + "\nTried: 7.3% slower.");
  auto hoped = distill::draft_record(p);
  REQUIRE(hoped.refusal);
  CHECK(hoped.refusal->field == "payload.established_fact.mechanism");
  // A cause of the failure beside it is still the mechanism.
  said.set("commit_body",
           "num_warps 8 -> 4 for the short rows.\nRationale: " + hope +
               "\nFour warps are slower because too few loads stay in flight to hide DRAM latency on long rows.");
  auto stated = distill::draft_record(p);
  INFO((stated.refusal ? stated.refusal->why : ""));
  REQUIRE(stated.record);
  CHECK_THAT(stated.record->get("payload").get("established_fact").string_or("mechanism"),
             Catch::Contains("too few loads stay in flight"));
}

TEST_CASE("an attempt whose diff runs nothing never tried its lever", "[distill][issue25]") {
  auto d = distill::draft_record(attempt(kCommentDiff));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("never tried"));
  // No kernel change at all, where a diff was taken: the same.
  auto empty = attempt();
  empty.code.clear();
  empty.doc.find("agent_facing")->set("diff_file", json::Value());
  auto e = distill::draft_record(empty);
  REQUIRE(e.refusal);
  CHECK_THAT(e.refusal->why, Catch::Contains("changes nothing in the kernel"));
}

TEST_CASE("a failed lever the attempt's code does not change is not the one tried", "[distill][issue25]") {
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "num_warps 8 -> 16 is slower because sixteen warps leave each thread too few registers "
                                "and the kernel spills");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("num-warps-tuning"));
}

TEST_CASE("a lever the run later kept as a win is no failed lever", "[distill][issue25]") {
  auto p = attempt();
  json::Value later = json::Value::array();
  json::Value k = json::Value::object();
  k.set("change", "ROWS=2: two rows per program amortise the launch (+32%)");
  later.push_back(k);
  p.doc.find("agent_facing")->set("kept_in_the_run_with_the_same_setting", later);
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("kept step of this run"));
}

TEST_CASE("a setting the attempt moved away from is no failed lever", "[distill][issue25]") {
  // "one row per program fails", for an attempt that took ROWS from 1 to 2:
  // the code it was tried on already had one row per program.
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "one row per program is slower because the launch overhead is not amortised");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("changes that lever away from 1"));
  // The setting the attempt moved to is the one it tried.
  auto tried = attempt();
  tried.doc.find("agent_facing")
      ->set("the_failed_lever", "two rows per program are slower because the second row's accumulators raise "
                                "register pressure until the kernel spills");
  auto t = distill::draft_record(tried);
  INFO((t.refusal ? t.refusal->why : ""));
  CHECK(t.record);
}

TEST_CASE("an attempt that also moves another lever's setting is no fact about one lever", "[distill][issue25]") {
  const char *both = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-ROWS = 1
+ROWS = 2
-NUM_STAGES = 1
+NUM_STAGES = 3
 BLOCK = 4096
@@ -20,3 +20,3 @@ def launch(x, y):
-    grid = (x.shape[0],)
+    grid = (triton.cdiv(x.shape[0], ROWS),)
     kernel[grid](x, y, BLOCK=BLOCK, ROWS=ROWS, num_stages=NUM_STAGES)
)";
  auto d = distill::draft_record(attempt(both));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("also changes `NUM_STAGES`"));
  // The same attempt without the second setting is the fact (first test).
  CHECK(distill::draft_record(attempt()).record);
}

TEST_CASE("an attempt that also brings in another lever's code is no fact about one lever", "[distill][issue25]") {
  // "Raising pipeline depth" whose attempt also made the grid persistent:
  // no setting of the persistent grid moves, but its code name comes in.
  const char *stages_and_grid = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -20,3 +20,3 @@ def launch(x, y):
-    grid = (x.shape[0],)
-    kernel[grid](x, y, BLOCK=BLOCK, num_stages=2)
+    grid = (torch.cuda.get_device_properties(0).multi_processor_count,)
+    kernel[grid](x, y, BLOCK=BLOCK, num_stages=5)
)";
  const std::string after = "import torch\nBLOCK = 4096\n\n\ndef launch(x, y):\n"
                            "    grid = (torch.cuda.get_device_properties(0).multi_processor_count,)\n"
                            "    kernel[grid](x, y, BLOCK=BLOCK, num_stages=5)\n"
                            "\n\ndef kernel(*args, **kwargs):\n    pass\n";
  auto p = attempt(stages_and_grid);
  p.code_after = after;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "raising num_stages from 2 to 5 is slower because more stages only cost shared "
                                "memory and occupancy for a single streaming read");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("also changes `multi_processor_count`"));
  // The same attempt that only raises the stages is the fact; `BLOCK`,
  // which the file already had, is passed through, not brought in.
  const char *stages = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -20,3 +20,3 @@ def launch(x, y):
     grid = (x.shape[0],)
-    kernel[grid](x, y, num_stages=2)
+    kernel[grid](x, y, BLOCK=BLOCK, num_stages=5)
)";
  auto q = attempt(stages);
  q.code_after = "BLOCK = 4096\n\n\ndef launch(x, y):\n    grid = (x.shape[0],)\n"
                 "    kernel[grid](x, y, BLOCK=BLOCK, num_stages=5)\n"
                 "\n\ndef kernel(*args, **kwargs):\n    pass\n";
  q.doc.find("agent_facing")->set("the_failed_lever", p.doc.get("agent_facing").string_or("the_failed_lever"));
  auto ok = distill::draft_record(q);
  INFO((ok.refusal ? ok.refusal->why : ""));
  CHECK(ok.record);
}

TEST_CASE("a pitfall reporting wrong results on a step that passed its check is not its failure",
          "[distill][issue25]") {
  // A note carried onto a step reverted for speed: "overflowed" says the
  // results were wrong, the step's own check says PASS.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", json::Value());
  json::Value pitfall = json::Value::object();
  pitfall.set("pitfall", "Two rows per program without int64 row offsets overflowed for 8192x2048");
  pitfall.set("explanation", "row * stride exceeds 2^31 elements in the pointer arithmetic of the second row");
  pitfall.set("fix", "Cast row to tl.int64 before multiplying by the stride");
  json::Value list = json::Value::array();
  list.push_back(pitfall);
  af.set("pitfalls_recorded_here", list);
  REQUIRE(af.get("measurements").get("correctness").string_or("status") == "PASS");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.verdict");
  CHECK_THAT(d.refusal->why, Catch::Contains("correctness check passed"));
  // With the step's check failed, it is the fact, filed as an accuracy failure.
  at(af, {"measurements", "correctness"}).set("status", "FAIL");
  auto failed = distill::draft_record(p);
  INFO((failed.refusal ? failed.refusal->why : ""));
  REQUIRE(failed.record);
  CHECK(failed.record->get("payload").string_or("verdict") == "accuracy-gate/ceiling");
}

TEST_CASE("a cause the step's own capture refutes is refused", "[distill][issue25]") {
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program is slower because the register count rose from 64 to 96+ and "
                             "occupancy halved");
  json::Value profiler = json::Value::object();
  profiler.set("conclusion", "# Profile this step\n- Achieved occupancy: 42.9%\n- Registers/thread: 40 Bottleneck: "
                             "latency / too few bytes in flight.");
  profiler.set("conclusion_is_from_the_kernel_under_test", true);
  af.set("profiler", profiler);
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("at 96") && Catch::Contains("measured 40 registers per thread"));
  // A capture that agrees (ncu's own line) leaves the fact standing.
  at(af, {"profiler"}).set("conclusion", "Section: Occupancy\n  Registers Per Thread    register/thread    96\n");
  auto agrees = distill::draft_record(p);
  INFO((agrees.refusal ? agrees.refusal->why : ""));
  CHECK(agrees.record);
  // A number too long to be a register count is none (and throws nothing).
  at(af, {"profiler"}).set("conclusion", "Registers/thread: 99999999999999999999999");
  CHECK(distill::draft_record(p).record);
  // A capture of another kernel decides nothing.
  at(af, {"profiler"}).set("conclusion", "Registers/thread: 40");
  at(af, {"profiler"}).set("conclusion_is_from_the_kernel_under_test", false);
  CHECK(distill::draft_record(p).record);
}

TEST_CASE("an accuracy failure the step's correctness check contradicts is refused", "[distill][issue25]") {
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "two rows per program fails the accuracy check because the fp8 accumulators round "
                                "the row max (max error 0.19)");
  // The step record says PASS.
  REQUIRE(p.doc.get("agent_facing").get("measurements").get("correctness").string_or("status") == "PASS");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.verdict");
  CHECK_THAT(d.refusal->why, Catch::Contains("correctness check passed"));
  // With the check failing, the same account is a fact.
  at(*p.doc.find("agent_facing"), {"measurements", "correctness"}).set("status", "FAIL");
  auto failed = distill::draft_record(p);
  INFO((failed.refusal ? failed.refusal->why : ""));
  REQUIRE(failed.record);
  CHECK(failed.record->get("payload").string_or("verdict") == "accuracy-gate/ceiling");
  // Its speed side is observed too (round 27, V17): a reader with a looser
  // tolerance would take a faster lever.
  auto &m = at(*p.doc.find("agent_facing"), {"measurements"});
  m.set("slower_than_tried_on_pct", -1.89);
  m.set("same_code_spread_pct", 1.2);
  auto faster = distill::draft_record(p);
  REQUIRE(faster.record);
  CHECK_THAT(faster.record->get("payload").string_or("observed"),
             Catch::StartsWith("correctness FAIL") &&
                 Catch::EndsWith("; it measured 1.89 % faster than the code it was tried on (the run's own spread "
                                 "of re-measurements of unchanged code: 1.2 %)"));
  // ... unless the run tried the lever again and that step passed.
  p.doc.find("agent_facing")->set("other_accounts_that_passed_correctness", 1);
  p.doc.find("provenance")->set("other_accounts_that_passed_correctness", json::Value::strings({"v173"}));
  auto retried = distill::draft_record(p);
  REQUIRE(retried.refusal);
  CHECK(retried.refusal->field == "payload.verdict");
  CHECK_THAT(retried.refusal->why, Catch::Contains("that step passed its correctness check (v173)"));
}

TEST_CASE("a timeout the run's other tries of the lever ran through is not the lever's", "[distill][issue25]") {
  // Kit 48, U13: num_stages=3 timed out once and ran and passed at later
  // steps.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  at(af, {"measurements", "correctness"}).set("status", "TIMEOUT_FAIL");
  at(af, {"what_the_run_said"}).set("gate_verdict", "TIMEOUT_FAIL: benchmark exceeded 900 s");
  af.set("other_accounts_that_passed_correctness", 1);
  p.doc.find("provenance")->set("other_accounts_that_passed_correctness", json::Value::strings({"v12"}));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.verdict");
  CHECK_THAT(d.refusal->why, Catch::Contains("the attempt ran out of time, but the run tried it again and that step "
                                             "passed its correctness check (v12)"));
  // No other try completed: the timeout is not refused by this rule.
  af.set("other_accounts_that_passed_correctness", 0);
  auto alone = distill::draft_record(p);
  CHECK_FALSE((alone.refusal && alone.refusal->why.find("ran out of time") != std::string::npos));
}

TEST_CASE("a strategy's applies_when holds caveats about its lever that state a condition", "[distill][issue25]") {
  auto p = distill::load_packet(testsupport::distill_fixtures() / "strategy-v3.json");
  at(p.doc, {"agent_facing", "what_the_run_said"})
      .set("change", "Fused the scale into the load and read each row once instead of twice.");
  json::Value pits = json::Value::array();
  // Not a condition; an error message; another lever's caveat (copied
  // forward from an earlier step); this change's own caveat.
  for (const char *t : {"slow", "RuntimeError: CUDA error: an illegal memory access was encountered",
                        "rows shorter than BLOCK need the tail mask",
                        "the fused load keeps the whole row in registers, so rows wider than 8192 spill"}) {
    json::Value e = json::Value::object();
    e.set("pitfall", t);
    pits.push_back(e);
  }
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", pits);
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &applies = d.record->get("payload").get("applies_when");
  REQUIRE(applies.size() == 1);
  CHECK(applies[0] == json::Value("the fused load keeps the whole row in registers, so rows wider than 8192 spill"));
}

TEST_CASE("a failed lever's cause and fix come only from accounts of that lever", "[distill][issue25]") {
  auto p = fewer_warps_attempt();
  json::Value other = json::Value::object();
  other.set("pitfall", "4 rows per program spill registers because each thread then holds four rows");
  other.set("fix", "kept 1 row per program");
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", json::Value(json::Array{other}));
  // The only cause in the packet is another lever's: no fact.
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  // An account of this lever is its cause, and its fix the lesson's advice.
  json::Value mine = json::Value::object();
  mine.set("pitfall", "4 warps leave too few loads in flight because each warp then streams twice the row");
  mine.set("fix", "stayed at 8 warps");
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", json::Value(json::Array{other, mine}));
  auto ok = distill::draft_record(p);
  INFO((ok.refusal ? ok.refusal->why : ""));
  REQUIRE(ok.record);
  const auto &pl = ok.record->get("payload");
  CHECK_THAT(pl.get("established_fact").string_or("mechanism"), Catch::Contains("too few loads in flight"));
  CHECK_THAT(pl.string_or("lesson"), Catch::EndsWith("Instead: stayed at 8 warps"));
  CHECK_THAT(pl.string_or("lesson"), !Catch::Contains("row per program"));

  // Round 10: an account of the same lever at another setting ("16 warps")
  // is no cause of an attempt at 4 warps.
  json::Value sixteen = json::Value::object();
  sixteen.set("pitfall", "16 warps slowed the launch-bound tiny shape");
  sixteen.set("explanation", "Cross-warp reductions go through shared memory and a barrier, so most warps idle");
  sixteen.set("fix", "Pick warps from n_cols in the launcher");
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", json::Value(json::Array{sixteen}));
  auto other_setting = distill::draft_record(p);
  INFO((other_setting.record ? other_setting.record->get("payload").get("established_fact").string_or("mechanism")
                             : ""));
  REQUIRE(other_setting.refusal);
  CHECK(other_setting.refusal->field == "payload.established_fact.mechanism");
}

TEST_CASE("a failed lever's fix is no cause, a toolchain that ignores the knob is one", "[distill][issue25]") {
  // Round 10: "Pipeline explicitly (async copies + barriers)" as the cause
  // of a num_stages attempt that Gluon ignores.
  auto p = fewer_warps_attempt();
  json::Value pit = json::Value::object();
  pit.set("pitfall", "Changing num_warps did nothing measurable");
  pit.set("fix", "Split the row across warps with explicit barriers if the latency must be hidden");
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", json::Value(json::Array{pit}));
  auto fix_only = distill::draft_record(p);
  INFO((fix_only.record ? fix_only.record->get("payload").get("established_fact").string_or("mechanism") : ""));
  REQUIRE(fix_only.refusal);
  CHECK(fix_only.refusal->field == "payload.established_fact.mechanism");
  pit.set("explanation",
          "This toolchain ignores num_warps for these kernels and launches them with its own default instead.");
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", json::Value(json::Array{pit}));
  auto ignored = distill::draft_record(p);
  INFO((ignored.refusal ? ignored.refusal->why : ""));
  REQUIRE(ignored.record);
  CHECK_THAT(ignored.record->get("payload").get("established_fact").string_or("mechanism"),
             Catch::Contains("ignores num_warps"));
}

TEST_CASE("a failure inside the run's noise band, or no slower at all, is not established", "[distill][issue25]") {
  auto p = attempt();
  auto &m = at(*p.doc.find("agent_facing"), {"measurements"});
  m.set("same_code_spread_pct", 4.2);
  m.set("slower_than_tried_on_pct", 3.1);
  auto inside = distill::draft_record(p);
  REQUIRE(inside.refusal);
  CHECK(inside.refusal->field == "payload.verdict");
  CHECK_THAT(inside.refusal->why, Catch::Contains("inside the run's own spread") && Catch::Contains("4.2 %"));
  m.set("slower_than_tried_on_pct", 9.5);
  auto outside = distill::draft_record(p);
  INFO((outside.refusal ? outside.refusal->why : ""));
  CHECK(outside.record);
  // With no band known, a speed-up is still no failure.
  m.set("same_code_spread_pct", json::Value());
  m.set("slower_than_tried_on_pct", -1.97);
  auto faster = distill::draft_record(p);
  REQUIRE(faster.refusal);
  CHECK_THAT(faster.refusal->why, Catch::Contains("no slower"));
}

TEST_CASE("a lever that gained nothing is a fact when the attempt measured inside the noise", "[distill][issue25]") {
  // The bundled example's v8: exp2 by hand, which Triton already emits.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program gains nothing because the compiler already emits the same "
                             "instructions for one and two rows");
  auto &m = at(af, {"measurements"});
  m.set("same_code_spread_pct", json::Value());
  m.set("slower_than_tried_on_pct", 0.0);
  auto none = distill::draft_record(p);
  INFO((none.refusal ? none.refusal->why : ""));
  REQUIRE(none.record);
  CHECK(none.record->get("payload").string_or("verdict") == "not-worth-it-here");
  CHECK_THAT(none.record->get("payload").string_or("observed"), Catch::StartsWith("no measurable effect: 0.0 %"));
  // Inside the band when the run has one.
  m.set("same_code_spread_pct", 2.5);
  m.set("slower_than_tried_on_pct", -1.8);
  auto banded = distill::draft_record(p);
  REQUIRE(banded.record);
  CHECK_THAT(banded.record->get("payload").string_or("observed"), Catch::Contains("(2.5 %)"));
  // Faster beyond the noise: the measurement contradicts "gains nothing".
  m.set("slower_than_tried_on_pct", -6.0);
  auto faster = distill::draft_record(p);
  REQUIRE(faster.refusal);
  CHECK(faster.refusal->field == "payload.verdict");
  CHECK_THAT(faster.refusal->why, Catch::Contains("gained nothing") && Catch::Contains("6.0 % faster"));
  // Without a band, no_effect_max_pct (configuration) decides.
  m.set("same_code_spread_pct", json::Value());
  m.set("slower_than_tried_on_pct", -0.8);
  distill::DraftRules strict = distill::DraftRules::defaults();
  strict.no_effect_max_pct = 0.5;
  auto beyond = distill::draft_record(p, strict);
  REQUIRE(beyond.refusal);
  CHECK_THAT(beyond.refusal->why, Catch::Contains("0.8 % faster"));
  // An account that does not say "nothing" still needs a slowdown.
  af.set("the_failed_lever", kLever);
  m.set("slower_than_tried_on_pct", 0.0);
  auto plain = distill::draft_record(p);
  REQUIRE(plain.refusal);
  CHECK_THAT(plain.refusal->why, Catch::Contains("no slower"));
}

TEST_CASE("an attempt that returns NaN is the attempt without its verdict", "[distill][issue25]") {
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program returns NaN rows because the second row reads the first "
                             "row's uninitialised accumulator");
  at(af, {"measurements", "correctness"}).set("status", "FAIL");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("attempted") == "two rows per program");
}

TEST_CASE("a cause about another setting of the lever tried is refused", "[distill][issue25]") {
  // Round 6's #9: "Tile width 8192 spilled" carried onto an attempt that set
  // ROWS to 2 is about another setting; the same cause about two rows stands.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program are slower because four rows per program raise register "
                             "pressure until the kernel spills");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("four rows") && Catch::Contains("set that lever to 2"));
  af.set("the_failed_lever", "two rows per program are slower because the second row's accumulators raise "
                             "register pressure until the kernel spills at 2 rows per program");
  auto same = distill::draft_record(p);
  INFO((same.refusal ? same.refusal->why : ""));
  CHECK(same.record);
}

TEST_CASE("a mechanism that only repeats the attempt and its verdict is none", "[distill][issue25]") {
  // Round 6's #21: the commit subject "(correctness FAIL, max_abs_err=0.06)
  // set vectorized loads to 0" was taken as the cause of an accuracy failure.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", json::Value());
  auto &said = at(af, {"what_the_run_said"});
  said.set("change", "two rows per program");
  said.set("commit_subject", "reverted (correctness FAIL, max_abs_err=0.06, tolerance exceeded) two rows per program");
  said.set("commit_body", json::Value());
  af.set("pitfalls_recorded_here", json::Value::array());
  at(af, {"measurements", "correctness"}).set("status", "FAIL");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  // The same subject with a cause of its own is a fact.
  said.set("commit_subject", "reverted (correctness FAIL, max_abs_err=0.06) two rows per program: the second row "
                             "reuses the first row's max, so its exponentials overflow the tolerance");
  auto caused = distill::draft_record(p);
  INFO((caused.refusal ? caused.refusal->why : ""));
  CHECK(caused.record);
}

TEST_CASE("a name of the code is what was attempted, without the verdict after it", "[distill][issue25]") {
  // Round 6's #33: "fast_expf fails the accuracy gate" was the attempt.
  auto p = attempt(kRowsPerProgDiff);
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "rows_per_prog is slower because the second row's accumulators raise register "
                                "pressure until it spills");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("attempted") == "rows_per_prog");
  // A lever of prose alone is too little: the sentence stays the attempt.
  p.doc.find("agent_facing")
      ->set("the_failed_lever",
            "TMA is slower because the second row's accumulators raise register pressure until it spills");
  auto prose = distill::draft_record(p);
  if (prose.record) CHECK(prose.record->get("payload").string_or("attempted") != "TMA");
}

TEST_CASE("an attempt whose kernel reads a name it binds nowhere is no measured failure", "[distill][issue25]") {
  auto p = attempt();
  p.code_after = "import triton\nimport triton.language as tl\nROWS = 2\n\n@triton.jit\ndef k(x_ptr):\n"
                 "    tl.store(x_ptr, eps * ROWS)\n";
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("`eps`") && Catch::Contains("cannot run"));
}

TEST_CASE("what was attempted leaves out the verb of trying", "[distill][issue25]") {
  // Round 7: "before trying try software-pipeline stages 5".
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "try two rows per program is slower because the second row's accumulators "
                                "raise register pressure until the kernel spills");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("attempted") == "two rows per program");
  CHECK_THAT(*d.record->get("retrieval").get("triggers")[0].as_string(),
             Catch::StartsWith("before trying two rows per program"));
  // Round 11: "Do not take adopt half-precision accumulation".
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "adopt two rows per program is slower because the second row's accumulators "
                                "raise register pressure until the kernel spills");
  auto adopted = distill::draft_record(p);
  REQUIRE(adopted.record);
  CHECK(adopted.record->get("payload").string_or("attempted") == "two rows per program");
}

TEST_CASE("pipelining tried on a kernel that runs no loop is no failed lever", "[distill][issue25]") {
  // Round 9: "more stages only cost registers/smem" on a loop-free kernel.
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -10,3 +10,3 @@ def launch(x, y):\n"
                     "     grid = (x.shape[0],)\n"
                     "-    kernel[grid](x, y, BLOCK=4096, num_stages=2)\n"
                     "+    kernel[grid](x, y, BLOCK=4096, num_stages=4)\n"
                     "     return y\n";
  const std::string loop_free = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                                "def kernel(x, y, BLOCK: tl.constexpr):\n"
                                "    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)))\n\n"
                                "def launch(x, y):\n"
                                "    grid = (x.shape[0],)\n"
                                "    kernel[grid](x, y, BLOCK=4096, num_stages=4)\n"
                                "    return y\n";
  auto p = attempt(diff);
  p.code_after = loop_free;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "num_stages=4 is slower because deeper pipelining costs shared memory and "
                                "occupancy");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("`pipeline-stages` acts on a loop"));

  std::string looping = loop_free;
  looping.replace(looping.find("    tl.store("), 4, "    for r in range(2): ");
  p.code_after = looping;
  auto ok = distill::draft_record(p);
  if (ok.refusal) CHECK_THAT(ok.refusal->why, !Catch::Contains("acts on a loop"));
}

TEST_CASE("num_stages on a kernel whose compiler leaves it unused is no failed lever", "[distill][issue25]") {
  // Round 12 (kitAA): Triton num_stages 2 -> 4 on a row loop with no tl.dot,
  // filed as "more stages only cost registers": Triton never pipelines it.
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -12,3 +12,3 @@ def launch(x, y):\n"
                     "     grid = (x.shape[0],)\n"
                     "-    kernel[grid](x, y, BLOCK=1024, num_stages=2)\n"
                     "+    kernel[grid](x, y, BLOCK=1024, num_stages=4)\n"
                     "     return y\n";
  const std::string row_loop = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                               "def kernel(x, y, N, BLOCK: tl.constexpr):\n"
                               "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
                               "    for off in range(0, N, BLOCK):\n"
                               "        acc += tl.load(x + off + tl.arange(0, BLOCK))\n"
                               "    tl.store(y + tl.arange(0, BLOCK), acc)\n\n"
                               "def launch(x, y):\n"
                               "    grid = (x.shape[0],)\n"
                               "    kernel[grid](x, y, x.shape[1], BLOCK=1024, num_stages=4)\n"
                               "    return y\n";
  auto p = attempt(diff);
  p.code_after = row_loop;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "num_stages=4 is slower because more stages only cost registers and shared memory "
                                "and lower occupancy");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("only through `num_stages`") && Catch::Contains("`tl.dot`"));

  // The same change on a loop that feeds tl.dot is pipelined: not this rule.
  std::string dot_loop = row_loop;
  dot_loop.replace(dot_loop.find("acc += tl.load("), 15, "acc += tl.dot(w, ");
  p.code_after = dot_loop;
  auto pipelined = distill::draft_record(p);
  if (pipelined.refusal) CHECK_THAT(pipelined.refusal->why, !Catch::Contains("only through `num_stages`"));

  // An account whose cause is that the option goes unused states the true
  // lesson: kept.
  p.code_after = row_loop;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "num_stages=4 is no faster because Triton does not pipeline a loop without tl.dot, "
                                "so num_stages is ignored");
  auto said = distill::draft_record(p);
  if (said.refusal) CHECK_THAT(said.refusal->why, !Catch::Contains("only through `num_stages`"));
}

TEST_CASE("an account whose direction the attempt's code contradicts is no failed lever", "[distill][issue25]") {
  // Round 12 (kitAA): "increase to 2 stages" for an attempt that lowered
  // num_stages from 3 to 2.
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -12,3 +12,3 @@ def launch(x, y):\n"
                     "     grid = (x.shape[0],)\n"
                     "-    kernel[grid](x, y, num_stages=3)\n"
                     "+    kernel[grid](x, y, num_stages=2)\n"
                     "     return y\n";
  const std::string dot_loop = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                               "def kernel(x, y, N, BLOCK: tl.constexpr):\n"
                               "    acc = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)\n"
                               "    for off in range(0, N, BLOCK):\n"
                               "        acc = tl.dot(tl.load(x + off), tl.load(y + off), acc)\n"
                               "    tl.store(y, acc)\n\n"
                               "def launch(x, y):\n"
                               "    grid = (x.shape[0],)\n"
                               "    kernel[grid](x, y, x.shape[1], num_stages=2)\n"
                               "    return y\n";
  auto p = attempt(diff);
  p.code_after = dot_loop;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "increase num_stages to 2 is slower because the second buffer halves occupancy");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("says it raises") && Catch::Contains("from 3 to 2"));
  // The direction the code took is no contradiction.
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "lower num_stages to 2 is slower because fewer loads are in flight");
  auto lowered = distill::draft_record(p);
  if (lowered.refusal) CHECK_THAT(lowered.refusal->why, !Catch::Contains("the direction tried"));
}

TEST_CASE("a cause that says the lever moved the other way is no failed lever's", "[distill][issue25]") {
  // Kit 57, N03 and N01: "the wider N tile spills the fp32 accumulator" for
  // an attempt that narrowed the tile 256 -> 64, the run's stock cause of
  // the widening.
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -3,3 +3,3 @@ import triton.language as tl\n"
                     " \n"
                     "-BLOCK_N = 256\n"
                     "+BLOCK_N = 64\n"
                     " \n";
  const std::string after = "import triton\nimport triton.language as tl\n\nBLOCK_N = 64\n\n\n@triton.jit\n"
                            "def kernel(x, y, N, BLOCK_N: tl.constexpr):\n"
                            "    offs = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)\n"
                            "    tl.store(y + offs, tl.load(x + offs, mask=offs < N) * 2, mask=offs < N)\n\n"
                            "def launch(x, y):\n"
                            "    kernel[(triton.cdiv(x.numel(), BLOCK_N),)](x, y, x.numel(), BLOCK_N=BLOCK_N)\n"
                            "    return y\n";
  auto p = attempt(diff);
  p.code_after = after;
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "BLOCK_N = 64 is slower because the wider N tile spills the fp32 accumulator to "
                                "local memory");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("the cause says \"wider N tile\"") &&
                                 Catch::Contains("(BLOCK_N 256 -> 64)"));
  // A cause that says the way the code moved is no contradiction.
  p.doc.find("agent_facing")
      ->set("the_failed_lever", "BLOCK_N = 64 is slower because the narrower N tile reloads each row four times "
                                "as often");
  auto narrower = distill::draft_record(p);
  if (narrower.refusal) CHECK_THAT(narrower.refusal->why, !Catch::Contains("other direction"));
}

TEST_CASE("a cause that argues for taking the lever out is no cause of taking it out failing", "[distill][issue25]") {
  // Kit 58, M10 and M39: "the persistent loop adds per-tile bookkeeping
  // that outweighs the saved launches" for turning the loop off, which
  // measured slower: the run's reason to try, not why the try failed.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  at(p.doc, {"agent_facing", "measurements"}).set("slower_than_tried_on_pct", 5.2);
  af.set("the_failed_lever", "persistent kernel set to off is slower because the persistent loop adds per-tile "
                             "bookkeeping that outweighs the saved launches");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("\"outweighs the saved\"") && Catch::Contains("5.20 % slower") &&
                                 Catch::Contains("the run's reason to try"));
  // Turning it on, the same cause explains the slowdown.
  af.set("the_failed_lever", "persistent kernel set to on is slower because the persistent loop adds per-tile "
                             "bookkeeping that outweighs the saved launches");
  auto on = distill::draft_record(p);
  if (on.refusal) CHECK_THAT(on.refusal->why, !Catch::Contains("reason to try"));
}

TEST_CASE("one failed lever with one cause is one record of the run", "[distill][issue25]") {
  // Round 9: num_stages 2 -> 4 and 2 -> 5, the same pitfall as the cause of
  // both, became two records with one lesson.
  auto first = attempt(), second = attempt();
  at(second.doc, {"target"}).set("id", "nvidia.b200.triton.misc.anti.two-rows-per-program-t02");
  second.doc.set("seg_id", "anti-v9-01");
  auto drafts = distill::draft_run({first, second});
  REQUIRE(drafts.size() == 2);
  INFO((drafts[0].refusal ? drafts[0].refusal->why : ""));
  REQUIRE(drafts[0].record);
  REQUIRE(drafts[1].refusal);
  CHECK(drafts[1].refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(drafts[1].refusal->why, Catch::Contains("nvidia.b200.triton.misc.anti.two-rows-per-program-t01"));
  // Another cause of the same lever, in another change of its code, is a
  // lesson of its own.
  second.doc.find("agent_facing")
      ->set("the_failed_lever", "two rows per program is slower because the second row's loads wait behind the "
                                "first row's reduction barrier");
  second.code = kRowsPerProgDiff;
  auto both = distill::draft_run({first, second});
  INFO((both[1].refusal ? both[1].refusal->why : ""));
  CHECK(both[0].record);
  CHECK(both[1].record);
  // The same change of the code with the same verdict is one failed lever,
  // whatever cause each account gives (kit 36, Y04/Y05: BLOCK_S 1 -> 16
  // failing to build, named two ways).
  second.code = kRowsDiff;
  auto same_code = distill::draft_run({first, second});
  REQUIRE(same_code[1].refusal);
  CHECK_THAT(same_code[1].refusal->why, Catch::Contains("the same code change with the same verdict as "
                                                        "nvidia.b200.triton.misc.anti.two-rows-per-program-t01"));
}

TEST_CASE("an anti-strategy's advice naming a lever the run also reverted is dropped", "[distill][issue25]") {
  // Round 11: "Instead: hide latency with more warps" in a run whose own
  // attempts at 16 warps were reverted twice.
  auto rows = attempt();
  rows.doc.find("agent_facing")->set("how_it_was_fixed", "use more warps per row instead");
  auto warps = attempt();
  warps.doc.set("seg_id", "anti-v9-01");
  at(warps.doc, {"target"}).set("id", "nvidia.b200.triton.misc.anti.num-warps-16-t02");
  warps.doc.find("agent_facing")
      ->set("the_failed_lever", "num_warps 8 -> 16 is slower because cross-warp reductions then wait on a barrier");
  auto alone = distill::draft_run({rows});
  INFO((alone[0].refusal ? alone[0].refusal->why : ""));
  REQUIRE(alone[0].record);
  CHECK_THAT(alone[0].record->get("payload").string_or("lesson"),
             Catch::EndsWith(" Instead: use more warps per row instead"));
  auto run = distill::draft_run({rows, warps});
  REQUIRE(run[0].record);
  const std::string lesson = run[0].record->get("payload").string_or("lesson");
  CHECK_THAT(lesson, !Catch::Contains("Instead"));
  CHECK_THAT(lesson, Catch::EndsWith("the run reverted it."));
}

TEST_CASE("a passing correctness line is no accuracy failure and a speed gate no failed check", "[distill][issue25]") {
  // Round 12: a reverted __ldg attempt whose quality gate said "slower than
  // current best by 0.51%" and whose body said "Correctness: PASS
  // (max_abs_err 2.37e-04)" was filed as an accuracy failure with that line
  // as its cause.
  CHECK_FALSE(record::gate_failed_on_results("slower than current best by 0.51%"));
  CHECK(record::gate_failed_on_results("max_rel_err 0.031 above tolerance 0.01"));
  CHECK(record::reports_a_pass("Correctness: PASS (max_abs_err 2.37e-04)"));
  CHECK(record::reports_a_pass("It passed the 1e-2 tolerance check on every shape."));
  CHECK_FALSE(record::reports_a_pass("fp16 accumulation fails accuracy (max_abs_err 8.0e-02)"));

  auto p = fewer_warps_attempt();
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("commit_body", "num_warps 8 -> 4 for the short rows. Shapes (us): shape-1 9.22->9.12; shape-2 "
                          "174.6->176.1\nCorrectness: PASS (max_abs_err 2.37e-04)\nRationale: Fewer warps cut the "
                          "reduction's cross-warp traffic.\nNext: half2 loads");
  said.set("gate_verdict", "slower than current best by 0.51%");
  auto d = distill::draft_record(p);
  if (d.record) {
    const auto &pl = d.record->get("payload");
    CHECK(pl.string_or("verdict") != "accuracy-gate/ceiling");
    CHECK_THAT(pl.get("established_fact").string_or("mechanism"), !Catch::Contains("Correctness"));
  } else {
    REQUIRE(d.refusal);
    CHECK_THAT(d.refusal->why, !Catch::Contains("accuracy"));
  }
  // A gate that failed on the results still marks the check failed: the
  // account's accuracy cause is then the fact.
  said.set("commit_body", "num_warps 8 -> 4 for the short rows: the two-pass reduction in fp16 loses precision "
                          "and the error reaches max_abs_err 3.1e-02 on the longest rows.");
  said.set("gate_verdict", "max_abs_err 0.031 above tolerance 0.01");
  auto failed = distill::draft_record(p);
  INFO((failed.refusal ? failed.refusal->why : ""));
  if (failed.record)
    CHECK(failed.record->get("payload").string_or("verdict") == "accuracy-gate/ceiling");
  else
    CHECK_THAT(failed.refusal->why, !Catch::Contains("correctness check passed"));
}

TEST_CASE("a dead-end item takes its cause from the step's pitfall about the same lever", "[distill][issue25]") {
  // Round 13: the item said only "fails accuracy (max_abs_err 2.4)"; the
  // step's pitfall about the same lever said why.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "two rows per program (+4.6%)");
  auto pitfall = [](const char *claim, const char *explanation) {
    auto v = json::Value::object();
    v.set("pitfall", claim);
    v.set("explanation", explanation);
    return v;
  };
  auto pitfalls = json::Value::array();
  pitfalls.push_back(
      pitfall("num_warps 16 was slower", "sixteen warps leave each thread too few registers to hold the row"));
  af.set("pitfalls_recorded_here", pitfalls);
  auto none = distill::draft_record(p);
  REQUIRE(none.refusal); // the other lever's cause is not this one's
  CHECK(none.refusal->field == "payload.established_fact.mechanism");
  pitfalls.push_back(pitfall("two rows per program slowed every shape",
                             "the second row's accumulators raise register pressure until the kernel spills"));
  af.set("pitfalls_recorded_here", pitfalls);
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").get("established_fact").string_or("mechanism"),
             Catch::Contains("raise register pressure until the kernel spills"));
}

TEST_CASE("a failed setting the attempt's code does not set is not the one tried", "[distill][issue25]") {
  // Round 13: "ROWS_PER_PROG=8 12.2% slower" for an attempt that set 2.
  auto p = attempt();
  p.doc.find("agent_facing")
      ->set("the_failed_lever",
            "8 rows per program is slower because the eight rows' accumulators raise register pressure "
            "until the kernel spills");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.attempted");
  CHECK_THAT(d.refusal->why, Catch::Contains("sets that lever to 2"));
  // The value the code sets is the one stated: a fact.
  p.doc.find("agent_facing")
      ->set("the_failed_lever",
            "2 rows per program is slower because the second row's accumulators raise register pressure "
            "until the kernel spills");
  auto ok = distill::draft_record(p);
  INFO((ok.refusal ? ok.refusal->why : ""));
  CHECK(ok.record);
}

namespace {

// The attempt as a prose dead-end (no isolated lever): its change text and
// commit, its pitfalls left to the test.
distill::Packet prose_attempt(const char *change, const char *diff = kRowsDiff) {
  auto p = attempt(diff);
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", json::Value());
  auto &said = *af.find("what_the_run_said");
  said.set("change", change);
  said.set("commit_subject", "reverted: dead-end recorded");
  said.set("commit_body", change);
  said.set("gate_verdict", "geomean regression 14.00% vs current best");
  return p;
}

json::Value pitfall_of(const char *claim, const char *explanation, const char *fix = nullptr) {
  auto v = json::Value::object();
  v.set("pitfall", claim);
  v.set("explanation", explanation);
  if (fix) v.set("fix", fix);
  return v;
}

void set_pitfalls(distill::Packet &p, std::initializer_list<json::Value> pitfalls) {
  auto list = json::Value::array();
  for (const auto &x : pitfalls) list.push_back(x);
  p.doc.find("agent_facing")->set("pitfalls_recorded_here", list);
}

const char *kSpillCause = "the second row's accumulators raise register pressure until the kernel spills";

} // namespace

TEST_CASE("a dead-end's change states its lever, then why it was tried: one lever, the hope no cause",
          "[distill][issue25]") {
  // Stop 44: a generator nobody here wrote states every dead-end as "Changed
  // X 1->4. <why it should pay>."; all were refused as naming several levers.
  const char *change = "Changed ROWS 1->2. Two rows per program reuse the weight registers and halve the launch "
                       "cost because each program then covers twice the work.";
  auto hope_only = distill::draft_record(prose_attempt(change));
  REQUIRE(hope_only.refusal); // why it was tried is not why it failed
  CHECK(hope_only.refusal->field == "payload.established_fact.mechanism");
  auto p = prose_attempt(change);
  set_pitfalls(p, {pitfall_of("slower on every shape", kSpillCause)});
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  CHECK_THAT(pl.get("established_fact").string_or("mechanism"), Catch::Contains("register pressure"));
  CHECK(pl.string_or("attempted") == "ROWS 1->2");
  // Two settings in the lever's sentence, or a later sentence setting
  // another lever, are several levers.
  for (const char *several : {"Changed ROWS 1->2 + num_warps 4->8. Fewer programs.",
                              "Changed ROWS 1->2. Also num_warps 4->8 for the wider tile."}) {
    auto q = prose_attempt(several);
    set_pitfalls(q, {pitfall_of("slower on every shape", kSpillCause)});
    auto r = distill::draft_record(q);
    INFO(several);
    REQUIRE(r.refusal);
    CHECK_THAT(r.refusal->why, Catch::Contains("names several levers"));
  }
}

TEST_CASE("a failure the run puts on a defect of the attempt's code is not the lever's", "[distill][issue25]") {
  // Stop 44: "GROUP_M 8->16 fails accuracy" where the step's own pitfall
  // said "implementation bug: loop bound off by one".
  for (const char *defect : {"implementation bug: loop bound off by one",
                             "the tail mask was dropped on the store, so rows past the end are overwritten"}) {
    auto p = prose_attempt("Changed ROWS 1->2.");
    set_pitfalls(p, {pitfall_of("slower on every shape", kSpillCause), pitfall_of("wrong results", defect)});
    auto d = distill::draft_record(p);
    INFO(defect);
    REQUIRE(d.refusal);
    CHECK(d.refusal->field == "payload.verdict");
    CHECK_THAT(d.refusal->why, Catch::Contains("defect of the attempt's code"));
  }
  auto ok = prose_attempt("Changed ROWS 1->2.");
  set_pitfalls(ok, {pitfall_of("slower on every shape", kSpillCause)});
  auto d = distill::draft_record(ok);
  INFO((d.refusal ? d.refusal->why : ""));
  CHECK(d.record);
}

TEST_CASE("a fix that only says the run went back is no advice in the lesson", "[distill][issue25]") {
  auto p = prose_attempt("Changed ROWS 1->2.");
  set_pitfalls(p, {pitfall_of("slower on every shape", kSpillCause, "Reverted to an earlier step.")});
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").string_or("lesson"), !Catch::Contains("Reverted"));
  set_pitfalls(p, {pitfall_of("slower on every shape", kSpillCause, "Keep one row per program.")});
  auto advised = distill::draft_record(p);
  REQUIRE(advised.record);
  CHECK_THAT(advised.record->get("payload").string_or("lesson"), Catch::Contains("Keep one row per program"));
}

TEST_CASE("a lever the vocabulary does not know is shown by a name the attempt brings in", "[distill][issue25]") {
  const char *tanh_diff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -30,3 +30,4 @@ def kernel(x_ptr, y_ptr):
     h = x + bias
-    y = 0.5 * h * (1.0 + tl.math.erf(h * SQRT1_2))
+    inner = 0.7978845608028654 * (h + 0.044715 * h * h * h)
+    y = 0.5 * h * (1.0 + tl.math.tanh(inner))
     tl.store(y_ptr, y)
)";
  const char *cause = "the tanh form deviates from the exact erf GELU by up to 3e-3 near |x|~2, because its "
                      "polynomial approximation loses accuracy above the bf16 tolerance";
  auto p = prose_attempt("Changed the GELU to its tanh approximation.", tanh_diff);
  set_pitfalls(p, {pitfall_of("max_abs_err 3.1e-03 > atol 1e-03", cause)});
  at(*p.doc.find("agent_facing"), {"measurements", "correctness"}).set("status", "FAIL");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  // The same account over an attempt that never touches tanh: unchecked.
  auto q = prose_attempt("Changed the GELU to its tanh approximation.");
  set_pitfalls(q, {pitfall_of("max_abs_err 3.1e-03 > atol 1e-03", cause)});
  at(*q.doc.find("agent_facing"), {"measurements", "correctness"}).set("status", "FAIL");
  auto r = distill::draft_record(q);
  REQUIRE(r.refusal);
  CHECK(r.refusal->field == "payload.attempted");
}

TEST_CASE("a plan is no stated cause", "[distill][issue25]") {
  record::FactContext context;
  CHECK(record::speculative_regex().contains("Next: try split-V (few rows cannot fill the GPU)"));
  CHECK(record::speculative_regex().contains("Plan: a persistent grid, the tail wave idles SMs"));
  CHECK_FALSE(record::states_mechanism("Next: try split-V because few rows cannot fill the GPU", context));
  CHECK_FALSE(record::speculative_regex().contains("Register pressure rises until the kernel spills"));
}

TEST_CASE("a slowdown the attempt's own per-shape measurement contradicts is no failed lever", "[distill][issue25]") {
  // Stop 44: "num_stages regressed T=65536,E=64 by ~4%" on an attempt that
  // measured that shape 0.76 % faster.
  auto shape = [](const char *id, double pct, int t) {
    auto v = json::Value::object();
    v.set("shape", id);
    v.set("change_pct", pct);
    auto axes = json::Value::object();
    axes.set("T", t);
    axes.set("E", 64);
    v.set("axes", axes);
    return v;
  };
  auto with_shapes = [&](double big_shape_pct, const char *lever) {
    auto p = attempt();
    auto &af = *p.doc.find("agent_facing");
    auto shapes = json::Value::array();
    shapes.push_back(shape("shape-1", 0.7, 512));
    shapes.push_back(shape("shape-2", big_shape_pct, 65536));
    at(af, {"measurements"}).set("per_shape_vs_measured_against", shapes);
    af.set("the_failed_lever", lever);
    return distill::draft_record(p);
  };
  const char *named = "two rows per program regressed T=65536,E=64 by ~4% because the second row's accumulators "
                      "raise register pressure until the kernel spills";
  auto faster = with_shapes(-0.76, named);
  REQUIRE(faster.refusal);
  CHECK(faster.refusal->field == "payload.verdict");
  CHECK_THAT(faster.refusal->why, Catch::Contains("shape-2 -0.76 %"));
  auto slower = with_shapes(4.1, named);
  INFO((slower.refusal ? slower.refusal->why : ""));
  CHECK(slower.record);
  // Round 18: the named shape slower, but by a fraction of the figure.
  auto barely = with_shapes(1.02, named);
  REQUIRE(barely.refusal);
  CHECK_THAT(barely.refusal->why, Catch::Contains("shape-2 only 1.02 % slower"));
  // A figure without a shape: some shape must show at least half of it.
  const char *unnamed = "two rows per program is 14% slower because the second row's accumulators raise register "
                        "pressure until the kernel spills";
  auto flat = with_shapes(0.2, unnamed);
  REQUIRE(flat.refusal);
  CHECK_THAT(flat.refusal->why, Catch::Contains("no shape of the attempt measured more than 0.7 %"));
  auto borne = with_shapes(13.0, unnamed);
  INFO((borne.refusal ? borne.refusal->why : ""));
  CHECK(borne.record);
}

TEST_CASE("a next step the run took up and only ever reverted is no open direction", "[distill][issue25]") {
  // Stop 44: "Try deferred dequant" recommended by a strategy of a run whose
  // twelve attempts at it all failed their correctness check.
  auto strategy = distill::load_packet(testsupport::distill_fixtures() / "strategy-v3.json");
  auto taken_up = [](const char *direction) {
    auto list = json::Value::array();
    auto d = json::Value::object();
    d.set("direction", direction);
    list.push_back(d);
    return list;
  };
  auto failed = attempt();
  at(failed.doc, {"agent_facing", "what_the_run_said"})
      .set("directions_taken_up", taken_up("Vectorise the store with 128-bit writes."));
  auto next_of = [](const distill::Draft &d) {
    INFO((d.refusal ? d.refusal->why : ""));
    REQUIRE(d.record);
    std::vector<std::string> out;
    for (const auto &n : *d.record->get("payload").get("next_steps").as_array()) out.push_back(*n.as_string());
    return out;
  };
  const auto alone = next_of(distill::draft_run({strategy})[0]);
  CHECK(std::find(alone.begin(), alone.end(), "Vectorise the store with 128-bit writes.") != alone.end());
  const auto with_failure = next_of(distill::draft_run({strategy, failed})[0]);
  CHECK(std::find(with_failure.begin(), with_failure.end(), "Vectorise the store with 128-bit writes.") ==
        with_failure.end());
  CHECK(with_failure.size() + 1 == alone.size());
  // A kept step of the run that took it up too: still open to try.
  auto kept = distill::load_packet(testsupport::distill_fixtures() / "strategy-v5.json");
  at(kept.doc, {"agent_facing", "what_the_run_said"})
      .set("directions_taken_up", taken_up("Vectorise the store with 128-bit writes."));
  const auto with_both = next_of(distill::draft_run({strategy, failed, kept})[0]);
  CHECK(with_both.size() == alone.size());
  // Stop 47 (kit 29, R10): a next step whose every lever the run tried in
  // other words and only reverted.
  auto persistent = attempt();
  at(persistent.doc, {"agent_facing", "what_the_run_said"})
      .set("change", "enable PERSISTENT (grid-stride rows over one program per SM).");
  const auto after_persistent = next_of(distill::draft_run({strategy, persistent})[0]);
  CHECK(std::find(after_persistent.begin(), after_persistent.end(),
                  "Try a persistent grid so rows stream through resident CTAs.") == after_persistent.end());
  CHECK(after_persistent.size() + 1 == alone.size());
  // ... unless a kept change of the run names it too.
  auto kept_persistent = distill::load_packet(testsupport::distill_fixtures() / "strategy-v5.json");
  at(kept_persistent.doc, {"agent_facing", "what_the_run_said"})
      .set("change", "Persistent kernel: one program per SM.");
  CHECK(next_of(distill::draft_run({strategy, persistent, kept_persistent})[0]).size() == alone.size());
  // A kept change that names the lever by its code name keeps it too
  // ("WARPS_PER_BLOCK 4->1" is num_warps).
  auto warps_next = strategy;
  auto dirs = json::Value::array();
  auto d = json::Value::object();
  d.set("direction", "Try fewer warps per row.");
  dirs.push_back(d);
  at(warps_next.doc, {"agent_facing"}).set("open_directions", dirs);
  auto fewer = attempt();
  at(fewer.doc, {"agent_facing", "what_the_run_said"}).set("change", "num_warps 8 -> 4 for the short rows.");
  CHECK(next_of(distill::draft_run({warps_next, fewer})[0]).empty());
  auto kept_warps = distill::load_packet(testsupport::distill_fixtures() / "strategy-v5.json");
  at(kept_warps.doc, {"agent_facing", "what_the_run_said"}).set("change", "WARPS_PER_BLOCK 4->1.");
  CHECK(next_of(distill::draft_run({warps_next, fewer, kept_warps})[0]).size() == 1);
}

TEST_CASE("an attempt that never built is the toolchain's limit at that setting, not a measured loss",
          "[distill][issue25]") {
  // Round 17: "BLOCK_S 8->16 does not compile (CompilationError)" written
  // up as not-worth-it-here, "do not expect it to pay off".
  auto p = prose_attempt("Changed ROWS 1->2.");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("commit_body",
           "Changed ROWS 1->2. Build failed: triton.compiler.errors.CompilationError: at 18:8: the "
           "second row exceeds the 255-register limit (ptxas: too many resources requested for launch).");
  said.set("gate_verdict", "Attempted ROWS 1->2; triton.compiler.errors.CompilationError");
  at(p.doc, {"agent_facing", "measurements", "correctness"}).set("status", "COMPILE_FAIL");
  at(p.doc, {"agent_facing", "measurements"}).set("slower_than_tried_on_pct", json::Value());
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  CHECK(pl.string_or("verdict") == "api-limitation");
  CHECK_THAT(pl.string_or("lesson"), Catch::StartsWith("Expect ROWS 1->2 not to build"));
  CHECK_THAT(pl.string_or("lesson"), !Catch::Contains("pay off"));
  // The toolchain's report, said as observed (kit 23: an error string read
  // as a law).
  CHECK_THAT(pl.get("established_fact").string_or("mechanism"),
             Catch::StartsWith("the toolchain the run used rejected it at compile time (observed, not a derived "
                               "cause): ") &&
                 Catch::Contains("255-register limit"));
  // The same ptxas report for an AMD target is no failure of its build (kit
  // 24: an NVIDIA message behind "does not build for MI300X").
  auto amd = p;
  at(amd.doc, {"target", "scope"}).set("vendor", "amd");
  auto refused = distill::draft_record(amd);
  REQUIRE(refused.refusal);
  CHECK(refused.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(refused.refusal->why, Catch::Contains("NVIDIA toolchain (\"ptxas\") for an AMD target"));
  // Kit 38 Q01 (kit 36 Y15, kit 37 Z15): the settings the error names are
  // in the lesson, and one a shape axis sets is the fact's shape regime.
  auto padded = p;
  auto &padded_said = at(padded.doc, {"agent_facing", "what_the_run_said"});
  padded_said.set("commit_body",
                  "Changed ROWS 1->2. Build failed: triton.compiler.errors.CompilationError: at 18:8: "
                  "static_range unrolled 2x with E_PAD=256 exceeds the 255-register limit (ptxas: too many "
                  "resources requested for launch).");
  auto axes = json::Value::array();
  for (const char *a : {"T", "E"}) axes.push_back(json::Value(a));
  at(padded.doc, {"agent_facing", "operator"}).set("variable_axes", axes);
  auto e = distill::draft_record(padded);
  INFO((e.refusal ? e.refusal->why : ""));
  REQUIRE(e.record);
  CHECK_THAT(e.record->get("payload").string_or("lesson"), Catch::Contains("The toolchain's error names `E_PAD=256`."));
  CHECK(e.record->get("payload").get("established_fact").get("condition").string_or("shape_regime") == "E_PAD=256");
  // No shape axis sets it: named in the lesson only.
  axes = json::Value::array();
  axes.push_back(json::Value("M"));
  at(padded.doc, {"agent_facing", "operator"}).set("variable_axes", axes);
  auto f = distill::draft_record(padded);
  REQUIRE(f.record);
  CHECK_THAT(f.record->get("payload").string_or("lesson"), Catch::Contains("`E_PAD=256`"));
  CHECK(f.record->get("payload").get("established_fact").get("condition").get("shape_regime").is_null());
  // The plain failure names no setting.
  CHECK_THAT(pl.string_or("lesson"), !Catch::Contains("error names"));
  // Kit 29, R24: the kernel's other settings the attempt was made in; kit
  // 38, Q01: with several accounts of the lever, not pinned on them.
  auto in_kernel = p;
  in_kernel.code_after = "import triton\nimport triton.language as tl\nROWS = 2\nNUM_WARPS = 4\n\n@triton.jit\n"
                         "def k(x_ptr, ROWS: tl.constexpr):\n    for r in tl.static_range(ROWS):\n"
                         "        tl.store(x_ptr + r, 0.0)\n\n\ndef launch(x):\n"
                         "    k[(1,)](x, ROWS=ROWS, num_warps=NUM_WARPS)\n";
  auto one = distill::draft_record(in_kernel);
  INFO((one.refusal ? one.refusal->why : ""));
  REQUIRE(one.record);
  CHECK_THAT(one.record->get("payload").string_or("lesson"),
             Catch::Contains("It was tried in a kernel that sets `NUM_WARPS = 4`: the limit is that kernel's."));
  at(in_kernel.doc, {"agent_facing"}).set("accounts_of_this_lever", 2);
  auto two = distill::draft_record(in_kernel);
  REQUIRE(two.record);
  CHECK_THAT(two.record->get("payload").string_or("lesson"),
             Catch::Contains("This attempt was made in a kernel that sets `NUM_WARPS = 4`; the run's other accounts "
                             "of the lever may have been set otherwise.") &&
                 !Catch::Contains("that kernel's"));
  // A slower attempt that built stays a measured loss.
  auto slower = prose_attempt("Changed ROWS 1->2.");
  set_pitfalls(slower, {pitfall_of("slower on every shape", kSpillCause)});
  auto s = distill::draft_record(slower);
  INFO((s.refusal ? s.refusal->why : ""));
  REQUIRE(s.record);
  CHECK(s.record->get("payload").string_or("verdict") == "not-worth-it-here");
  CHECK_THAT(s.record->get("payload").string_or("lesson"), Catch::StartsWith("Do not expect ROWS 1->2"));
  CHECK_THAT(s.record->get("payload").get("established_fact").string_or("mechanism"), !Catch::Contains("toolchain"));
  // The values of the lever the run built and kept, beside the failure.
  auto kept_other = prose_attempt("Changed ROWS 1->2.");
  set_pitfalls(kept_other, {pitfall_of("slower on every shape", kSpillCause)});
  kept_other.doc.find("agent_facing")->set("kept_in_the_run_with_other_settings", json::Value::strings({"ROWS=4"}));
  auto k = distill::draft_record(kept_other);
  REQUIRE(k.record);
  CHECK_THAT(k.record->get("payload").string_or("lesson"),
             Catch::EndsWith(" Steps the run kept set it otherwise: `ROWS=4`."));
}

TEST_CASE("a shared-memory overflow is the fact of the tile its footprint is sized by", "[distill][issue25]") {
  // Kit 50, W09 (kit 52, Y06): `VEC`, `THREADS` and `SPLIT` were shown as
  // the kernel an overflow was tried in; the footprint is the tile's.
  static const char *stages_diff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -5,3 +5,3 @@ BLOCK_K = 64
-STAGES = 3
+STAGES = 4
 NUM_WARPS = 4
)";
  auto p = prose_attempt("Changed STAGES 3->4.", stages_diff);
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("commit_body", "Changed STAGES 3->4. RuntimeError: CUDA error: invalid argument -- "
                          "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 245760) exceeds the "
                          "232448-byte opt-in limit.");
  said.set("gate_verdict", "Attempted STAGES 3->4; CUDA error: shared memory over the opt-in limit");
  at(p.doc, {"agent_facing", "measurements", "correctness"}).set("status", "COMPILE_FAIL");
  at(p.doc, {"agent_facing", "measurements"}).set("slower_than_tried_on_pct", json::Value());
  p.code_after = "import triton\nimport triton.language as tl\nVEC = 8\nBLOCK_M = 128\nBLOCK_K = 64\nSTAGES = 4\n"
                 "NUM_WARPS = 4\n\n@triton.jit\ndef k(x_ptr, VEC: tl.constexpr, BLOCK_M: tl.constexpr, "
                 "BLOCK_K: tl.constexpr):\n    o = tl.arange(0, BLOCK_M * BLOCK_K * VEC)\n    for i in range(0, 4):\n"
                 "        a = tl.load(x_ptr + i * o)\n        tl.store(x_ptr + o, tl.dot(a, a))\n\n\n"
                 "def launch(x):\n    k[(1,)](x, VEC=VEC, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=NUM_WARPS, "
                 "num_stages=STAGES)\n";
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const std::string lesson = d.record->get("payload").string_or("lesson");
  CHECK_THAT(lesson, Catch::Contains("In the kernel it was tried in, its shared memory is sized by `BLOCK_M = 128` "
                                     "and `BLOCK_K = 64`: the limit is that tile's."));
  CHECK_THAT(lesson, !Catch::Contains("VEC") && !Catch::Contains("NUM_WARPS"));
  // The footprint's names are data: without them, the kernel's lever
  // settings are shown as before.
  distill::DraftRules rules = distill::DraftRules::defaults();
  rules.shared_memory_footprint = nullptr;
  auto plain = distill::draft_record(p, rules);
  REQUIRE(plain.record);
  CHECK_THAT(plain.record->get("payload").string_or("lesson"), Catch::Contains("a kernel that sets `VEC = 8`"));
}

TEST_CASE("an anti-strategy shows how many accounts of its lever the run gives", "[distill][issue25]") {
  // Kit 54, Q07: one bf16 accumulation attempt of fourteen cited, the
  // repetition unseen.
  auto p = prose_attempt("Changed ROWS 1->2.");
  set_pitfalls(p, {pitfall_of("slower on every shape", kSpillCause)});
  auto once = distill::draft_record(p);
  REQUIRE(once.record);
  CHECK_THAT(once.record->get("payload").string_or("observed"), !Catch::Contains("accounts of this lever"));
  CHECK(once.record->get("evidence").get("raw").get("evidence_extra").get("accounts_of_this_lever").is_null());
  at(p.doc, {"agent_facing"}).set("accounts_of_this_lever", 3);
  at(p.doc, {"provenance"}).set("accounts_of_this_lever", json::Value::strings({"v3", "v13", "v21"}));
  auto three = distill::draft_record(p);
  INFO((three.refusal ? three.refusal->why : ""));
  REQUIRE(three.record);
  CHECK_THAT(three.record->get("payload").string_or("observed"),
             Catch::Contains("; the run's step records give 3 accounts of this lever in all (their versions are in "
                             "evidence.raw.evidence_extra.accounts_of_this_lever)"));
  CHECK(three.record->get("evidence").get("raw").get("evidence_extra").get("accounts_of_this_lever") ==
        json::Value::strings({"v3", "v13", "v21"}));
}

TEST_CASE("the run's bookkeeping is no account that the lever gained nothing", "[distill][issue25]") {
  // Round 18: a subject "kept -> 95.5->95.2us no improvement over 94.4us"
  // made a pitfall "GROUP_M regressed ... by ~9%" a lever that gained
  // nothing, borne out by the noise.
  auto p = attempt();
  auto &af = *p.doc.find("agent_facing");
  at(af, {"what_the_run_said"}).set("commit_subject", "kept -> 95.5->95.2us no improvement over 94.4us");
  at(af, {"measurements"}).set("slower_than_tried_on_pct", 0.81);
  at(af, {"measurements"}).set("same_code_spread_pct", 4.7);
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK_THAT(d.refusal->why, Catch::Contains("inside the run's own spread"));
  // An account that does say so is still borne out by the noise.
  af.set("the_failed_lever", "two rows per program gains nothing because the second row's accumulators raise "
                             "register pressure until the kernel spills");
  auto said = distill::draft_record(p);
  INFO((said.refusal ? said.refusal->why : ""));
  CHECK(said.record);
}

TEST_CASE("an accuracy failure from dropping the definition's own case is the attempt's defect", "[distill][issue25]") {
  // Kit 23, K05: "branch-free label path" removed the `label ==
  // IGNORE_INDEX` select; ignored rows returned lse, and the record blamed
  // an out-of-row read the load's mask rules out.
  const char *dropped = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -37,3 +37,3 @@ def kernel(
     x_lab = tl.load(logits_ptr + row * stride_row + label, mask=label >= 0, other=0.0).to(tl.float32)
-    loss = tl.where(label == IGNORE_INDEX, 0.0, lse - x_lab)
+    loss = lse - x_lab.to(tl.bfloat16)  # handled by the caller
     tl.store(loss_ptr + row, loss)
)";
  const char *moved = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -37,3 +37,3 @@ def kernel(
     x_lab = tl.load(logits_ptr + row * stride_row + label, mask=label >= 0, other=0.0).to(tl.float32)
-    loss = tl.where(label == IGNORE_INDEX, 0.0, lse - x_lab)
+    loss = tl.where(label != IGNORE_INDEX, lse - x_lab.to(tl.bfloat16), 0.0)
     tl.store(loss_ptr + row, loss)
)";
  auto make = [](const char *diff) {
    auto p = attempt(diff);
    auto &af = *p.doc.find("agent_facing");
    af.set("the_failed_lever", "the label logit cast to tl.bfloat16 fails the accuracy check because bf16 rounding "
                               "of the logit exceeds the loss tolerance (max error 11.8)");
    at(af, {"operator", "fixed_axes"}).set("ignore_index", -100);
    at(af, {"measurements", "correctness"}).set("status", "FAIL");
    return p;
  };
  auto d = distill::draft_record(make(dropped));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.verdict");
  CHECK_THAT(d.refusal->why, Catch::Contains("handling of ignore_index (-100"));
  // The handling rewritten, not removed: the lever's failure stands.
  auto kept = distill::draft_record(make(moved));
  INFO((kept.refusal ? kept.refusal->why : ""));
  REQUIRE(kept.record);
  CHECK(kept.record->get("payload").string_or("verdict") == "accuracy-gate/ceiling");
}

TEST_CASE("a failed attempt shown by a plain word of its own is quoted", "[distill][issue25]") {
  // Kit 24: "enable tanh GELU" failed accuracy; its diff swaps the erf
  // polynomial for `tl.math.tanh`, and the record quoted no code.
  const char *tanh_diff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -40,4 +40,3 @@ def kernel(
         h = x + bias
-        erf = tl.math.erf(h * SQRT1_2)
-        y = 0.5 * h * (1.0 + erf)
+        y = 0.5 * h * (1.0 + tl.math.tanh(0.7978845608028654 * (h + 0.044715 * h * h * h)))
         tl.store(y_ptr + row * stride_ym + cols, y.to(tl.bfloat16), mask=mask)
)";
  auto p = prose_attempt("enable tanh GELU.", tanh_diff);
  at(p.doc, {"agent_facing", "measurements", "correctness"}).set("status", "FAIL");
  set_pitfalls(p, {pitfall_of("max_abs_err 3.1e-03 > atol 1e-03",
                              "the tanh form deviates from the erf form near |x| of 2, above the bf16 tolerance")});
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").get("implementation").string_or("snippet"), Catch::Contains("tl.math.tanh"));
}

TEST_CASE("the run's stock sentence is no cause of a failed lever", "[distill][issue25]") {
  // Kit 45, R36 and R14: a pitfall the run files on steps of many kinds
  // of change ("Seen again on this step; same root cause as before").
  auto p = attempt();
  const std::string stock = "the second row's accumulators raise register pressure until the kernel spills";
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  json::Value entry = json::Value::object();
  entry.set("text", "Because " + stock + ".");
  entry.set("steps", 2);
  entry.set("kinds", 2);
  said.set("stock_texts", json::Value(json::Array{entry}));
  // Stated on two steps: under the template's three, still this lever's.
  auto kept = distill::draft_record(p);
  INFO((kept.refusal ? kept.refusal->why : ""));
  REQUIRE(kept.record);
  entry.set("steps", 9);
  entry.set("kinds", 4);
  said.set("stock_texts", json::Value(json::Array{entry}));
  auto d = distill::draft_record(p);
  INFO((d.record ? d.record->get("payload").get("established_fact").string_or("mechanism") : std::string()));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::Contains("stock sentence") && Catch::Contains("9 steps of 4 kinds"));
}

TEST_CASE("a launch refused for shared memory is that limit, not the run's other prose", "[distill][issue25]") {
  CHECK(record::resource_named(kSmemError) == std::optional<std::string_view>("shared memory"));
  CHECK(record::resource_named("ptxas: too many resources requested for launch") ==
        std::optional<std::string_view>("registers"));
  CHECK_FALSE(record::resource_named("illegal memory access"));
  // The explanation blames something the error does not name: the quoted
  // error is the cause, said as a refused launch.
  auto refused = distill::draft_record(
      launch_refused("warp_specialize requires an async producer; the worker partition had nothing to wait on"));
  auto wrong = mechanism_of(refused);
  const auto lesson = *refused.record->get("payload").get("lesson").as_string();
  CHECK_THAT(lesson, Catch::Contains("not to launch"));
  CHECK_THAT(lesson, Catch::Contains("over the shared memory limit"));
  CHECK_THAT(wrong, Catch::StartsWith("the runtime the run used refused to launch it"));
  CHECK_THAT(wrong, Catch::Contains("245760) exceeds the 232448-byte opt-in limit"));
  CHECK_THAT(wrong, !Catch::Contains("warp_specialize"));
  // An explanation about the same resource stays the cause.
  auto right = mechanism_of(
      distill::draft_record(launch_refused("more rows per program require more shared memory than one block can have",
                                           "two rows per program did not launch")));
  CHECK_THAT(right, Catch::Contains("require more shared memory than one block"));
}

TEST_CASE("a build failure of a setting the run built and checked at another try is not the lever's",
          "[distill][issue25]") {
  // Kit 59, L02: "Expect TILE_K=64 not to build" in a run that built and
  // measured TILE_K 32->64 twice.
  auto p = prose_attempt("Changed ROWS 1->2.");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("commit_body", "Changed ROWS 1->2. Result: COMPILE_FAIL (OutOfResources: shared memory, Required: 73728, "
                          "Hardware limit: 65536)");
  said.set("gate_verdict", "OutOfResources: shared memory, Required: 73728, Hardware limit: 65536");
  at(p.doc, {"agent_facing", "measurements", "correctness"}).set("status", "COMPILE_FAIL");
  at(p.doc, {"agent_facing", "measurements"}).set("slower_than_tried_on_pct", json::Value());
  p.doc.find("agent_facing")->set("other_accounts_that_passed_correctness", 0);
  auto alone = distill::draft_record(p);
  INFO((alone.refusal ? alone.refusal->why : ""));
  REQUIRE(alone.record);
  CHECK_THAT(alone.record->get("payload").string_or("lesson"), Catch::StartsWith("Expect ROWS 1->2 not to build"));
  p.doc.find("agent_facing")->set("other_accounts_that_passed_correctness", 2);
  p.doc.find("provenance")->set("other_accounts_that_passed_correctness", json::Value::strings({"v118", "v271"}));
  auto built = distill::draft_record(p);
  REQUIRE(built.refusal);
  CHECK(built.refusal->field == "payload.verdict");
  CHECK_THAT(built.refusal->why, Catch::Contains("the account says the lever does not build, but the run tried it "
                                                 "again and that step built, ran and passed its correctness check "
                                                 "(v118)"));
}

TEST_CASE("an attempt that sets a named setting back from one a kept step won with gives that gain back",
          "[distill][issue25]") {
  // Kit 58, M19: "channel-innermost layout -> nchw" after the run kept
  // NHWC, blamed on "the layout conversion kernel".
  static const char *layout = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-LAYOUT = "nhwc"
+LAYOUT = "nchw"
 BLOCK = 4096
)";
  auto p = prose_attempt("channels_last=nchw (the layout conversion kernel on input costs more than it saves)", layout);
  auto &af = *p.doc.find("agent_facing");
  af.set("kept_in_the_run_with_other_settings", json::Value::strings({"change memory format to nhwc"}));
  p.doc.find("provenance")->set("kept_in_the_run_with_other_settings", json::Value::strings({"v6"}));
  p.doc.find("provenance")->set("version", "v7");
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.established_fact.mechanism");
  CHECK_THAT(d.refusal->why, Catch::StartsWith("the attempt sets the lever to nchw, away from the nhwc an earlier kept "
                                               "step of the run set (\"change memory format to nhwc\")"));
  // A kept step after the attempt was no gain to give back.
  p.doc.find("provenance")->set("version", "v5");
  auto before = distill::draft_record(p);
  CHECK_FALSE((before.refusal && before.refusal->why.find("given back") != std::string::npos));
}

TEST_CASE("an attempt that sets a number back to where a kept step moved it from gives that gain back",
          "[distill][issue25]") {
  // Kit 60, K16: BLOCK_D=32 after the run kept "TILE_D 32->64", blamed on
  // "128 channels with a 16-wide state blow the register file".
  static const char *rows_back = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-ROWS = 2
+ROWS = 1
 BLOCK = 4096
)";
  auto p = prose_attempt("ROWS_PER_PROG=1 (the row-per-program launch grid costs more than it saves)", rows_back);
  auto &af = *p.doc.find("agent_facing");
  af.set("kept_in_the_run_with_other_settings", json::Value::strings({"ROWS_PER_PROG 1->2"}));
  p.doc.find("provenance")->set("kept_in_the_run_with_other_settings", json::Value::strings({"v174"}));
  p.doc.find("provenance")->set("version", "v193");
  auto back = distill::draft_record(p);
  REQUIRE(back.refusal);
  CHECK_THAT(back.refusal->why, Catch::StartsWith("the attempt sets the lever to 1, away from the 2 an earlier kept "
                                                  "step of the run set (\"ROWS_PER_PROG 1->2\")"));
  // A number moved past the kept one is a new setting, not an undo.
  at(af, {"what_the_run_said"})
      .set("change", "ROWS_PER_PROG=4 (the row-per-program launch grid costs more than it saves)");
  at(af, {"what_the_run_said"})
      .set("commit_body", "ROWS_PER_PROG=4 (the row-per-program launch grid costs more than it saves)");
  p.code = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-ROWS = 2
+ROWS = 4
 BLOCK = 4096
)";
  auto past = distill::draft_record(p);
  CHECK_FALSE((past.refusal && past.refusal->why.find("given back") != std::string::npos));
}
