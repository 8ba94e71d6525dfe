// Issue 10: the claim, the code and the gain of a drafted record describe
// the same change. The snippet quotes what the change text names; a change
// that runs nothing is no strategy; a mechanism comes from the trace's own
// words; negative knowledge meets one fair bar; retrieval fields carry what
// a search would use. Built on the distill fixtures with edited texts and
// code, so each rule is seen on its own.
#include <catch2/catch.hpp>

#include "code/cxx_syntax.hpp"

#include <algorithm>

#include "config/config.hpp"
#include "diff/diff_reading.hpp"
#include "distill/diff_snippet.hpp"
#include "distill/drafter.hpp"
#include "distill/reference_kernel_code.hpp"
#include "distill_test_support.hpp"
#include "error/error.hpp"
#include "gates/admission.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "record/established_fact.hpp"
#include "json/parse.hpp"

using namespace otm;
using testsupport::at;
namespace fs = std::filesystem;

namespace {

distill::Packet fixture(const std::string &seg) {
  return distill::load_packet(testsupport::distill_fixtures() / (seg + ".json"));
}

// An attempt's diff that changes every lever these tests name (issue 25: a
// failed lever must be in the attempt's running code).
const char *kAttemptDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,4 +3,4 @@ import triton
-VEC = 4
+VEC = 2
 BLOCK = 4096
-LAYOUT = SliceLayout(0, PARENT)
+LAYOUT = BlockedLayout([2], [32], [4], [0])
@@ -12,6 +12,7 @@ def softmax_kernel(out_ptr, in_ptr, n_cols, scale, BLOCK: tl.constexpr):
     row = tl.program_id(0)
-    x = tl.load(in_ptr + row * n_cols + tl.max_contiguous(offs, VEC))
+    desc = tl.make_tensor_descriptor(in_ptr, [n_cols], [1], [BLOCK])
+    x = desc.load([row * n_cols]).reshape([BLOCK // VEC, VEC])
-    e = tl.exp(x - tl.max(x, 0))
+    e = tl.math.fast_expf(x - tl.max(x, 0))
     tl.store(out_ptr + row * n_cols + offs, e / tl.sum(e, 0))
)";

distill::Packet attempt(const std::string &seg, const char *diff = kAttemptDiff) {
  auto p = fixture(seg);
  p.code = diff;
  p.code_after.clear();
  return p;
}

// Attempts that change one lever each: an attempt that also moves another
// lever's setting is no fact about one lever (issue 25).
const char *kFastExpDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -14,3 +14,3 @@ def softmax_kernel(out_ptr, in_ptr, n_cols, scale, BLOCK: tl.constexpr):
     x = tl.load(in_ptr + row * n_cols + tl.max_contiguous(offs, VEC))
-    e = tl.exp(x - tl.max(x, 0))
+    e = tl.math.fast_expf(x - tl.max(x, 0))
     tl.store(out_ptr + row * n_cols + offs, e / tl.sum(e, 0))
)";
const char *kLayoutOnlyDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -4,3 +4,3 @@ import triton
 BLOCK = 4096
-LAYOUT = SliceLayout(0, PARENT)
+LAYOUT = BlockedLayout([2], [32], [4], [0])
 PARENT = None
)";
const char *kTmaOnlyDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -12,4 +12,5 @@ def softmax_kernel(out_ptr, in_ptr, n_cols, scale, BLOCK: tl.constexpr):
     row = tl.program_id(0)
-    x = tl.load(in_ptr + row * n_cols + offs)
+    desc = tl.make_tensor_descriptor(in_ptr, [n_cols], [1], [BLOCK])
+    x = desc.load([row * n_cols])
     e = tl.exp(x - tl.max(x, 0))
)";
const char *kVecOnlyDiff = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
-VEC = 4
+VEC = 2
 BLOCK = 4096
@@ -12,3 +12,3 @@ def softmax_kernel(out_ptr, in_ptr, n_cols, scale, BLOCK: tl.constexpr):
     row = tl.program_id(0)
     x = tl.load(in_ptr + row * n_cols + tl.max_contiguous(offs, VEC))
     e = tl.exp(x - tl.max(x, 0))
)";

// A diff of kernel.py whose first hunk changes only the docstring, a version
// comment and an unrelated constant, whose second changes a comment only,
// and whose third changes the launch (BLOCK_SIZE and num_warps).
const char *kTuningDiff = R"(diff --git a/kernel.py b/kernel.py
index 1111111..2222222 100644
--- a/kernel.py
+++ b/kernel.py
@@ -1,9 +1,9 @@
 """RMSNorm over 8192-wide rows.
 
-Tuning log: rows streamed once.
+Tuning log: wider blocks for the long rows.
 """
-# revision 41
+# revision 42
 import triton
-_WARMUP = 25
+_WARMUP = 30
 
@@ -20,6 +20,7 @@ def rmsnorm_kernel(x_ptr, y_ptr, w_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr):
     offs = tl.arange(0, BLOCK_SIZE)
     x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
+    # the sum stays in fp32
     ss = tl.sum(x * x, axis=0)
     r = tl.rsqrt(ss / n_cols + eps)
     tl.store(y_ptr + row * n_cols + offs, x * r, mask=offs < n_cols)
@@ -40,5 +41,5 @@ def rmsnorm(x, w, eps):
     y = torch.empty_like(x)
     grid = (x.shape[0],)
-    rmsnorm_kernel[grid](x, y, w, x.shape[1], eps, BLOCK_SIZE=64, num_warps=4)
+    rmsnorm_kernel[grid](x, y, w, x.shape[1], eps, BLOCK_SIZE=128, num_warps=8)
     return y
)";

const char *kCommentOnlyDiff = R"(diff --git a/kernel.py b/kernel.py
index 1111111..2222222 100644
--- a/kernel.py
+++ b/kernel.py
@@ -1,6 +1,7 @@
 """Fused row softmax.
 
-Step notes: the row stays in registers.
+Step notes: cache-blocked tiling, two halves per row.
 """
+# cache-blocked tiling: two 2048-wide halves keep each tile in registers
 KERNEL_VERSION = 10
-KERNEL_VERSION = 9
)";

const char *kDeadCodeDiff = R"(diff --git a/kernel.py b/kernel.py
index 1111111..2222222 100644
--- a/kernel.py
+++ b/kernel.py
@@ -20,6 +20,12 @@ def softmax_kernel(x_ptr, y_ptr, n_rows, BLOCK: gl.constexpr):
         gl.store(y_ptr + row * BLOCK + cols, e * inv)
 
 
+@gluon.jit
+def _loader_partition(x_ptr, n_rows, BLOCK: gl.constexpr):
+    # producer warp: streams rows ahead of the compute warps
+    pass
+
+
 def softmax(x):
     y = torch.empty_like(x)
-    softmax_kernel[grid](x, y, n_rows, BLOCK=4096, num_warps=4)
+    softmax_kernel[grid](x, y, n_rows, BLOCK=4096, num_warps=8)
     return y
)";

distill::Packet strategy_with(const std::string &diff, const std::string &change) {
  auto p = fixture("strategy-v3");
  p.code = diff;
  at(p.doc, {"agent_facing", "what_the_run_said"}).set("change", change);
  json::Value from = json::Value::object(), to = json::Value::object();
  from.set("version", "v7");
  from.set("git_commit", std::string(40, 'a'));
  to.set("version", "v10");
  to.set("git_commit", std::string(40, 'b'));
  at(p.doc, {"provenance"}).set("diff_from", from);
  at(p.doc, {"provenance"}).set("diff_to", to);
  return p;
}

std::string snippet_of(const distill::Draft &d) {
  REQUIRE(d.record);
  return d.record->get("payload").get("implementation").string_or("snippet");
}

// otm-gate-substance on a drafted strategy whose snippet is `snippet`, with
// the packet's whole diff and (when given) the kernel after the change.
gates::GateResult substance_of(const std::string &snippet, const char *diff, const char *after) {
  static const json::Value rec = *distill::draft_record(strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128.")).record;
  gates::PacketEntry pe;
  pe.seg_id = "strategy-v3";
  pe.file = "packets/strategy-v3.json";
  pe.packet = fixture("strategy-v3").doc;
  pe.packet.find("target")->set("id", rec.get("id"));
  pe.code_text = diff;
  pe.code_after = after ? after : "";
  json::Value r = rec;
  at(r, {"payload", "implementation"}).set("snippet", snippet);
  return gates::gate_substance(gates::context_for_record(r, "records/x.json", pe));
}

// A packet's `kept_changes_of_its_lineage`: [{"change": c}, ...].
json::Value lineage_of(const std::vector<std::string> &changes) {
  json::Value lineage = json::Value::array();
  for (const auto &c : changes) {
    json::Value o = json::Value::object();
    o.set("change", c);
    lineage.push_back(o);
  }
  return lineage;
}

// What a reference kernel's record says it builds on, drafted from `p`
// with `changes` as its lineage.
std::string builds_on_with(distill::Packet p, const std::vector<std::string> &changes) {
  testsupport::at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", lineage_of(changes));
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  return d.record->get("payload").get("trace").get("builds_on").string_or("approach");
}

} // namespace

TEST_CASE("the snippet quotes the hunk that changes what the change text names", "[distill][claims]") {
  auto diff = diff::read_diff(kTuningDiff);
  REQUIRE(diff.hunks.size() == 3);
  CHECK(diff.hunks[0].running_lines() == 2); // only the unrelated constant runs
  CHECK(diff.hunks[1].running_lines() == 0); // a comment
  CHECK(diff.hunks[2].running_lines() == 2);
  auto s = distill::choose_diff_hunks(diff, "BLOCK_SIZE 64 -> 128 so each program covers a whole row.");
  REQUIRE(s);
  CHECK(s->hunks_quoted == 1);
  CHECK_THAT(s->text, Catch::Contains("+    rmsnorm_kernel[grid](x, y, w, x.shape[1], eps, BLOCK_SIZE=128"));
  CHECK_THAT(s->text, !Catch::Contains("Tuning log") && !Catch::Contains("_WARMUP"));
  CHECK(s->names == std::vector<std::string>{"BLOCK_SIZE"});
  // A comment-only hunk is never chosen, whatever it names.
  auto c = distill::choose_diff_hunks(diff, "the sum stays in fp32");
  REQUIRE(c);
  CHECK_THAT(c->text, !Catch::Contains("# the sum stays in fp32"));
}

TEST_CASE("a changed line that runs for nothing at the snippet's edge is left out", "[distill][claims]") {
  // Kit 35, X11: `+_SWEEP_NUM_WARPS = 1` heading a num_warps change.
  const std::string d = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                        "@@ -1,6 +1,7 @@\n"
                        "+_SWEEP_NUM_WARPS = 1\n"
                        " TOPK = 8\n"
                        " ROWS = 4\n"
                        "-NUM_WARPS = 4\n"
                        "+NUM_WARPS = 1\n"
                        " \n"
                        " def launch(x):\n"
                        "     k[(1,)](x, TOPK, ROWS, num_warps=NUM_WARPS)\n";
  const std::string after = "_SWEEP_NUM_WARPS = 1\nTOPK = 8\nROWS = 4\nNUM_WARPS = 1\n\n"
                            "def launch(x):\n    k[(1,)](x, TOPK, ROWS, num_warps=NUM_WARPS)\n";
  auto diff = diff::read_diff(d, after);
  auto s = distill::choose_diff_hunks(diff, "warps 4->1: one warp holds the row.");
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::StartsWith(" TOPK = 8\n ROWS = 4\n-NUM_WARPS = 4\n+NUM_WARPS = 1\n"));
  CHECK_THAT(s->text, !Catch::Contains("_SWEEP_NUM_WARPS"));
}

TEST_CASE("autotune configs are quoted with the launch hunk that drops the keywords they set", "[distill][claims]") {
  // Kits 50 and 53, W07, Z03: the decorator alone, pasted over a launch
  // still passing `BLOCK_KV=32, num_warps=4`, is rejected by Triton.
  std::string d = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                  "@@ -6,2 +6,8 @@ import triton\n"
                  " import triton.language as tl\n"
                  " \n"
                  "+@triton.autotune(\n"
                  "+    configs=[\n"
                  "+        triton.Config({'BLOCK_KV': 16}, num_warps=2, num_stages=2),\n"
                  "+        triton.Config({'BLOCK_KV': 32}, num_warps=4, num_stages=2),\n"
                  "+    ],\n"
                  "+    key=['S'])\n"
                  " @triton.jit\n"
                  " def k(x, S, BLOCK_KV: tl.constexpr):\n"
                  "@@ -40,3 +46,3 @@ def k(x, S, BLOCK_KV: tl.constexpr):\n"
                  "-    scale = tl.load(x).to(tl.float32)\n"
                  "+    scale = tl.load(x).to(tl.float16)\n"
                  "     tl.store(x, scale)\n"
                  "@@ -60,3 +66,2 @@ def launch(x):\n"
                  "     S = x.shape[0]\n"
                  "-    k[(1,)](x, S,\n"
                  "-        BLOCK_KV=32, num_warps=4, num_stages=2)\n"
                  "+    k[(1,)](x, S)\n";
  auto diff = diff::read_diff(d);
  auto s = distill::choose_diff_hunks(diff, "add @triton.autotune over neighbouring tile/warp configs");
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+@triton.autotune(") && Catch::Contains("-        BLOCK_KV=32, num_warps=4") &&
                          Catch::Contains("+    k[(1,)](x, S)"));
  CHECK_THAT(s->text, !Catch::Contains("tl.float16"));
  // A launch hunk that drops no keyword the configs set is another change.
  const std::string kept_keywords = "-        BLOCK_KV=32, num_warps=4, num_stages=2)\n";
  d.replace(d.find(kept_keywords), kept_keywords.size(), "-        GRID_HINT=1)\n");
  auto other =
      distill::choose_diff_hunks(diff::read_diff(d), "add @triton.autotune over neighbouring tile/warp configs");
  REQUIRE(other);
  CHECK_THAT(other->text, Catch::Contains("+@triton.autotune(") && !Catch::Contains("GRID_HINT"));
}

TEST_CASE("names the change text splits over two hunks are both quoted, with their headers", "[distill][claims]") {
  auto diff = diff::read_diff(kTuningDiff);
  auto s = distill::choose_diff_hunks(diff, "num_warps=4 -> 8 and a longer _WARMUP for the bench.");
  REQUIRE(s);
  CHECK(s->hunks_quoted == 2);
  CHECK_THAT(s->text, Catch::StartsWith("@@ -1,9 +1,9 @@") && Catch::Contains("\n@@ -40,5 +41,5 @@"));
  CHECK(s->names == std::vector<std::string>{"num_warps", "_WARMUP"});
}

TEST_CASE("a function the diff adds and nothing calls is no running change", "[distill][claims]") {
  auto dead = diff::read_diff(kDeadCodeDiff);
  CHECK(dead.dead_definitions == std::vector<std::string>{"_loader_partition"});
  CHECK(dead.running_lines() == 2); // the num_warps line, both sides
  std::string called = kDeadCodeDiff;
  called.replace(called.find("+    softmax_kernel[grid]"), 4, "+    gl.warp_specialize(_loader_partition)\n+   ");
  CHECK(diff::read_diff(called).dead_definitions.empty());

  // The change text describes the dead function: the gain is not its.
  auto d = distill::draft_record(
      strategy_with(kDeadCodeDiff, "A producer warp partition streams the next row while the compute warps reduce."));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.change");
  CHECK_THAT(d.refusal->why, Catch::Contains("`_loader_partition`") && Catch::Contains("between v7 and v10"));
  // The same diff credited to what it really changes is a strategy.
  auto ok = distill::draft_record(strategy_with(kDeadCodeDiff, "num_warps 4 -> 8 for the 4096-wide rows."));
  CHECK_THAT(snippet_of(ok), Catch::Contains("+    softmax_kernel[grid](x, y, n_rows, BLOCK=4096, num_warps=8)"));
}

TEST_CASE("no change, no strategy: a diff that runs nothing new is refused with its range", "[distill][claims]") {
  auto d = distill::draft_record(strategy_with(kCommentOnlyDiff, "Cache-blocked tiling of the row into two halves."));
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::StartsWith("no code change between v7 and v10"));
  auto none = strategy_with("", "Cache-blocked tiling of the row into two halves.");
  none.doc.find("agent_facing")->set("diff_file", json::Value());
  auto n = distill::draft_record(none);
  REQUIRE(n.refusal);
  CHECK(n.refusal->why == "no code change between v7 and v10");
}

TEST_CASE("a strategy's mechanism is the trace's own reason, in a fixed order", "[distill][claims]") {
  auto p = strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128 so each program covers a whole 8192-wide row.");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  auto &prof = at(p.doc, {"agent_facing", "profiler"});
  prof.set("conclusion", "# ncu capture this step\n\nDRAM throughput 88% of peak.\nNo stall reason above 5%, so the "
                         "loads are bandwidth-bound.\n| metric | value |\n|---|---|\n| dram (%) | 88 |\n## Next\n"
                         "Raise memory-level parallelism so the loads overlap.");
  json::Value up = json::Value::object();
  up.set("direction", "wider blocks");
  up.set("rationale", "half of the programs idle on the 8192-wide rows");
  said.set("directions_taken_up", json::Value(json::Array{up}));
  said.set("expected_impact", "one program per row instead of two");
  said.set("causal_sentences", json::Value::strings({"Each row is one program now, so the partial sums stay put."}));
  auto mech = [&]() { return distill::draft_record(p).record->get("payload").string_or("mechanism"); };
  CHECK(mech() == "Each row is one program now, so the partial sums stay put.");
  said.set("causal_sentences", json::Value::array());
  CHECK(mech() == "one program per row instead of two");
  said.set("expected_impact", json::Value());
  // A capture's state ("the loads are bandwidth-bound") is no cause of the
  // change (round 14): the direction's rationale is next.
  CHECK(mech() == "half of the programs idle on the 8192-wide rows");
  // Its causal sentence that compares before and after is: not the state
  // it reports, the table, or the "Next" section's direction.
  prof.set("conclusion", "# ncu capture this step\n\nDRAM throughput 88% of peak.\nStall cycles drop from 41% to "
                         "12%, so the loads overlap.\n| metric | value |\n|---|---|\n| dram (%) | 88 |\n## Next\n"
                         "Raise memory-level parallelism so the loads overlap.");
  CHECK(mech() == "Stall cycles drop from 41% to 12%, so the loads overlap.");
  // ... or that names the lever the change claims.
  prof.set("conclusion", "With a block size of 128 no stall reason is above 5%, so the loads are bandwidth-bound.");
  CHECK(mech() == "With a block size of 128 no stall reason is above 5%, so the loads are bandwidth-bound.");
  prof.set("conclusion", "# ncu capture this step\nDRAM throughput 88% of peak.\n## Next\nRaise it so loads overlap.");
  CHECK(mech() == "half of the programs idle on the 8192-wide rows");
  prof.set("conclusion", json::Value());
  CHECK(mech() == "half of the programs idle on the 8192-wide rows");
  // Round 13: a rationale shorter than a causal sentence is a label.
  json::Value label = json::Value::object();
  label.set("direction", "THREADS=128");
  label.set("rationale", "Occupancy tuning.");
  said.set("directions_taken_up", json::Value(json::Array{label, up}));
  CHECK(mech() == "half of the programs idle on the 8192-wide rows");
  // Round 14: a rationale about a lever the step does not claim (warps, for
  // a block-size change) is no reason of this step's.
  json::Value warps = json::Value::object();
  warps.set("direction", "more warps");
  warps.set("rationale", "More warps per row raise memory-level parallelism; fewer warps cut reduction overhead.");
  said.set("directions_taken_up", json::Value(json::Array{warps, up}));
  CHECK(mech() == "half of the programs idle on the 8192-wide rows");
  said.set("directions_taken_up", json::Value(json::Array{warps}));
  CHECK(mech() == "each program covers a whole 8192-wide row");
  // One about the block size the step claims is.
  warps.set("rationale", "A block size of 128 covers the whole row, so no second pass reads it again.");
  said.set("directions_taken_up", json::Value(json::Array{warps}));
  CHECK(mech() == "A block size of 128 covers the whole row, so no second pass reads it again.");
  said.set("directions_taken_up", json::Value::array());
  CHECK(mech() == "each program covers a whole 8192-wide row"); // the cause the change gives, not the lever again
  // A dash opens the clause giving the reason too; a "Why:" label is dropped.
  said.set("change", "BLOCK_SIZE 64 -> 128 \xE2\x80\x94 one program per row removes the second pass over it");
  CHECK(mech() == "one program per row removes the second pass over it");
  said.set("causal_sentences", json::Value::strings({"Why: the partial sums stay in registers, so no second pass."}));
  CHECK(mech() == "the partial sums stay in registers, so no second pass.");
  // A template filled with a missing value is skipped for the next source.
  said.set("causal_sentences", json::Value::strings({"None rows per program double the loads in flight, so the "
                                                     "latency hides.",
                                                     "None of the rows spill, so the loads stay in registers."}));
  CHECK(mech() == "None of the rows spill, so the loads stay in registers.");
}

TEST_CASE("retrieval fields: tags from the change, triggers from symptoms, cost from code", "[distill][claims]") {
  auto p = strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128 and num_warps 4 -> 8 for the long rows.");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("category_hint", "launch_config");
  said.set("causal_sentences",
           json::Value::strings({"Half the SMs sat in a partial last wave, so wider blocks halve the grid."}));
  auto d = distill::draft_record(p);
  REQUIRE(d.record);
  const auto &ret = d.record->get("retrieval");
  auto tags = ret.get("technique_tags");
  for (const char *t : {"num-warps-tuning", "block-size-tuning", "block-size", "num-warps"})
    CHECK(std::count(tags.as_array()->begin(), tags.as_array()->end(), json::Value(t)) == 1);
  // The step's category is not what the change does (issue 25).
  CHECK(std::count(tags.as_array()->begin(), tags.as_array()->end(), json::Value("launch-config")) == 0);
  CHECK(ret.get("signals").get("symptoms") == json::Value::strings({"partial-wave"}));
  CHECK(ret.get("triggers") ==
        json::Value::strings({"Half the SMs sat in a partial last wave, so wider blocks halve the grid."}));
  // Two running lines in the launch hunk, two in the constant's; the
  // docstring, comment and version-comment lines count for nothing.
  const auto &cost = d.record->get("payload").get("cost");
  CHECK(cost.string_or("edit_scope") == "kernel-rewrite");
  auto one = strategy_with(kDeadCodeDiff, "num_warps 4 -> 8 for the 4096-wide rows.");
  CHECK(distill::draft_record(one).record->get("payload").get("cost").string_or("edit_scope") == "one-line");
}

// A Gluon layout change: the size per thread goes 4 -> 2; `num_warps` is
// passed through unchanged on the same line.
const char *kLayoutDiff = R"(diff --git a/kernel.py b/kernel.py
index 1111111..2222222 100644
--- a/kernel.py
+++ b/kernel.py
@@ -10,4 +10,4 @@ N_COLS = 8192
 def softmax_kernel(x_ptr, y_ptr, n_rows, BLOCK_SIZE: gl.constexpr, num_warps: gl.constexpr):
-    layout: gl.constexpr = gl.BlockedLayout([4], [32], [num_warps], [0])
+    layout: gl.constexpr = gl.BlockedLayout([2], [32], [num_warps], [0])
     cols = gl.arange(0, BLOCK_SIZE, layout=layout)
)";

TEST_CASE("a keyword a rewritten launch passes the same way before and after is not changed", "[distill][claims]") {
  // Stop 44: a launch rewritten for a fused kernel, its lines paired out of
  // step, was read as changing `BLOCK_H` and `num_warps`.
  auto diff = diff::read_diff("@@ -1,4 +1,5 @@\n"
                              "-    kernel[grid](t, cos, n, t.stride(-3),\n"
                              "-        HALF=D // 2, BLOCK_S=BLOCK_S, BLOCK_H=BLOCK_H,\n"
                              "-        VEC=VEC, num_warps=NUM_WARPS)\n"
                              "+    fused[grid](q, k, cos, n, q.stride(-3),\n"
                              "+        k.stride(-3), HALF=D // 2, BLOCK_S=BLOCK_S,\n"
                              "+        BLOCK_H=BLOCK_H, VEC=VEC,\n"
                              "+        num_warps=NUM_WARPS)\n");
  CHECK_FALSE(diff::changes_name(diff, "BLOCK_H"));
  CHECK_FALSE(diff::changes_name(diff, "num_warps"));
  CHECK(diff::changes_name(diff, "fused"));
  // Bound to another value, or only on one side: changed.
  auto retuned = diff::read_diff("@@ -1,2 +1,3 @@\n"
                                 "-    kernel[grid](t, BLOCK_H=BLOCK_H,\n"
                                 "-        num_warps=NUM_WARPS)\n"
                                 "+    kernel[grid](t, BLOCK_H=BLOCK_H,\n"
                                 "+        BLOCK_S=4,\n"
                                 "+        num_warps=8)\n");
  CHECK(diff::changes_name(retuned, "num_warps"));
  CHECK(diff::changes_name(retuned, "BLOCK_S"));
  CHECK_FALSE(diff::changes_name(retuned, "BLOCK_H"));
}

TEST_CASE("a name a changed line only passes through is not what the change tunes", "[distill][claims]") {
  auto diff = diff::read_diff(kLayoutDiff);
  REQUIRE(diff.hunks.size() == 1);
  REQUIRE(diff.hunks[0].running.size() == 2);
  // The changed part of each line, after the name that owns it.
  CHECK(diff.hunks[0].running[0].changed == "gl.BlockedLayout 4");
  CHECK(diff.hunks[0].running[1].changed == "gl.BlockedLayout 2");
  CHECK(diff::changes_name(diff, "BlockedLayout"));
  CHECK_FALSE(diff::changes_name(diff, "num_warps"));
  auto tuning = diff::read_diff(kTuningDiff);
  CHECK(diff::changes_name(tuning, "num_warps")); // num_warps=4 -> num_warps=8
  CHECK(diff::changes_name(tuning, "BLOCK_SIZE"));
  auto define = diff::read_diff("@@ -1,1 +1,1 @@\n-#define UNROLL 2\n+#define UNROLL 1\n");
  CHECK(diff::changes_name(define, "UNROLL")); // a value right after its name
  CHECK_FALSE(diff::changes_name(define, "define"));
  // A name the rewritten lines use on both sides as an operand is passed
  // through; a call the diff introduces is changed.
  auto rewrite = diff::read_diff("@@ -1,3 +1,4 @@\n"
                                 "-    for (int s = THREADS / 2; s > 0; s >>= 1) {\n"
                                 "-        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];\n"
                                 "+    const float w = __shfl_xor_sync(0xffffffff, v, 16);\n"
                                 "+    if (threadIdx.x == 0) {\n"
                                 "+        for (int w = 1; w < THREADS / 32; ++w) partial[0] += partial[w];\n"
                                 "     }\n");
  CHECK_FALSE(diff::changes_name(rewrite, "THREADS"));
  CHECK(diff::changes_name(rewrite, "__shfl_xor_sync"));
  // A definition changes the name it defines, paired or not.
  auto constant = diff::read_diff("@@ -1,2 +1,2 @@\n-constexpr int THREADS = 64;\n+constexpr int THREADS = 128;\n"
                                  " x = 1\n-y = THREADS / 2\n");
  CHECK(diff::changes_name(constant, "THREADS"));
  auto annotated = diff::read_diff("@@ -1,1 +1,1 @@\n-    UNROLL: tl.constexpr = 1,\n+    UNROLL: tl.constexpr = 2,\n");
  CHECK(diff::changes_name(annotated, "UNROLL"));
  CHECK(diff::is_code_name("num_warps"));
  CHECK_FALSE(diff::is_code_name("warps per row"));
  CHECK_FALSE(diff::is_code_name("BLOCK_SIZE 64 -> 128")); // a phrase a user's vocabulary matched

  auto p = strategy_with(kLayoutDiff,
                         "BlockedLayout([2], [32], [num_warps], [0]) so each thread owns 2 contiguous elements.");
  auto d = distill::draft_record(p);
  REQUIRE(d.record);
  auto tags = d.record->get("retrieval").get("technique_tags");
  auto has = [&](const char *t) {
    return std::count(tags.as_array()->begin(), tags.as_array()->end(), json::Value(t)) == 1;
  };
  CHECK(has("explicit-layout"));
  CHECK(has("blockedlayout"));
  CHECK_FALSE(has("num-warps-tuning"));
  CHECK_FALSE(has("num-warps"));
}

TEST_CASE("negative knowledge: one fair bar for drafter, pre-check and gate", "[distill][claims]") {
  record::FactContext triton{"triton", {{"N", "4096"}, {"dtype", "bfloat16"}}, false};
  // British spelling names a cause.
  const char *british = "An unswizzled scratch of num_warps floats serialises the cross-warp max on every row.";
  CHECK(record::states_mechanism(british, triton));
  CHECK(record::states_mechanism("An unswizzled scratch of num_warps floats serializes the cross-warp max.", triton));
  // The toolchain and the fixed dtype are the condition when the text names
  // none; the other fixed axes hold for every shape and decide nothing.
  auto c = record::fact_condition({british}, triton);
  CHECK(c.toolchain == "triton");
  CHECK(c.shape_regime.empty());
  CHECK(c.dtype == "bfloat16");
  // A row of per-shape measurements names no condition (stop 44: "M=256").
  CHECK(record::fact_condition({"Per-shape: M=256,N=4096 3.10->3.21us; M=2048,N=11008 40.1->41.0us."}, triton)
            .shape_regime.empty());
  CHECK(record::fact_condition({"Fails at N=16384 only."}, triton).shape_regime == "N=16384");
  CHECK(record::fact_condition({"Slower on H100 in fp16."}, triton).sm_arch == "H100");
  // A Gluon kernel's error names Triton's compiler: the toolchain is Gluon.
  record::FactContext gluon{"gluon", {}, false};
  CHECK(
      record::fact_condition({"triton.compiler.errors.CompilationError: register budget exceeded"}, gluon).toolchain ==
      "gluon");
  CHECK(
      record::fact_condition({"triton.compiler.errors.CompilationError: register budget exceeded"}, triton).toolchain ==
      "triton");
  CHECK(record::fact_condition({"Slower on H100 in fp16."}, triton).dtype == "fp16");
  CHECK(record::fact_condition({british}, {}).empty());
  // An accuracy failure is a cause only when the correctness check failed.
  const char *accuracy = "its relative error grows to about 3e-6 at x = -20, above the 1e-6 tolerance";
  CHECK_FALSE(record::states_mechanism(accuracy, triton));
  record::FactContext failed = triton;
  failed.correctness_failed = true;
  CHECK(record::states_mechanism(accuracy, failed));
  // Round 13: a pitfall's "dot products in fp16 drift well beyond atol".
  const char *drift = "K=8192+ dot products in fp16 drift well beyond atol.";
  CHECK(record::states_mechanism(drift, failed));
  CHECK_FALSE(record::states_mechanism(drift, triton));
  // The pre-check gets the same context.
  CHECK(record::fact_precheck("it was slower and we stopped there") == "no checkable condition and no cause");
  CHECK(record::fact_precheck("it was slower and we stopped there", triton) == "ok");
  CHECK(record::fact_precheck("flat within noise on every shape we tried", triton) ==
        "reports a measurement, names no cause");
  CHECK(record::fact_precheck("flat within noise, and the tolerance broke", failed) == "ok");
}

TEST_CASE("an accuracy failure with correctness FAIL is a fact with its verdict", "[distill][claims]") {
  auto p = attempt("anti-v4-01", kFastExpDiff);
  auto &af = *p.doc.find("agent_facing");
  af.set("the_failed_lever", "fast_expf fails the accuracy gate. its relative error grows with the argument, to about "
                             "3e-6 at x = -20, above the 1e-6 tolerance");
  af.set("how_it_was_fixed", "revert to tl.exp");
  auto pass = distill::draft_record(p);
  REQUIRE(pass.refusal); // no cause while the check passed
  at(af, {"measurements", "correctness"}).set("status", "FAIL");
  at(af, {"measurements", "correctness"}).set("max_abs_err", 0.0031);
  auto d = distill::draft_record(p);
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  CHECK(pl.string_or("verdict") == "accuracy-gate/ceiling");
  // The cause's figure is the run's arithmetic, said as the run's (kits
  // 33-35: "deviates by up to 3e-3" where the maths gives 4.7e-4).
  CHECK_THAT(pl.get("established_fact").string_or("mechanism"),
             Catch::StartsWith("the run's account, whose figures otm did not derive: its relative error"));
  CHECK_THAT(pl.string_or("observed"), Catch::StartsWith("correctness FAIL (max_abs_err 0.0031"));
  // A cause without a figure is given as it is.
  af.set("the_failed_lever", "fast_expf fails the accuracy gate. its relative error grows with the magnitude of the "
                             "argument, past the run's tolerance for large negative inputs");
  auto plain = distill::draft_record(p);
  REQUIRE(plain.record);
  CHECK_THAT(plain.record->get("payload").get("established_fact").string_or("mechanism"),
             Catch::StartsWith("its relative error"));
}

TEST_CASE("what was attempted is the lever, the sentence with its cause is the mechanism", "[distill][claims]") {
  auto p = attempt("anti-v4-01", kLayoutOnlyDiff);
  auto &af = *p.doc.find("agent_facing");
  const std::string lever = "BlockedLayout size_per_thread 1 -> 2 gains nothing because the rows are already "
                            "coalesced and bandwidth-bound";
  af.set("the_failed_lever", lever);
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  CHECK(pl.string_or("attempted") == "BlockedLayout size_per_thread 1 -> 2");
  CHECK(pl.get("established_fact").string_or("mechanism") == lever);
  CHECK_FALSE(pl.contains("observed"));
  // The predicate judging the lever and the figure the run stated beside
  // it are not the lever; the figure is what was observed.
  af.set("the_failed_lever", "VEC 4 -> 2 row loads cannot keep the memory pipe full because each thread issues "
                             "narrower loads (+4.0%)");
  p.code = kVecOnlyDiff;
  auto judged = distill::draft_record(p);
  REQUIRE(judged.record);
  CHECK(judged.record->get("payload").string_or("attempted") == "VEC 4 -> 2 row loads");
  CHECK(judged.record->get("payload").string_or("observed") == "the run recorded +4.0% for this lever");
  af.set("the_failed_lever", "TMA descriptor loads gain nothing for one row per program (latency-bound)");
  p.code = kTmaOnlyDiff;
  auto no_cause = distill::draft_record(p);
  INFO((no_cause.refusal ? no_cause.refusal->why : ""));
  REQUIRE(no_cause.record);
  CHECK(no_cause.record->get("payload").string_or("attempted") == "TMA descriptor loads");
  // Too little left before the cause: the whole lever is what was attempted.
  af.set("the_failed_lever", "TMA fails because one row per program leaves the descriptor loads latency-bound");
  auto short_head = distill::draft_record(p);
  REQUIRE(short_head.record);
  CHECK(short_head.record->get("payload").string_or("attempted") ==
        "TMA fails because one row per program leaves the descriptor loads latency-bound");
}

TEST_CASE("a prose dead-end with one lever and a stated cause is written up", "[distill][claims]") {
  auto p = fixture("anti-v6-01");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("change", "Split into a stats kernel and a normalise kernel.");
  said.set("commit_subject", "reverted. Tried a two-kernel split to overlap with the previous layer; the extra "
                             "launch and the second read of the row cost more than the overlap saved");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &pl = d.record->get("payload");
  CHECK(pl.string_or("attempted") == "Split into a stats kernel and a normalise kernel");
  CHECK_THAT(pl.get("established_fact").string_or("mechanism"),
             Catch::StartsWith("Tried a two-kernel split") && Catch::Contains("cost more than"));
  CHECK(pl.get("established_fact").get("condition").string_or("toolchain") == "triton");
  CHECK_THAT(*d.record->get("retrieval").get("triggers")[0].as_string(),
             Catch::StartsWith("before trying Split into a stats kernel and a normalise kernel for "));
  // Several levers: choosing one is a judgement.
  said.set("change", "Staged the row through shared memory; also tried a split-row reduction.");
  auto several = distill::draft_record(p);
  REQUIRE(several.refusal);
  CHECK(several.refusal->field == "payload.attempted");
}

TEST_CASE("a reference kernel carries its launch configuration as whole lines", "[distill][claims]") {
  auto p = fixture("refk-final");
  p.code = "import triton\nimport triton.language as tl\nN_COLS = tl.constexpr(4096)\nUNUSED = 3\n\n@triton.jit\ndef "
           "k(x_ptr, BLOCK: "
           "tl.constexpr):\n"
           "    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, offs < N_COLS)\n\n\n"
           "def launch(x):\n    grid = (x.shape[0],)\n    k[grid](x, BLOCK=N_COLS, num_warps=8)\n    return x\n";
  auto d = distill::draft_record(p);
  REQUIRE(d.record);
  const auto &impl = d.record->get("payload").get("implementation");
  CHECK(impl.string_or("dispatch_snippet") ==
        "import triton\nimport triton.language as tl\nN_COLS = tl.constexpr(4096)\n\ndef launch(x):\n"
        "    grid = (x.shape[0],)\n"
        "    k[grid](x, BLOCK=N_COLS, num_warps=8)\n    return x");
  // CUDA held in a load_inline string: the __global__ function with the
  // #define it uses; the dispatch is the Python around the source, the
  // source string whole (kernel, host function that launches it) and the
  // load_inline call, so it runs as quoted.
  p.code = "from torch.utils.cpp_extension import load_inline\n"
           "cuda_src = r\"\"\"\n"
           "#define THREADS 256\n"
           "__global__ void rms_kernel(const float* x, float* y, int n) {\n"
           "    // one block per row\n"
           "    int i = blockIdx.x * THREADS + threadIdx.x;\n"
           "    if (i < n) { y[i] = x[i]; }\n"
           "}\n"
           "torch::Tensor rms(torch::Tensor x) {\n"
           "    auto y = torch::empty_like(x);\n"
           "    rms_kernel<<<x.size(0), THREADS>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());\n"
           "    return y;\n"
           "}\n"
           "\"\"\"\n"
           "ext = load_inline(name=\"rms\", cpp_sources=\"\", cuda_sources=cuda_src, functions=[\"rms\"])\n";
  auto cu = distill::draft_record(p);
  INFO((cu.refusal ? cu.refusal->why : ""));
  REQUIRE(cu.record);
  const auto &ci = cu.record->get("payload").get("implementation");
  CHECK(ci.string_or("core_kernel_name") == "rms_kernel");
  // A file this short is quoted whole (the snippet runs as it stands).
  CHECK(ci.string_or("snippet") == std::string(p.code).substr(0, p.code.size() - 1));
  CHECK_THAT(ci.string_or("dispatch_snippet"),
             Catch::StartsWith("from torch.utils.cpp_extension import load_inline\ncuda_src = r\"\"\"\n"
                               "#define THREADS 256\n__global__ void rms_kernel(") &&
                 Catch::Contains("}\ntorch::Tensor rms(torch::Tensor x) {") &&
                 Catch::Contains("<<<x.size(0), THREADS>>>") && Catch::EndsWith("functions=[\"rms\"])"));
}

TEST_CASE("otm-gate-substance fails a strategy whose snippet changes nothing that runs", "[gates][claims]") {
  auto rec = *distill::draft_record(strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128.")).record;
  auto run = [&](const std::string &snippet) {
    json::Value r = rec;
    at(r, {"payload", "implementation"}).set("snippet", snippet);
    auto ctx = gates::context_for_record(r, "records/x.json");
    return gates::gate_substance(ctx);
  };
  CHECK(run(" x = 1\n-y = 2\n+y = 3").passed());
  CHECK(run("@@ -1 +1 @@\n-# old\n+# new\n@@ -9 +9 @@\n-y = 2\n+y = 3").passed());
  CHECK_FALSE(run(" x = 1\n+# measured on the warm-L2 harness").passed());
  CHECK_FALSE(run(" \"\"\"Doc.\n-old words\n+new words\n \"\"\"").passed());
  CHECK_FALSE(run("+KERNEL_VERSION = 12\n-KERNEL_VERSION = 11").passed());
  CHECK_FALSE(run("").passed());
  // Other record types are not its business.
  json::Value anti = rec;
  anti.set("type", "anti-strategy");
  at(anti, {"payload", "implementation"}).set("snippet", "+# only a comment");
  CHECK(gates::gate_substance(gates::context_for_record(anti, "records/x.json")).passed());
}

TEST_CASE("the retrieval vocabulary is configuration a user can override", "[distill][claims]") {
  auto dir = testsupport::fresh_dir("retrieval-terms");
  auto file = dir / "override.json";
  io::write_file_atomic(file, R"({"levers": {"wide-tiles": {"prose": ["BLOCK_SIZE \\d+ -> \\d+"]}}})");
  auto rules = distill::DraftRules::from_config(config::Config::load(file));
  auto d = distill::draft_record(strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128 for the long rows."), rules);
  REQUIRE(d.record);
  auto tags = d.record->get("retrieval").get("technique_tags");
  CHECK(std::count(tags.as_array()->begin(), tags.as_array()->end(), json::Value("wide-tiles")) == 1);
  CHECK(std::count(tags.as_array()->begin(), tags.as_array()->end(), json::Value("block-size-tuning")) == 1);
  io::write_file_atomic(file, R"({"retrieval_terms": {"symptoms": {"empty": []}}})");
  CHECK_THROWS_AS(distill::DraftRules::from_config(config::Config::load(file)), otm::Error);
  io::write_file_atomic(file, R"({"retrieval_terms": {"symptoms": {"bad": ["(unclosed"]}}})");
  CHECK_THROWS_AS(distill::DraftRules::from_config(config::Config::load(file)), otm::Error);
  // Stop 42's sections: each malformed entry names itself.
  io::write_file_atomic(file, R"({"lineage": {"restores": "restore"}})");
  CHECK_THROWS_WITH(distill::DraftRules::from_config(config::Config::load(file)), Catch::Contains("lineage.restores"));
  io::write_file_atomic(file, R"({"shape_claims": {"every_shape": ["(unclosed"]}})");
  CHECK_THROWS_WITH(distill::DraftRules::from_config(config::Config::load(file)),
                    Catch::Contains("shape_claims.every_shape"));
  io::write_file_atomic(file, R"({"shape_axes": {"aliases": {"head_dim": "D"}}})");
  CHECK_THROWS_WITH(config::Config::load(file), Catch::Contains("shape_axes.aliases.head_dim must be a list of names"));
  io::write_file_atomic(file, R"({"shape_axes": {"aliases": {"head_dim": ["D", "HD"]}}})");
  CHECK(config::Config::load(file).axis_aliases().at("head_dim") == std::vector<std::string>{"D", "HD"});
  fs::remove_all(dir);
}

TEST_CASE("otm-gate-substance reads the kernel after the change: a dead constant runs nothing", "[gates][claims]") {
  // The launch changes num_warps; `_TUNE_ID` is a module constant no line reads.
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -3 +3 @@ import triton\n"
                     "-_TUNE_ID = 113  # row-wise pass\n"
                     "+_TUNE_ID = 826245  # fused the residual add into the normalisation pass\n"
                     "@@ -6 +6 @@ def run(x):\n"
                     "-    kernel[grid](x, num_warps=4)\n"
                     "+    kernel[grid](x, num_warps=8)\n";
  const char *after = "import torch\nimport triton\n"
                      "_TUNE_ID = 826245  # fused the residual add into the normalisation pass\n"
                      "def run(x):\n    grid = (x.shape[0],)\n    kernel[grid](x, num_warps=8)\n";
  auto run = [&](const std::string &snippet, bool with_after) {
    return substance_of(snippet, diff, with_after ? after : nullptr);
  };
  const std::string dead = "-_TUNE_ID = 113  # row-wise pass\n"
                           "+_TUNE_ID = 826245  # fused the residual add into the normalisation pass";
  auto r = run(dead, true);
  REQUIRE_FALSE(r.passed());
  CHECK_THAT(r.findings.front().message, Catch::Contains("`_TUNE_ID`") && Catch::Contains("does nothing"));
  // The running change passes; so does the dead constant when the packet
  // cannot tell (no kernel after the change: the lexer's rule alone).
  CHECK(run("-    kernel[grid](x, num_warps=4)\n+    kernel[grid](x, num_warps=8)", true).passed());
  CHECK(run(dead, false).passed());

  // The drafter refuses the same change credited to the constant alone.
  auto p = strategy_with("diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                         "@@ -3 +3 @@ import triton\n" +
                             dead + "\n",
                         "Fused the residual add into the normalisation pass.");
  p.code_after = after;
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("assign `_TUNE_ID`, which no line of the kernel reads"));
}

TEST_CASE("otm-gate-substance fails a snippet whose only change is a hint the compiler already knows",
          "[gates][claims]") {
  const char *diff = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                     "@@ -5,1 +5,2 @@ def k(x_ptr, BLOCK: tl.constexpr):\n"
                     "     cols = tl.arange(0, BLOCK)\n"
                     "+    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)\n"
                     "@@ -9 +10 @@ def run(x):\n"
                     "-    k[grid](x, BLOCK=1024, num_warps=4)\n"
                     "+    k[grid](x, BLOCK=1024, num_warps=8)\n";
  const char *after = "import triton\nimport triton.language as tl\n@triton.jit\n"
                      "def k(x_ptr, BLOCK: tl.constexpr):\n"
                      "    cols = tl.arange(0, BLOCK)\n"
                      "    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)\n"
                      "    tl.store(x_ptr + cols, tl.load(x_ptr + cols) * 2)\n"
                      "def run(x):\n    grid = (x.shape[0],)\n    k[grid](x, BLOCK=1024, num_warps=8)\n";
  auto run = [&](const std::string &snippet) { return substance_of(snippet, diff, after); };
  auto hint = run("     cols = tl.arange(0, BLOCK)\n+    cols = tl.max_contiguous(tl.multiple_of(cols, 8), 8)");
  REQUIRE_FALSE(hint.passed());
  CHECK_THAT(hint.findings.front().message,
             Catch::Contains("hint `cols` with what the compiler already knows") && !Catch::Contains("nothing in"));
  CHECK(run("-    k[grid](x, BLOCK=1024, num_warps=4)\n+    k[grid](x, BLOCK=1024, num_warps=8)").passed());
}

TEST_CASE("a hunk that sets a name the quoted change reads is quoted with it", "[distill][claims][issue25]") {
  // The split is turned on by a constant three hunks away from the loop
  // that reads it; an unrelated harness constant stays out.
  const char *split = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,3 +3,3 @@ import triton
 import triton.language as tl
-SPLIT_K = 1
+SPLIT_K = 4
 
@@ -6,3 +6,3 @@ import triton.language as tl
 
-_WARMUP = 25
+_WARMUP = 30
 
@@ -20,5 +20,7 @@ def gemv_kernel(x_ptr, w_ptr, y_ptr, K, BLOCK: tl.constexpr):
     pid_k = tl.program_id(1)
     acc = tl.zeros([BLOCK], tl.float32)
-    for k in range(0, K, BLOCK):
-        acc += tl.load(x_ptr + k + tl.arange(0, BLOCK))
-    tl.store(y_ptr, tl.sum(acc, 0))
+    k_begin = pid_k * (K // SPLIT_K)
+    k_end = k_begin + K // SPLIT_K
+    for k in range(k_begin, k_end, BLOCK):
+        acc += tl.load(x_ptr + k + tl.arange(0, BLOCK))
+    tl.atomic_add(y_ptr, tl.sum(acc, 0))
)";
  auto diff = diff::read_diff(split);
  auto s = distill::choose_diff_hunks(diff, "split the reduction along K over more programs");
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+    k_begin = pid_k * (K // SPLIT_K)"));
  CHECK_THAT(s->text, Catch::Contains("+SPLIT_K = 4"));
  CHECK_THAT(s->text, !Catch::Contains("_WARMUP"));
}

TEST_CASE("a launch grid change is quoted with the kernel's program-id indexing it feeds",
          "[distill][claims][issue25]") {
  // Grouped-query batching: the kernel now indexes one KV head per program
  // and the grid shrinks from H to HKV programs; no name links the two.
  const char *gqa = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -20,5 +20,6 @@ def attn_kernel(Q, K, O, GQA: gl.constexpr):
     b = gl.program_id(0)
     kvh = gl.program_id(1)
-    q = gl.load(Q + (b * gl.num_programs(1) + kvh) * D + d)
+    g = gl.arange(0, GQA, layout=row_l)
+    q = gl.load(Q + (b * GQA * gl.num_programs(1) + kvh * GQA + g)[:, None] * D + d[None, :])
     k = gl.load(K + kvh * D + d)
@@ -60,3 +61,3 @@ def attn(q, k):
 
-_WARMUP = 25
+_WARMUP = 30
 
@@ -70,3 +71,3 @@ def attn(q, k):
     B, H, HKV = q.shape[0], q.shape[1], k.shape[1]
-    grid = (B, H)
+    grid = (B, HKV)
     attn_kernel[grid](q, k, o, GQA=H // HKV)
)";
  auto diff = diff::read_diff(gqa);
  auto s = distill::choose_diff_hunks(diff, "switch to GQA batching: one program per KV head");
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+    q = gl.load(Q + (b * GQA * gl.num_programs(1)"));
  CHECK_THAT(s->text, Catch::Contains("+    grid = (B, HKV)"));
  CHECK_THAT(s->text, !Catch::Contains("_WARMUP"));
  // A grid change beside a kernel change that does not read the program's
  // place is not linked by this rule.
  std::string other = gqa;
  other.replace(other.find("+    q = gl.load(Q + (b * GQA * gl.num_programs(1) + kvh * GQA + g)"), 67,
                "+    q = gl.load(Q + (b * GQA * 7 + kvh * GQA + g)");
  other.replace(other.find("-    q = gl.load(Q + (b * gl.num_programs(1) + kvh)"), 51,
                "-    q = gl.load(Q + (b * 7 + kvh)");
  auto unlinked = distill::choose_diff_hunks(diff::read_diff(other), "switch to GQA batching");
  REQUIRE(unlinked);
  CHECK_THAT(unlinked->text, !Catch::Contains("+    grid = (B, HKV)"));
}

TEST_CASE("a hunk changing a function's body is quoted with the hunk changing its caller",
          "[distill][claims][issue25]") {
  // Round 10: the dequant now returns {w[j], w[j + 4]} and the caller's
  // activations are re-paired to match; no name links the two hunks.
  const std::string after = R"(import torch
CUDA_SRC = r"""
__device__ __forceinline__ void dequant8(unsigned q, float (&out)[8]) {
  for (int j = 0; j < 4; ++j) {
    out[2 * j] = float((q >> (4 * j)) & 0xf);
    out[2 * j + 1] = float((q >> (4 * j + 16)) & 0xf);
  }
}

__device__ float unrelated(float v) {
  return v * 2.0f;
}

extern "C" __global__ void gemv(const unsigned* w, const float* x, float* y) {
  float o[8];
  dequant8(w[threadIdx.x], o);
  float acc = 0.f;
  for (int j = 0; j < 4; ++j) acc += o[2 * j] * x[j] + o[2 * j + 1] * x[j + 4];
  y[blockIdx.x] = acc;
}
"""
)";
  const char *lop3 = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -3,6 +3,6 @@ CUDA_SRC = r"""
 __device__ __forceinline__ void dequant8(unsigned q, float (&out)[8]) {
   for (int j = 0; j < 4; ++j) {
-    out[2 * j] = float((q >> (8 * j)) & 0xf);
-    out[2 * j + 1] = float((q >> (8 * j + 4)) & 0xf);
+    out[2 * j] = float((q >> (4 * j)) & 0xf);
+    out[2 * j + 1] = float((q >> (4 * j + 16)) & 0xf);
   }
 }
@@ -11,5 +11,5 @@ __device__ __forceinline__ void dequant8(unsigned q, float (&out)[8]) {
 __device__ float unrelated(float v) {
-  return v * 3.0f;
+  return v * 2.0f;
 }
@@ -18,6 +18,6 @@ extern "C" __global__ void gemv(const unsigned* w, const float* x, float* y) {
   dequant8(w[threadIdx.x], o);
   float acc = 0.f;
-  for (int j = 0; j < 4; ++j) acc += o[2 * j] * x[2 * j] + o[2 * j + 1] * x[2 * j + 1];
+  for (int j = 0; j < 4; ++j) acc += o[2 * j] * x[j] + o[2 * j + 1] * x[j + 4];
   y[blockIdx.x] = acc;
 }
)";
  auto diff = diff::read_diff(lop3);
  // The claimed lever's code: the nibble shifts.
  auto shifts = [](const diff::ChangedLine &c) { return c.code.find("q >>") != std::string::npos; };
  auto s = distill::choose_diff_hunks(diff, "unpack nibbles j and j + 4 in one shift", shifts, after);
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+    out[2 * j] = float((q >> (4 * j)) & 0xf);"));
  CHECK_THAT(s->text, Catch::Contains("* x[j + 4];"));
  // A function the caller never calls is not linked.
  CHECK_THAT(s->text, !Catch::Contains("v * 2.0f"));
  // Without the file after the change, no function is known: not linked.
  auto blind = distill::choose_diff_hunks(diff, "unpack nibbles j and j + 4 in one shift", shifts);
  REQUIRE(blind);
  CHECK_THAT(blind->text, !Catch::Contains("* x[j + 4];"));
}

TEST_CASE("a name the launch passes as the keyword a quoted hunk reads is quoted with it",
          "[distill][claims][issue25]") {
  // Round 6's #14: the kernel's new single-pass branch runs only when the
  // host sets `single = True`, passed to the kernel as `SINGLE_PASS=single`
  // in a launch line the diff does not touch.
  const char *diff_text = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -17,8 +17,14 @@ def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK_N: tl.constexpr, SINGLE_PASS: tl.constexpr):
     row_in = in_ptr + row * n_cols
-    x = tl.load(row_in + cols, mask=cols < n_cols, other=-float('inf'))
-    m = tl.max(x, axis=0)
-    y = tl.exp(x - m)
-    tl.store(out_ptr + cols, y / tl.sum(y, axis=0), mask=cols < n_cols)
+    if SINGLE_PASS:
+        x = tl.load(row_in + cols, mask=cols < n_cols, other=-float('inf'))
+        m = tl.max(x, axis=0)
+        e = tl.exp2((x - m) * LOG2E)
+        tl.store(out_ptr + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)
+    else:
+        x = tl.load(row_in + cols, mask=cols < n_cols, other=-float('inf'))
+        tl.store(out_ptr + cols, x, mask=cols < n_cols)
 
@@ -44,5 +50,5 @@ def softmax(x):
     BLOCK_N = 4096
-    single = False and n_cols <= BLOCK_N
+    single = True and n_cols <= BLOCK_N
     grid = (n_rows,)
)";
  const char *after = R"(def softmax(x):
    BLOCK_N = 4096
    single = True and n_cols <= BLOCK_N
    grid = (n_rows,)
    softmax_kernel[grid](out, x, n_cols, BLOCK_N=BLOCK_N, SINGLE_PASS=single)
)";
  auto diff = diff::read_diff(diff_text);
  auto s = distill::choose_diff_hunks(diff, "keep the row on chip in one pass", {}, after);
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+    if SINGLE_PASS:"));
  CHECK_THAT(s->text, Catch::Contains("+    single = True and n_cols <= BLOCK_N"));
  // Without the code that passes it, nothing links the two.
  auto alone = distill::choose_diff_hunks(diff, "keep the row on chip in one pass");
  REQUIRE(alone);
  CHECK_THAT(alone->text, !Catch::Contains("single = True"));
}

TEST_CASE("a reference kernel whose JIT function reads a plain module global is refused", "[distill][issue25]") {
  // Triton refuses to compile it: it cannot run as quoted.
  auto p = fixture("refk-final");
  p.code = "import triton\nimport triton.language as tl\nN_COLS = 4096\n\n@triton.jit\ndef k(x_ptr, BLOCK: "
           "tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n    tl.store(x_ptr + offs, offs < N_COLS)\n\n\n"
           "def launch(x):\n    k[(x.shape[0],)](x, BLOCK=N_COLS, num_warps=8)\n    return x\n";
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("`N_COLS`") && Catch::Contains("not a constexpr"));
}

TEST_CASE("a reference kernel builds on the latest kept change of its lineage", "[distill][issue25]") {
  // Round 6: a final kernel whose last step edited a comment said only
  // "the run's final kernel"; round 7: a kernel's own change is no previous
  // state of its code.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", false);
  json::Value lineage =
      lineage_of({"Persistent grid: one program per SM.", "Fused the max and sum into one pass.", "num_warps 4 -> 8."});
  at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", lineage);
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const auto &trace = d.record->get("payload").get("trace");
  CHECK(trace.get("builds_on").string_or("approach") == "num_warps 4 -> 8.");
  CHECK(trace.get("builds_on").get("is_baseline") == json::Value(false));
  // A fusion shows in no code; num_warps does in this kernel; the
  // persistent grid's code is gone from it (round 8): not applied.
  // "into one pass" is also the single-pass lever.
  INFO(trace.get("techniques_applied_before").python_str());
  REQUIRE(trace.get("techniques_applied_before").size() == 3);
  CHECK(trace.get("techniques_applied_before")[0] == json::Value("num-warps-tuning"));
  CHECK(trace.get("techniques_applied_before")[1] == json::Value("kernel-fusion"));
  CHECK(trace.get("techniques_applied_before")[2] == json::Value("single-pass"));
  CHECK_FALSE(trace.contains("technique_here")); // its own step ran nothing
  // A kernel whose own step runs names that change as the technique here.
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", true);
  at(p.doc, {"agent_facing", "what_the_run_said"}).set("change", "num_warps 4 -> 8 for the long rows.");
  auto own = distill::draft_record(p);
  REQUIRE(own.record);
  const auto &here = own.record->get("payload").get("trace").get("technique_here");
  REQUIRE(here.size() == 1);
  CHECK(here[0] == json::Value("num-warps-tuning"));
  // Round 10: the latest kept change whose lever the kernel no longer runs
  // (the persistent grid is gone from this code) is not what it builds on.
  json::Value gone = lineage;
  json::Value persistent = json::Value::object();
  persistent.set("change", "Persistent grid: one program per SM.");
  gone.push_back(persistent);
  at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", gone);
  auto skipped = distill::draft_record(p);
  REQUIRE(skipped.record);
  CHECK(skipped.record->get("payload").get("trace").get("builds_on").string_or("approach") == "num_warps 4 -> 8.");
  // Round 14: a constant the change names in the code's own spelling that
  // the kernel still sets to another value was never raised in this code.
  json::Value capped = lineage;
  json::Value cap = json::Value::object();
  cap.set("change", "Raise the column tile cap MAX_BLOCK_N from 4096 to 8192.");
  capped.push_back(cap);
  at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", capped);
  const std::string block = "    BLOCK = min(triton.next_power_of_2(n_cols), 8192)\n";
  auto with_cap = [&](const std::string &value) {
    auto q = p;
    q.code.replace(q.code.find(block), block.size(), "    BLOCK = min(triton.next_power_of_2(n_cols), MAX_BLOCK_N)\n");
    q.code = "MAX_BLOCK_N = " + value + "\n" + q.code;
    auto r = distill::draft_record(q);
    INFO((r.refusal ? r.refusal->why : ""));
    REQUIRE(r.record);
    return r.record->get("payload").get("trace").get("builds_on").string_or("approach");
  };
  CHECK(with_cap("4096") == "num_warps 4 -> 8.");
  // Round 15: a lever's code form the change spells (`evict_last`) that
  // the kernel writes only in another form (`evict_first`) is not held.
  {
    auto q = p;
    const std::string load = "other=-float(\"inf\"))";
    q.code.replace(q.code.find(load), load.size(), "other=-float(\"inf\"), eviction_policy=\"evict_first\")");
    json::Value hinted = lineage;
    json::Value hint = json::Value::object();
    hint.set("change", "evict_last on the row loads keeps them in L2.");
    hinted.push_back(hint);
    at(q.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", hinted);
    auto r = distill::draft_record(q);
    REQUIRE(r.record);
    CHECK(r.record->get("payload").get("trace").get("builds_on").string_or("approach") == "num_warps 4 -> 8.");
    const std::string first = "eviction_policy=\"evict_first\"";
    q.code.replace(q.code.find(first), first.size(), "eviction_policy=\"evict_last\"");
    auto held = distill::draft_record(q);
    REQUIRE(held.record);
    CHECK(held.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
          "evict_last on the row loads keeps them in L2.");
    // Forms spelled as alternatives are held when the kernel writes one
    // (kit 48, U02: "ld.global.cs / __ldcs" on a kernel writing the first).
    CHECK(builds_on_with(q, {"num_warps 4 -> 8.", "stream the row loads (evict_last / .cs)."}) ==
          "stream the row loads (evict_last / .cs).");
    CHECK(builds_on_with(q, {"num_warps 4 -> 8.", "stream the row loads (evict_first / .cs)."}) == "num_warps 4 -> 8.");
  }
  CHECK(with_cap("8192") == "Raise the column tile cap MAX_BLOCK_N from 4096 to 8192.");
  // A kept step that restores earlier code is no technique to build on.
  json::Value restore = json::Value::object();
  restore.set("change", "Restore an earlier step kernel: the current kernel re-measures slower than the best.");
  capped.push_back(restore);
  at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", capped);
  CHECK(with_cap("8192") == "Raise the column tile cap MAX_BLOCK_N from 4096 to 8192.");
}

TEST_CASE("a reference kernel builds on a switch only as the code holds it", "[distill][issue25]") {
  // Kit 32, U10 and U25: "enable __frsqrt_rn" named for a kernel computing
  // `1.0 / sqrt_rn(...)`, "drop APPROX_RSQRT (__frsqrt_rn)" for one that
  // calls `__frsqrt_rn`; and a drop the code bears out is what it builds on.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", false);
  auto builds_on = [&](std::vector<std::string> changes) {
    json::Value lineage = lineage_of(changes);
    at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", lineage);
    auto d = distill::draft_record(p);
    INFO((d.refusal ? d.refusal->why : ""));
    REQUIRE(d.record);
    return d.record->get("payload").get("trace").get("builds_on").string_or("approach");
  };
  // The kernel calls no `fast_expf`: enabling it is not held, dropping it is.
  CHECK(builds_on({"num_warps 4 -> 8.", "enable fast_expf for the row's exponentials."}) == "num_warps 4 -> 8.");
  CHECK(builds_on({"num_warps 4 -> 8.", "drop fast_expf from the row's exponentials."}) ==
        "drop fast_expf from the row's exponentials.");
  // It calls `tl.exp`: a drop of it is not held.
  CHECK(builds_on({"num_warps 4 -> 8.", "drop tl.exp for exp2 with a pre-scaled log2(e)."}) == "num_warps 4 -> 8.");
}

TEST_CASE("a reference kernel does not build on a compiler option its DSL leaves unused", "[distill][issue25]") {
  // Round 12 (kitAA): a Gluon milestone differing from the final kernel only
  // in `num_stages`, which Gluon ignores, was said to build on "more
  // pipeline stages". The same holds for Triton on a kernel with no tl.dot.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", false);
  const std::string launch = "BLOCK=BLOCK, num_warps=8)";
  p.code.replace(p.code.find(launch), launch.size(), "BLOCK=BLOCK, num_warps=8, num_stages=3)");
  json::Value lineage = lineage_of({"num_warps 4 -> 8.", "num_stages 2 -> 3 to pipeline the row loads."});
  at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", lineage);
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  // Kit 50, W13: the step is still the state of the code it builds on;
  // kit 53, Z10: whether the compiler acts on it is not said there.
  const auto &trace = d.record->get("payload").get("trace");
  const std::string unused = trace.get("builds_on").string_or("approach");
  CHECK(unused == "num_stages 2 -> 3 to pipeline the row loads.");
  for (const auto &t : *trace.get("techniques_applied_before").as_array()) CHECK(t != json::Value("pipeline-stages"));
  // An import of another code form of the lever is host code, not a use.
  auto imported = p;
  imported.code = "from triton.language.extra import async_copy\n" + imported.code;
  auto with_import = distill::draft_record(imported);
  REQUIRE(with_import.record);
  CHECK(with_import.record->get("payload").get("trace").get("builds_on").string_or("approach") == unused);
  // A loop that feeds tl.dot is pipelined: the step is what it builds on.
  const std::string body = "    s = tl.sum(e, axis=0)\n";
  p.code.replace(p.code.find(body), body.size(),
                 "    s = tl.sum(e, axis=0)\n    for i in range(2):\n        s += tl.sum(tl.dot(e, e), axis=0)\n");
  auto piped = distill::draft_record(p);
  INFO((piped.refusal ? piped.refusal->why : ""));
  REQUIRE(piped.record);
  CHECK(piped.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "num_stages 2 -> 3 to pipeline the row loads.");
}

TEST_CASE("a strategy builds on the latest kept change its code still runs", "[distill][issue25]") {
  // Round 11: the step before was a loader partition nothing launches; the
  // code the strategy stands on runs no warp specialisation.
  auto p = fixture("strategy-v5");
  p.code_after = fixture("refk-final").code; // a softmax at num_warps=8, no partition
  auto &af = *p.doc.find("agent_facing");
  af.find("builds_on")->set("previous_approach", "A producer warp partition streams the next row.");
  json::Value lineage = lineage_of({"num_warps 4 -> 8.", "A producer warp partition streams the next row."});
  af.set("kept_changes_of_its_lineage", lineage);
  af.find("what_the_run_said")
      ->set("causal_sentences", json::Value::strings({"Capping BLOCK at 8192 keeps the row in registers, because a "
                                                      "wider block spills past the register file."}));
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  // Kit 30: the step the diff starts from is named too, so a reader does
  // not take the record to build on another step than its diff shows.
  CHECK(d.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "A producer warp partition streams the next row; the kernel after this step holds no code of its warp "
        "specialization; the latest kept change it runs: num_warps 4 -> 8.");
  // A previous step whose levers the code runs stands as the run described it.
  af.find("builds_on")->set("previous_approach", "num_warps 2 -> 8 for the long rows.");
  auto kept = distill::draft_record(p);
  REQUIRE(kept.record);
  CHECK(kept.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "num_warps 2 -> 8 for the long rows.");
  // A lever named only in the sentence saying why is not one the step
  // changed (kit 25: "Set STAGES 2->4. A deeper TMA/cp.async ring hides
  // ..." replaced by an older step because the kernel runs no TMA).
  const std::string why = "num_warps 2 -> 8. A producer warp partition streams the next row meanwhile.";
  af.find("builds_on")->set("previous_approach", why);
  auto reason = distill::draft_record(p);
  REQUIRE(reason.record);
  // ... and the record says what the step did, not the run's reason for
  // the lever, which may point the other way (kit 29, R01: "Moved drop
  // APPROX_RSQRT. Cheaper reciprocal square root ...").
  CHECK(reason.record->get("payload").get("trace").get("builds_on").string_or("approach") == "num_warps 2 -> 8.");
  // No kept change of the lineage runs: the step is named, and that is all.
  af.find("builds_on")->set("previous_approach", "A producer warp partition streams the next row.");
  af.set("kept_changes_of_its_lineage", json::Value::array());
  auto none = distill::draft_record(p);
  REQUIRE(none.record);
  CHECK(none.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "A producer warp partition streams the next row; the kernel after this step holds no code of its warp "
        "specialization.");
  // Kit 54, Q09: the step's words name a lever its code does not have,
  // but its own running change is in the kernel (the packet quotes it):
  // said, and no older step is offered in its place.
  auto running = json::Value::object();
  running.set("removed", json::Value::strings({"GROUP_SIZE_M = 16"}));
  running.set("added", json::Value::strings({"GROUP_SIZE_M = 32"}));
  af.find("builds_on")->set("its_running_change", running);
  af.set("kept_changes_of_its_lineage", lineage);
  auto mislabelled = distill::draft_record(p);
  REQUIRE(mislabelled.record);
  CHECK(mislabelled.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "A producer warp partition streams the next row; no warp specialization code: in code it changed "
        "`GROUP_SIZE_M = 16` to `GROUP_SIZE_M = 32`, which the kernel holds.");
  af.find("builds_on")->erase("its_running_change");
  af.set("kept_changes_of_its_lineage", json::Value::array());
  // The lever runs, but in another code form than the step states: said
  // as the run wrote it (kit 32: the kernel after the change is no reading
  // of the code before it, and a reader found "does not hold" false).
  const std::string load = "other=-float(\"inf\"))";
  REQUIRE(p.code_after.find(load) != std::string::npos);
  p.code_after.replace(p.code_after.find(load), load.size(), "other=-float(\"inf\"), eviction_policy=\"evict_first\")");
  af.find("builds_on")->set("previous_approach", "evict_last on the row loads keeps them in L2.");
  auto other_form = distill::draft_record(p);
  REQUIRE(other_form.record);
  CHECK(other_form.record->get("payload").get("trace").get("builds_on").string_or("approach") ==
        "evict_last on the row loads keeps them in L2.");
  // A compiler option the DSL leaves unused in this kernel: the reason is
  // the configuration's (kit 32, U24: "it is passed to the launch").
  af.find("builds_on")->set("previous_approach", "num_stages 2 -> 3 to pipeline the row loads.");
  af.set("kept_changes_of_its_lineage", lineage);
  const std::string launch = "BLOCK=BLOCK, num_warps=8)";
  REQUIRE(p.code_after.find(launch) != std::string::npos);
  p.code_after.replace(p.code_after.find(launch), launch.size(), "BLOCK=BLOCK, num_warps=8, num_stages=3)");
  auto option = distill::draft_record(p);
  REQUIRE(option.record);
  CHECK_THAT(option.record->get("payload").get("trace").get("builds_on").string_or("approach"),
             Catch::StartsWith("num_stages 2 -> 3 to pipeline the row loads (Triton's software pipeliner stages "
                               "only the loads of a loop") &&
                 Catch::EndsWith("and this kernel has neither)."));
}

TEST_CASE("a reference kernel's goal names a loop that leaves the rest of its range", "[distill][issue25]") {
  // Kit 33, V36: a vectorised loop with no tail, "other sizes are untested".
  auto p = fixture("refk-final");
  p.code += "\n_src = r\"\"\"\n__global__ void k(const float* x, float* y, int n) {\n"
            "  for (int i = threadIdx.x * 8; i + 8 <= n; i += blockDim.x * 8) y[i] = x[i];\n}\n\"\"\"\n";
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").string_or("goal"),
             Catch::Contains("Its loop `for (int i = threadIdx.x * 8; i + 8 <= n; i += blockDim.x * 8)` takes whole "
                             "chunks of 8 and nothing after it takes the rest: it is right only where `n` is a "
                             "multiple of 8."));
}

TEST_CASE("a final kernel's goal names what the run kept after it", "[distill][issue25]") {
  // Kit 32, U22: the last new best is quoted; the run ended on a later
  // kept step that set no new best.
  auto p = fixture("refk-final");
  auto d = distill::draft_record(p);
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").string_or("goal"), !Catch::Contains("kept later steps"));
  at(p.doc, {"agent_facing", "span"})
      .set("kept_after_it_without_a_new_best",
           lineage_of({"num_stages 3->2. Frees shared memory.", "a", "b", "Set BLOCK 1024->2048."}));
  auto after = distill::draft_record(p);
  INFO((after.refusal ? after.refusal->why : ""));
  REQUIRE(after.record);
  CHECK_THAT(after.record->get("payload").string_or("goal"),
             Catch::EndsWith(" The run kept later steps that set no new best, so the kernel it ended with is not "
                             "this one: num_stages 3->2; a; b, and more."));
}

TEST_CASE("a final kernel the run kept an unmeasured step after is no established best", "[distill][issue25]") {
  // Kit 48, U24: v171 (8 warps) kept with an unreadable step record and
  // restored by the last commit; the kernel before it was quoted as the
  // run's.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("kept_after_it_unmeasured", lineage_of({"8 warps (was 4)."}));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("step record is missing or unreadable (\"8 warps (was 4)\")"));
  CHECK(distill::draft_record(fixture("refk-final")).record);
}

TEST_CASE("a reference kernel's goal names the lines of it that run for nothing", "[distill][issue25]") {
  // Round 11: a final kernel quoted with a buffer stored into and never read
  // and a JIT function nothing launches, beside the code that works.
  auto p = fixture("refk-final");
  std::string code = p.code;
  auto body = code.find("    pid = ");
  if (body == std::string::npos) body = code.find("    row = ");
  REQUIRE(body != std::string::npos);
  code.insert(body, "    unused_scale = 2.0\n");
  code += "\n\n@triton.jit\ndef _prefetch_partition(x_ptr):\n    pass\n";
  p.code = code;
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  const std::string goal = d.record->get("payload").string_or("goal");
  CHECK_THAT(goal, Catch::Contains("Some of its lines run for nothing"));
  CHECK_THAT(goal, Catch::Contains("`unused_scale` is assigned or stored into and never read"));
  CHECK_THAT(goal, Catch::Contains("`_helper` and `_prefetch_partition` are never called or launched."));
  // A module stamp nothing reads is in the whole file a reader copies (kit
  // 23: `_SWEEP_BLOCK_V = 8192` beside the `BLOCK_V = 4096` in use), and so
  // is a kernel parameter the body never reads.
  std::string clean = p.code.substr(0, p.code.find("\n\n@triton.jit\ndef _helper"));
  clean.replace(clean.find("    unused_scale = 2.0\n"), 23, "");
  clean += "\n\n_TUNE_TAG = 0x1f2e\n\n\ndef softmax(x, scale):\n    n_rows, n_cols = x.shape\n"
           "    out = torch.empty_like(x)\n    softmax_kernel[(n_rows,)](out, x, n_cols, scale, BLOCK=1024)\n"
           "    return out\n";
  p.code = clean;
  auto stamped = distill::draft_record(p);
  INFO((stamped.refusal ? stamped.refusal->why : ""));
  REQUIRE(stamped.record);
  CHECK_THAT(stamped.record->get("payload").string_or("goal"),
             Catch::EndsWith("run for nothing (otm's reading of the code): `_TUNE_TAG` is assigned or stored into and "
                             "never read."));
  std::string unread_parameter = clean;
  const std::string signature = "def softmax_kernel(";
  REQUIRE(unread_parameter.find(signature) != std::string::npos);
  unread_parameter.replace(unread_parameter.find(signature), signature.size(), signature + "ROWS_PER_PROG, ");
  unread_parameter.replace(unread_parameter.find("softmax_kernel[(n_rows,)]("), 26, "softmax_kernel[(n_rows,)](1, ");
  p.code = unread_parameter;
  auto passed = distill::draft_record(p);
  REQUIRE(passed.record);
  CHECK_THAT(passed.record->get("payload").string_or("goal"),
             Catch::Contains("`ROWS_PER_PROG` is passed to the kernel, whose body never reads it"));
  // A kernel all of whose lines run says nothing of dead code.
  const std::string stamp = "\n\n_TUNE_TAG = 0x1f2e\n";
  clean.replace(clean.find(stamp), stamp.size(), "");
  p.code = clean;
  auto all_runs = distill::draft_record(p);
  INFO((all_runs.refusal ? all_runs.refusal->why : ""));
  REQUIRE(all_runs.record);
  CHECK_THAT(all_runs.record->get("payload").string_or("goal"), !Catch::Contains("run for nothing"));
}

TEST_CASE("a cause after 'so' that points back is read with its sentence", "[distill][issue25]") {
  // Kit 24: "Two warpgroups split the 128-wide tile so each issues half the
  // MMAs" served "each issues half the MMAs" as the mechanism.
  auto p = fixture("strategy-v5");
  auto &said = *p.doc.find("agent_facing")->find("what_the_run_said");
  said.set("change", "Cap BLOCK at 8192 columns. The cap splits the widest rows in two so each fits the register file "
                     "without spilling.");
  auto d = distill::draft_record(p);
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK(d.record->get("payload").string_or("mechanism") ==
        "The cap splits the widest rows in two so each fits the register file without spilling");
  // A clause that stands alone stays the cause.
  said.set("change", "Cap BLOCK at 8192 columns. The cap splits the widest rows in two so the row fits the register "
                     "file without spilling.");
  auto alone = distill::draft_record(p);
  REQUIRE(alone.record);
  CHECK(alone.record->get("payload").string_or("mechanism") == "the row fits the register file without spilling");
}

TEST_CASE("a tile size the mechanism states must be one the kernel sets", "[distill][issue25]") {
  const auto rule = distill::TileClaimRule::from_json(config::Config::defaults().data().get("tile_claims"), "shipped");
  const std::string gemm = "BLOCK_M = 64\nBLOCK_N = 64\nBLOCK_K = 128  # scale granularity\n"
                           "_SWEEP_BLOCK_M = 128\n\n@triton.jit\ndef k(a, BLOCK_M: tl.constexpr):\n    pass\n";
  auto why = rule.contradiction("Two warpgroups split the 128-wide tile so each issues half the MMAs", gemm);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("a tile of 128") && Catch::Contains("`BLOCK_M = 64`, `BLOCK_N = 64`"));
  CHECK_FALSE(rule.contradiction("a 64x64 tile keeps both operands in shared memory", gemm));
  CHECK(rule.contradiction("a 128x64 tile keeps both operands in shared memory", gemm));
  // CUDA spellings, and tile sizes set only by expressions: nothing decided.
  const std::string cuda = "#define BM 128\n#define BN 64\nconstexpr int TILE_M = 32;\n";
  CHECK_FALSE(rule.contradiction("the 128x64 tile halves the B reloads", cuda));
  CHECK_FALSE(rule.contradiction("a 32-wide tile", cuda));
  CHECK_FALSE(rule.contradiction("the 256-wide tile", "BLOCK_N = triton.next_power_of_2(N)\n"));
  CHECK_FALSE(rule.contradiction("more warps hide the latency", gemm));
  CHECK_THROWS_AS(distill::TileClaimRule::from_json(json::parse(R"({"claims": 3})"), "t"), Error);
}

TEST_CASE("a cause about warps exchanging data needs code that lets them", "[distill][issue25]") {
  // Kit 28, Q21: each warp owns its rows and reduces with shuffles; the
  // warp count only splits the work into blocks.
  const auto rule =
      distill::CrossWarpClaimRule::from_json(config::Config::defaults().data().get("cross_warp_claims"), "shipped");
  const std::string alone = "CUDA_SRC = r'''\n#define WARPS_PER_BLOCK 2\n"
                            "__global__ void k(const float* x, float* y) {\n"
                            "  float v = x[threadIdx.x];\n"
                            "  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);\n"
                            "  if ((threadIdx.x & 31) == 0) y[blockIdx.x] = v;\n}\n'''\n";
  auto why = rule.contradiction("extra warps only add cross-warp reductions", alone, "#define WARPS_PER_BLOCK 4\n");
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"cross-warp reductions\"") && Catch::Contains("no shared memory"));
  CHECK(rule.contradiction("fewer warps means less synchronisation between warps", alone, ""));
  // Shared memory after the change, or in the code it removed: the warps
  // did or do exchange data.
  std::string shared = alone;
  shared.insert(shared.find("  float v"), "  __shared__ float part[8];\n");
  CHECK_FALSE(rule.contradiction("extra warps only add cross-warp reductions", shared, ""));
  CHECK_FALSE(rule.contradiction("extra warps only add cross-warp reductions", alone,
                                 "  __shared__ float part[8];\n  __syncthreads();\n"));
  CHECK(rule.contradiction("the partial sums combine across warps", alone, ""));
  CHECK_FALSE(rule.contradiction("the partial sums combine across warps", alone + "atomicAdd(y, v);\n", ""));
  // Triton lays out its own reductions: nothing is decided.
  CHECK_FALSE(rule.contradiction("extra warps only add cross-warp reductions",
                                 "@triton.jit\ndef k(x):\n    s = tl.sum(x, axis=0)\n", ""));
  CHECK_FALSE(rule.contradiction("more warps hide the latency", alone, ""));
  CHECK_THROWS_AS(distill::CrossWarpClaimRule::from_json(json::parse(R"({"claims": [1]})"), "t"), Error);
}

TEST_CASE("a rewrite's snippet quotes the hunk that deletes what it replaces", "[distill][claims][issue25]") {
  // Kit 28, Q20: a softmax over the top-k winners replaces the full-row
  // softmax; the saving is in the deleted hunk.
  const char *topk = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -38,12 +38,6 @@ __global__ void topk_softmax_kernel(
       v[i] = (e < E) ? __ldg(logits + (size_t)row * E + e) : -FLT_MAX;
     }
-    float mx = -FLT_MAX;
-    for (int i = 0; i < EPT; ++i) mx = fmaxf(mx, v[i]);
-    mx = warp_max(mx);
-    float sum = 0.f;
-    for (int i = 0; i < EPT; ++i) { v[i] = __expf(v[i] - mx); sum += v[i]; }
-    sum = warp_sum(sum);
     float sel_sum = 0.f, sel[TOPK];
     int sel_id[TOPK];
@@ -63,6 +57,10 @@ __global__ void topk_softmax_kernel(
       if ((bi & 31) == lane) v[bi >> 5] = -FLT_MAX;
     }
+    // softmax over the k winners only
+    float m0 = sel[0], z = 0.f;
+    for (int j = 0; j < TOPK; ++j) { sel[j] = __expf(sel[j] - m0); z += sel[j]; }
+    sel_sum = z;
     if (lane < TOPK) {
       w[(size_t)row * TOPK + lane] = sel[lane] / sel_sum;
@@ -90,3 +88,3 @@ def topk_softmax(logits):
-    _WARMUP = 25
+    _WARMUP = 30
)";
  auto diff = diff::read_diff(topk);
  auto s = distill::choose_diff_hunks(diff, "softmax over the top-k winners only: z sums k exponentials");
  REQUIRE(s);
  CHECK_THAT(s->text, Catch::Contains("+    float m0 = sel[0], z = 0.f;"));
  CHECK_THAT(s->text, Catch::Contains("-    mx = warp_max(mx);"));
  // A hunk that adds code is no deleted half.
  CHECK_THAT(s->text, !Catch::Contains("_WARMUP"));
}

TEST_CASE("a change the run names otherwise than the code is named by the code too", "[distill][claims][issue25]") {
  // Kit 29, R05 and R17: the run's account names a setting the code calls
  // otherwise.
  const std::string warps = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -5,7 +5,7 @@ import triton.language as tl
 BLOCK_SIZE = 1024
-NUM_WARPS = 4
+NUM_WARPS = 1
 
 
@@ -40,3 +40,3 @@ def rmsnorm(x, w, eps):
     grid = (x.shape[0],)
     rmsnorm_kernel[grid](x, y, w, x.shape[1], eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=NUM_WARPS)
     return y
)";
  auto d = distill::draft_record(
      strategy_with(warps, "WARPS_PER_BLOCK 4->1. One warp per row: the row fits one warp's registers."));
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").string_or("change"),
             Catch::Contains("In the code the setting is `NUM_WARPS` (the run calls it WARPS_PER_BLOCK)."));
  // The code's own name: nothing added.
  auto same = distill::draft_record(
      strategy_with(warps, "NUM_WARPS 4->1. One warp per row: the row fits one warp's registers."));
  REQUIRE(same.record);
  CHECK_THAT(same.record->get("payload").string_or("change"), !Catch::Contains("In the code the setting is"));

  // Kit 32, U24: the setting is the name the change adds, not another name
  // on the lines it edits (`BLOCK_V` beside it in the signature) nor the
  // name a hint is assigned to (`cols`).
  const std::string vec = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -10,6 +10,7 @@ def xent_kernel(
-    BLOCK_V: tl.constexpr, SPLIT_V: tl.constexpr,
+    BLOCK_V: tl.constexpr, SPLIT_V: tl.constexpr, VEC: tl.constexpr,
 ):
     cols = tl.arange(0, BLOCK_V)
+    cols = tl.max_contiguous(tl.multiple_of(cols, VEC), VEC)
     x = tl.load(x_ptr + cols)
@@ -40,3 +41,3 @@ def xent(x):
-    xent_kernel[grid](x, BLOCK_V=BLOCK_V, SPLIT_V=SPLIT_V)
+    xent_kernel[grid](x, BLOCK_V=BLOCK_V, SPLIT_V=SPLIT_V, VEC=8)
     return y
)";
  auto named = distill::draft_record(strategy_with(vec, "enable ld.global.nc.v4 loads. Eight bf16 per 16-byte load."));
  INFO((named.refusal ? named.refusal->why : ""));
  REQUIRE(named.record);
  CHECK_THAT(named.record->get("payload").string_or("change"),
             Catch::Contains("In the code the setting is `VEC` (the run calls it ld.global.nc.v4)."));
  // An account that gives the code's name beside its gloss needs no note.
  auto given = distill::draft_record(strategy_with(vec, "enable VEC (ld.global.nc.v4). Eight bf16 per 16-byte load."));
  REQUIRE(given.record);
  CHECK_THAT(given.record->get("payload").string_or("change"), !Catch::Contains("In the code the setting is"));

  // Kit 36, Y12: the call owning the edit (`__bfloat162float` around the
  // `__ldg` -> `__ldcs` swap) is no setting of the cache hint; the lever's
  // own code form is, told once for the run's two names of it.
  const std::string ldcs = R"(diff --git a/kernel.cu b/kernel.cu
--- a/kernel.cu
+++ b/kernel.cu
@@ -20,3 +20,3 @@ __global__ void xent(const __nv_bfloat16* x, float* y, int V) {
   float m = -FLT_MAX;
-  for (int v = threadIdx.x; v < V; v += 256) m = fmaxf(m, __bfloat162float(__ldg(x + v)));
+  for (int v = threadIdx.x; v < V; v += 256) m = fmaxf(m, __bfloat162float(__ldcs(x + v)));
   m = warp_max(m);
)";
  auto cs = strategy_with(ldcs, "enable evict_first loads (streaming (.cs) loads). Logits are read once.");
  at(cs.doc, {"agent_facing", "operator"}).set("dsl", "cuda");
  auto hint = distill::draft_record(cs);
  INFO((hint.refusal ? hint.refusal->why : ""));
  REQUIRE(hint.record);
  const auto change = hint.record->get("payload").string_or("change");
  CHECK_THAT(change, !Catch::Contains("__bfloat162float"));
  CHECK_THAT(change, Catch::EndsWith(" In the code the setting is `__ldcs` (the run calls it evict_first and .cs)."));
}

TEST_CASE("a helper the change adds and nothing calls is said to be so", "[distill][claims][issue25]") {
  // Kit 29, R12: "enable ld_nc_v4" where the loop calls another helper the
  // change also adds.
  const std::string helpers = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -10,6 +10,14 @@ import triton.language as tl
 
 
+@triton.jit
+def ld_nc_v4(ptr):
+    return tl.load(ptr, cache_modifier=".cg")
+
+@triton.jit
+def ld_evict_first_v4(ptr):
+    return tl.load(ptr, eviction_policy="evict_first")
+
 @triton.jit
 def rmsnorm_kernel(x_ptr, y_ptr, N, BLOCK_SIZE: tl.constexpr):
@@ -20,3 +28,3 @@ def rmsnorm_kernel(x_ptr, y_ptr, N, BLOCK_SIZE: tl.constexpr):
     cols = tl.arange(0, BLOCK_SIZE)
-    x = tl.load(x_ptr + row * N + cols)
+    x = ld_evict_first_v4(x_ptr + row * N + cols)
     tl.store(y_ptr + row * N + cols, x)
)";
  auto d = distill::draft_record(strategy_with(helpers, "enable ld_nc_v4 (eviction hints). The row is read once."));
  INFO((d.refusal ? d.refusal->why : ""));
  REQUIRE(d.record);
  CHECK_THAT(d.record->get("payload").string_or("change"),
             Catch::Contains("`ld_nc_v4`, which the run names, is defined by the change and never called"));
}

TEST_CASE("a reference kernel measured again by other kept steps says from what to what", "[distill][issue25]") {
  // Round 28, W13: a final kernel quoted at 102.26 us, the fastest of the
  // run's four measurements of its code.
  auto p = fixture("refk-final");
  auto goal = [&] {
    auto d = distill::draft_record(p);
    INFO((d.refusal ? d.refusal->why : ""));
    REQUIRE(d.record);
    return d.record->get("payload").string_or("goal");
  };
  auto &m = at(p.doc, {"agent_facing", "measurements"});
  m.set("geomean_us", 102.261);
  json::Value same = json::Value::array();
  for (double x : {103.9, 102.261, 103.34}) same.push_back(x);
  m.set("same_code_kept_geomeans_us", same);
  CHECK_THAT(goal(), Catch::EndsWith(" The run measured this same code on other kept steps too, from 102.261 to "
                                     "103.9 us geomean; the figure recorded here, 102.261 us, is one of them."));
  // Measurements that agree, or none, say nothing.
  same = json::Value::array();
  for (double x : {22.5, 22.5}) same.push_back(x);
  m.set("same_code_kept_geomeans_us", same);
  CHECK_THAT(goal(), !Catch::Contains("this same code"));
  m.set("same_code_kept_geomeans_us", json::Value());
  CHECK_THAT(goal(), !Catch::Contains("this same code"));
}

TEST_CASE("a reference kernel builds on a setting only as its #define holds it", "[distill][issue25]") {
  // Kit 35, X05: a CUDA kernel with `#define GROUP_M 16` said to build on
  // "GROUP_M 16->8", a step its own step had undone.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", false);
  auto builds_on = [&](const std::string &group_m) {
    p.code = "CUDA_SRC = r'''\n#define GROUP_M " + group_m +
             "\n__global__ void k(float* y) {\n  y[blockIdx.x] = GROUP_M;\n}\n'''\n\n"
             "_mod = load_inline(name='k', cuda_sources=[CUDA_SRC], functions=['k'])\n";
    at(p.doc, {"agent_facing"}).set("kept_changes_of_its_lineage", lineage_of({"GROUP_M 4->16.", "GROUP_M 16->8."}));
    auto d = distill::draft_record(p);
    INFO((d.refusal ? d.refusal->why : ""));
    REQUIRE(d.record);
    return d.record->get("payload").get("trace").get("builds_on").string_or("approach");
  };
  CHECK(builds_on("8") == "GROUP_M 16->8.");
  CHECK(builds_on("16") == "GROUP_M 4->16.");
}

TEST_CASE("a reference kernel a kept step of which removed a barrier is refused", "[distill][issue25]") {
  // Kit 46, S41 and S21: the final kernel of a run that dropped a
  // "redundant" barrier, quoted as a kernel to start from.
  auto p = fixture("refk-final");
  REQUIRE(distill::draft_record(p).record);
  json::Value removed = json::Value::object();
  removed.set("change", "remove redundant barrier in the hot loop");
  removed.set("barrier", "__syncthreads();");
  at(p.doc, {"agent_facing", "span"}).set("a_kept_step_removed_a_barrier", removed);
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("removes a barrier (`__syncthreads();`)"));
}

TEST_CASE("a reference kernel without masks is refused on a benchmarked size its block does not divide",
          "[distill][issue25]") {
  // Kit 53, Z12 (kit 52, Y11; kit 57, N27): the unmasked kernel was quoted
  // as passing on N=11008 with BLOCK_N = 2048, which overruns each row's
  // last block.
  auto p = fixture("refk-final");
  p.code = "import triton\nimport triton.language as tl\nBLOCK_N = 2048\n\n@triton.jit\ndef k(x_ptr, y_ptr, N, "
           "BLOCK_N: tl.constexpr):\n    row = tl.program_id(0)\n    cols = tl.arange(0, BLOCK_N)\n"
           "    for c in range(0, N, BLOCK_N):\n        x = tl.load(x_ptr + row * N + c + cols)\n"
           "        tl.store(y_ptr + row * N + c + cols, x * 2.0)\n\n\n"
           "def launch(x, y):\n    k[(x.shape[0],)](x, y, x.shape[1], BLOCK_N=BLOCK_N, num_warps=8)\n    return y\n";
  auto &op = at(p.doc, {"agent_facing", "operator"});
  op.set("benchmarked_values", json::parse(R"({"M": [128, 8191], "N": [4096, 11008, 16384]})"));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  // M is not the axis BLOCK_N tiles: 8191 is not said.
  CHECK_THAT(d.refusal->why, Catch::Contains("take no mask, and of the sizes the run benchmarked, N=11008 is not a "
                                             "multiple of `BLOCK_N = 2048`: it reads or writes past") &&
                                 !Catch::Contains("M=8191"));
  // A one-axis operator: its block tiles that axis whatever it is named
  // (kit 57, N27: `numel` = 28677).
  op.set("benchmarked_values", json::parse(R"({"numel": [4096, 28677]})"));
  auto one_axis = distill::draft_record(p);
  REQUIRE(one_axis.refusal);
  CHECK_THAT(one_axis.refusal->why, Catch::Contains("numel=28677 is not a multiple of `BLOCK_N = 2048`"));
  // Every size a multiple of the block: staged, with the hazard said.
  op.set("benchmarked_values", json::parse(R"({"M": [128], "N": [4096, 16384]})"));
  auto divides = distill::draft_record(p);
  INFO((divides.refusal ? divides.refusal->why : ""));
  REQUIRE(divides.record);
  CHECK_THAT(divides.record->get("payload").string_or("goal"),
             Catch::Contains("take no mask") && !Catch::Contains("Of the sizes the run benchmarked"));
}

TEST_CASE("a reference kernel whose loop stops below a benchmarked size is refused", "[distill][issue25]") {
  // Kit 57, N25: `c < min(N, BLOCK_N)` with BLOCK_N 2048, benchmarked N >= 4096.
  auto p = fixture("refk-final");
  p.code = "import triton\nimport triton.language as tl\nBLOCK_N = 2048\n\n@triton.jit\ndef k(x_ptr, y_ptr, N, "
           "BLOCK_N: tl.constexpr):\n    row = tl.program_id(0)\n    cols = tl.arange(0, 128)\n"
           "    for c in range(0, tl.minimum(N, BLOCK_N), 128):\n"
           "        x = tl.load(x_ptr + row * N + c + cols, mask=c + cols < N)\n"
           "        tl.store(y_ptr + row * N + c + cols, x * 2.0, mask=c + cols < N)\n\n\n"
           "def launch(x, y):\n    k[(x.shape[0],)](x, y, x.shape[1], BLOCK_N=BLOCK_N, num_warps=8)\n    return y\n";
  auto &op = at(p.doc, {"agent_facing", "operator"});
  op.set("benchmarked_values", json::parse(R"({"M": [128, 8191], "N": [1024, 2048, 4096]})"));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("stops at `BLOCK_N` (2048), and the run benchmarked N=4096:"));
  // Every benchmarked row within the cap: staged.
  op.set("benchmarked_values", json::parse(R"({"M": [128, 8191], "N": [1024, 2048]})"));
  auto within = distill::draft_record(p);
  INFO((within.refusal ? within.refusal->why : ""));
  CHECK(within.record);
}

TEST_CASE("a strategy whose kernel after the change reads one tile of a longer row is refused", "[distill][issue25]") {
  // Kit 61, J20: a "whole-row tile" of 4096 columns credited on rows of
  // 32000; the kernel's mask hides the columns it never reads.
  auto p = fixture("strategy-v5");
  p.code_after = fixture("refk-final").code;
  const std::string host = "BLOCK = min(triton.next_power_of_2(n_cols), 8192)";
  REQUIRE(p.code_after.find(host) != std::string::npos);
  p.code_after.replace(p.code_after.find(host), host.size(), "BLOCK = 4096");
  at(p.doc, {"agent_facing", "what_the_run_said"})
      .set("causal_sentences", json::Value::strings({"Eight warps keep more loads in flight, because each row is "
                                                     "long enough to need them."}));
  auto &op = at(p.doc, {"agent_facing", "operator"});
  op.set("benchmarked_values", json::parse(R"({"n_rows": [64], "n_cols": [4096, 32000]})"));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("the kernel after the change: its offsets `offs = tl.arange(0, BLOCK)` "
                                             "cover one tile of `n_cols` (`BLOCK` at most 4096) and no loop walks "
                                             "past it, and the run benchmarked n_cols=32000"));
  // Every benchmarked row within the tile: the rule passes it.
  op.set("benchmarked_values", json::parse(R"({"n_rows": [64], "n_cols": [1024, 4096]})"));
  auto within = distill::draft_record(p);
  INFO((within.refusal ? within.refusal->why : ""));
  CHECK(within.record);
  // A size named for a fixed axis (`n_cols`, N = 4096) is not the one
  // varied axis (M), however large M's values are (otm-make-trace's
  // rmsnorm: N_COLS 2048 over M up to 32768).
  op.set("fixed_axes", json::parse(R"({"N": 4096})"));
  op.set("benchmarked_values", json::parse(R"({"M": [64, 32000]})"));
  auto fixed = distill::draft_record(p);
  INFO((fixed.refusal ? fixed.refusal->why : ""));
  CHECK(fixed.record);
}

TEST_CASE("a reference kernel whose loop's last step reads past a benchmarked size is refused", "[distill][issue25]") {
  // Kit 61, J15: a K loop by BLOCK_K = 64 whose loads mask M only, on K = 3000.
  auto p = fixture("refk-final");
  p.code = "import triton\nimport triton.language as tl\nBLOCK_K = 64\n\n@triton.jit\ndef k(a_ptr, y_ptr, M, K, "
           "BLOCK_K: tl.constexpr):\n    row = tl.program_id(0)\n    offs_k = tl.arange(0, BLOCK_K)\n"
           "    acc = tl.zeros([BLOCK_K], dtype=tl.float32)\n"
           "    for k0 in range(0, K, BLOCK_K):\n"
           "        k_idx = k0 + offs_k\n"
           "        acc += tl.load(a_ptr + row * K + k_idx, mask=row < M)\n"
           "    tl.store(y_ptr + row, tl.sum(acc, axis=0))\n\n\n"
           "def launch(a, y):\n    k[(a.shape[0],)](a, y, a.shape[0], a.shape[1], BLOCK_K=BLOCK_K, num_warps=4)\n"
           "    return y\n";
  auto &op = at(p.doc, {"agent_facing", "operator"});
  op.set("benchmarked_values", json::parse(R"({"M": [16, 33], "K": [4096, 3000]})"));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("steps by `BLOCK_K` (64) and loads through `k_idx` with no mask on it, "
                                             "and the run benchmarked K=3000, not a multiple of 64"));
  // Every K a multiple of the step: not this rule's.
  op.set("benchmarked_values", json::parse(R"({"M": [16, 33], "K": [4096, 3072]})"));
  auto within = distill::draft_record(p);
  CHECK((!within.refusal || within.refusal->why.find("steps by") == std::string::npos));
}

TEST_CASE("a reference kernel of a trace whose workload times a fixed axis at other values is refused",
          "[distill][issue25]") {
  // Kit 57, N40 and N11: definition.json fixes K at 3 (dstate at 16) while
  // workload.jsonl times K=5 and 7 (dstate=64), and the kernel hard-wires
  // the fixed value.
  auto p = fixture("refk-final");
  REQUIRE(distill::draft_record(p).record);
  auto &op = at(p.doc, {"agent_facing", "operator"});
  op.set("fixed_axes", json::parse(R"({"K": 3})"));
  REQUIRE(distill::draft_record(p).record); // a fixed axis alone is no contradiction
  op.set("fixed_axes_the_workload_benchmarks_at_other_values", json::parse(R"({"K": [3, 5, 7]})"));
  auto d = distill::draft_record(p);
  REQUIRE(d.refusal);
  CHECK(d.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(d.refusal->why, Catch::Contains("definition fixes K at 3, but its workload benchmarks K = 3, 5 and 7"));
}

TEST_CASE("the run's final kernel is no strategy when it set no new best", "[distill][issue25]") {
  // Kit 57, N04: a grid-stride loop kept at -0.34 %, the ladder's `final`
  // (a version kept under the milestone threshold), staged as a strategy.
  const std::string d = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                        "@@ -3,2 +3,2 @@ def k(x):\n"
                        "-    e = tl.exp(x - m)\n"
                        "+    e = tl.exp2((x - m) * 1.4426950408889634)\n"
                        "     s = tl.sum(e, 0)\n";
  auto p = strategy_with(d, "exp2 with log2(e) folded into the scale");
  const bool staged = distill::draft_record(p).record.has_value();
  p.doc.set("seg_kind", "milestone-final");
  auto f = distill::draft_record(p);
  REQUIRE(f.refusal);
  CHECK(f.refusal->field == "worth.gain.pct");
  CHECK_THAT(f.refusal->why, Catch::Contains("the run's final kernel, not a milestone"));
  // The same packet as a milestone is not refused for it.
  p.doc.set("seg_kind", "milestone-big");
  auto m = distill::draft_record(p);
  CHECK(m.record.has_value() == staged);
  if (m.refusal) CHECK_THAT(m.refusal->why, !Catch::Contains("not a milestone"));
}

TEST_CASE("a strategy whose mechanism is a label says what its code adds and drops", "[distill][issue25]") {
  // Kit 52, Y04: "Cheaper transcendental/dequant path." for `tl.exp` made
  // `tl.exp2`, the run's template for the step's category.
  const std::string d = "diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                        "@@ -3,2 +3,2 @@ def k(x):\n"
                        "-    e = tl.exp(x - m)\n"
                        "+    e = tl.exp2((x - m) * 1.4426950408889634)\n"
                        "     s = tl.sum(e, 0)\n";
  auto p = strategy_with(d, "exp2 with log2(e) folded into the scale");
  auto &said = at(p.doc, {"agent_facing", "what_the_run_said"});
  said.set("expected_impact", "Cheaper transcendental path.");
  at(p.doc, {"agent_facing", "profiler"}).set("conclusion_is_from_the_kernel_under_test", false);
  auto label = distill::draft_record(p);
  INFO((label.refusal ? label.refusal->why : ""));
  REQUIRE(label.record);
  CHECK(label.record->get("payload").string_or("mechanism") ==
        "Cheaper transcendental path. In the code, the change adds `tl.exp2` and drops `tl.exp`.");
  // A later source's reason comes before the label.
  auto direction = json::Value::object();
  direction.set("direction", "use exp2");
  direction.set("rationale", "the exponent's multiply by log2(e) folds into the scale the row already takes");
  auto directions = json::Value::array();
  directions.push_back(direction);
  said.set("directions_taken_up", directions);
  auto rationale = distill::draft_record(p);
  REQUIRE(rationale.record);
  CHECK(rationale.record->get("payload").string_or("mechanism") ==
        "the exponent's multiply by log2(e) folds into the scale the row already takes");
  said.erase("directions_taken_up");
  // A reason stands as the run gave it.
  said.set("expected_impact", "ex2.approx is one MUFU op where exp lowers to a multiply and ex2.");
  auto reason = distill::draft_record(p);
  REQUIRE(reason.record);
  CHECK(reason.record->get("payload").string_or("mechanism") ==
        "ex2.approx is one MUFU op where exp lowers to a multiply and ex2.");
}

TEST_CASE("the run's own re-measurement of a version is read with its gain", "[distill][issue25]") {
  // Kit 55, P22: a version re-measured after a noisy run ("v65_retry.json")
  // at 52.136 us against the 50.849 us its step record holds.
  auto again = [](double geomean, const char *status, double pct) {
    auto e = json::Value::object();
    e.set("geomean_us", geomean);
    e.set("correctness_status", status);
    e.set("improve_pct_vs_best_so_far", pct);
    auto list = json::Value::array();
    list.push_back(e);
    return list;
  };
  auto p = strategy_with(kTuningDiff, "BLOCK_SIZE 64 -> 128.");
  REQUIRE(distill::draft_record(p).record);
  auto &m = at(p.doc, {"agent_facing", "measurements"});
  m.set("re_measured_by_the_run", again(52.136, "PASS", -1.72));
  auto slower = distill::draft_record(p);
  REQUIRE(slower.refusal);
  CHECK(slower.refusal->field == "worth.gain.pct");
  CHECK_THAT(slower.refusal->why, Catch::StartsWith("the run measured this version again at 52.136 us geomean, "
                                                    "-1.72 % against its best-so-far"));
  m.set("re_measured_by_the_run", again(40.0, "FAIL", 30.0));
  auto failed = distill::draft_record(p);
  REQUIRE(failed.refusal);
  CHECK_THAT(failed.refusal->why, Catch::Contains("that run failed its correctness check (FAIL)"));
  // A re-measurement that bears the gain out changes nothing.
  m.set("re_measured_by_the_run", again(40.0, "PASS", 30.0));
  CHECK(distill::draft_record(p).record);

  // A reference kernel says what the re-measurement read.
  auto r = fixture("refk-final");
  auto &rm = at(r.doc, {"agent_facing", "measurements"});
  const auto recorded = rm.get("geomean_us").python_str();
  rm.set("re_measured_by_the_run", again(52.136, "PASS", 0));
  auto refk = distill::draft_record(r);
  REQUIRE(refk.record);
  CHECK_THAT(refk.record->get("payload").string_or("goal"),
             Catch::Contains(" The run measured this version again: 52.136 us geomean, against the " + recorded +
                             " us recorded here."));
  // The same figure again says nothing.
  rm.set("re_measured_by_the_run", again(*rm.get("geomean_us").as_number(), "PASS", 0));
  auto same = distill::draft_record(r);
  REQUIRE(same.record);
  CHECK_THAT(same.record->get("payload").string_or("goal"), !Catch::Contains("measured this version again"));
}

TEST_CASE("a CUDA reference kernel whose code holds what no compiler reads is refused", "[distill][issue25]") {
  // Kits 52 and 55, Y11, P22: `TORCH_CHECK(N %% kVec == 0, ...)` in the
  // kernel.cu the run says it built and measured.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing"}).set("kernel_file", "refk-final.cu");
  const std::string good = "#include <torch/extension.h>\n"
                           "__global__ void k(float* y, const float* x, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) y[i] = x[i] * 2.0f;\n"
                           "  asm volatile(\"mov.u32 %%r1, 0;\");\n"
                           "}\n"
                           "torch::Tensor forward(torch::Tensor x) {\n"
                           "  const int n = x.numel();\n"
                           "  TORCH_CHECK(n % 4 == 0, \"n must be a multiple of 4 (%% of 4)\");\n"
                           "  auto y = torch::empty_like(x);\n"
                           "  k<<<(n + 255) / 256, 256>>>(y.data_ptr<float>(), x.data_ptr<float>(), n);\n"
                           "  return y;\n"
                           "}\n";
  p.code = good;
  auto fine = distill::draft_record(p);
  INFO((fine.refusal ? fine.refusal->why : ""));
  CHECK_FALSE((fine.refusal && fine.refusal->why.find("is not C++ as written") != std::string::npos));
  p.code.replace(p.code.find("n % 4 == 0"), 10, "n %% 4 == 0");
  auto bad = distill::draft_record(p);
  REQUIRE(bad.refusal);
  CHECK(bad.refusal->field == "payload.implementation.snippet");
  CHECK_THAT(bad.refusal->why, Catch::StartsWith("the kernel file's line `TORCH_CHECK(n %% 4 == 0,") &&
                                   Catch::Contains("is not C++ as written"));
  CHECK(code::line_not_cxx(good) == std::nullopt);
}

TEST_CASE("a kernel that reads a pointer in two loops is not tagged single-pass", "[distill][issue25]") {
  // Kit 56, O01, O19: "single-pass" among the techniques of a kernel whose
  // two loops each load the row.
  auto p = fixture("refk-final");
  at(p.doc, {"agent_facing", "span"}).set("this_step_changes_running_code", false);
  at(p.doc, {"agent_facing"})
      .set("kept_changes_of_its_lineage", lineage_of({"Fused the max and sum into one pass.", "num_warps 4 -> 8."}));
  auto tags_of = [](const distill::Draft &d) {
    REQUIRE(d.record);
    return d.record->get("payload").get("trace").get("techniques_applied_before");
  };
  auto one = tags_of(distill::draft_record(p));
  CHECK(std::find(one.as_array()->begin(), one.as_array()->end(), json::Value("single-pass")) != one.as_array()->end());
  p.code = "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
           "def softmax_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
           "    row = tl.program_id(0)\n"
           "    cols = tl.arange(0, BLOCK)\n"
           "    m = 0.0\n"
           "    for off in range(0, n, BLOCK):\n"
           "        x = tl.load(x_ptr + row * n + off + cols, mask=off + cols < n, other=0.0)\n"
           "        m = tl.maximum(m, tl.max(x, 0))\n"
           "    for off in range(0, n, BLOCK):\n"
           "        x = tl.load(x_ptr + row * n + off + cols, mask=off + cols < n, other=0.0)\n"
           "        tl.store(y_ptr + row * n + off + cols, tl.exp(x - m), mask=off + cols < n)\n\n\n"
           "def softmax(x):\n    y = torch.empty_like(x)\n"
           "    softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=1024, num_warps=8)\n    return y\n";
  auto two = tags_of(distill::draft_record(p));
  INFO(two.python_str());
  CHECK(std::find(two.as_array()->begin(), two.as_array()->end(), json::Value("single-pass")) == two.as_array()->end());
}
