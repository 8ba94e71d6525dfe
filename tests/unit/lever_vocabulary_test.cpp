// Issue 25: the lever vocabulary is data (levers section of
// data/otm-config.json): prose forms that name a lever, code forms per DSL
// that realise it. Claims are read before their cause clause; a name inside
// a longer name of another lever is that lever's.
#include <catch2/catch.hpp>

#include <algorithm>

#include "config/config.hpp"
#include "diff/diff_reading.hpp"
#include "distill_test_support.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "levers/lever_reading.hpp"
#include "levers/lever_settings.hpp"
#include "levers/lever_vocabulary.hpp"
#include "levers/name_in_words.hpp"
#include "json/parse.hpp"

using namespace otm;
using levers::LeverVocabulary;

namespace {
const LeverVocabulary &v() { return LeverVocabulary::defaults(); }
bool has(const std::vector<std::string> &list, const std::string &x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}
} // namespace

TEST_CASE("levers: prose names a lever however the run spells it", "[levers]") {
  CHECK(has(v().named_in("autotune BLOCK_SIZE over {1024, 2048, 4096}"), "block-size-tuning"));
  CHECK(has(v().named_in("autotune BLOCK_SIZE over {1024, 2048, 4096}"), "autotuning"));
  CHECK(has(v().named_in("bumped the warps to 8"), "num-warps-tuning"));
  CHECK(has(v().named_in("two more stages"), "pipeline-stages"));
  // Kit 56, O07: "try a deeper pipeline" left open after 22 failed num_stages=3 tries.
  CHECK(has(v().named_in("try a deeper pipeline"), "pipeline-stages"));
  CHECK(has(v().named_in("vec4 loads of the row"), "vectorized-memory-access"));
  CHECK(has(v().named_in("vectorised the row loads"), "vectorized-memory-access")); // British
  CHECK(has(v().named_in("vectorized the row loads"), "vectorized-memory-access")); // American
  // Round 11: "column chunk size: 2048" is the BLOCK_N it sets.
  CHECK(has(v().named_in("column chunk size: 2048"), "block-size-tuning"));
  // A name inside a longer name of another lever is that lever's.
  auto spec = v().named_in("a producer warps partition streams rows");
  CHECK(has(spec, "warp-specialization"));
  CHECK_FALSE(has(spec, "num-warps-tuning"));
  // Plain "block" is no block size; "threads per CTA" is warps.
  CHECK_FALSE(has(v().named_in("per thread block"), "block-size-tuning"));
  CHECK(has(v().named_in("bumped threads per CTA to 256"), "num-warps-tuning"));
  CHECK_FALSE(has(v().named_in("bumped threads per CTA to 256"), "block-size-tuning"));
  // "rsqrt-free" names the lever's absence (kit 50, W02), in either hyphen.
  CHECK(has(v().named_in("rsqrt recomputation of xhat"), "fast-math"));
  CHECK_FALSE(has(v().named_in("rsqrt-free recomputation of xhat"), "fast-math"));
  CHECK_FALSE(has(v().named_in("rsqrt\u2010free recomputation of xhat"), "fast-math"));
}

TEST_CASE("levers: a claim is what the text names before the cause it gives", "[levers]") {
  CHECK(levers::claim_part("BLOCK_SIZE 1024 -> 2048 so each program covers the row with fewer warps") ==
        "BLOCK_SIZE 1024 -> 2048");
  auto c = v().claimed_in("BLOCK_SIZE 1024 -> 2048 so each program covers the row with fewer warps");
  CHECK(has(c, "block-size-tuning"));
  CHECK_FALSE(has(c, "num-warps-tuning"));
  CHECK(levers::claim_part("num_warps 4 -> 8; the rows are long") == "num_warps 4 -> 8");
  CHECK(levers::claim_part("num_warps 4 -> 8") == "num_warps 4 -> 8");
}

TEST_CASE("levers: code forms per DSL, whole tokens, case-sensitive", "[levers]") {
  CHECK(v().in_code("block-size-tuning", "BLOCK_N 1024", "triton"));
  CHECK(v().in_code("num-warps-tuning", "num_warps 8", "gluon"));
  CHECK(v().in_code("cache-hints", "cache_modifier = \".cg\"", "triton"));
  CHECK(v().in_code("vectorized-memory-access", "asm volatile(\"ld.global.nc.L1::no_allocate.v4.u32 {%0}\")", "cuda"));
  CHECK(v().in_code("vectorized-memory-access", "const uint4 gv = load_pack(p)", "cuda"));
  CHECK(v().in_code("num-warps-tuning", "#define THREADS 256", "cuda"));
  CHECK_FALSE(v().in_code("num-warps-tuning", "THREADS = 256", "triton"));  // CUDA's form only
  CHECK_FALSE(v().in_code("block-size-tuning", "block_n = 4", "triton"));   // case-sensitive
  CHECK_FALSE(v().in_code("block-size-tuning", "NOBLOCK_N = 4", "triton")); // whole tokens
  // A lever no code can show (a fusion) is not checkable.
  CHECK_FALSE(v().checkable("kernel-fusion", "triton"));
  CHECK(v().checkable("residual-fusion", "triton"));
  CHECK(v().levers_in_code("__stcs(out + i, v);", "cuda") == std::vector<std::string>{"cache-hints"});
  // `std::vector` is no vector width (kit 51, X02 and X06).
  CHECK_FALSE(v().in_code("vectorized-memory-access", "std::vector<torch::Tensor> forward(torch::Tensor x)", "cuda"));
  CHECK(v().in_code("vectorized-memory-access", "using vec_t = uint4;", "cuda"));
  // A bf16 magic-number dequant is the bit trick too (kit 51, X10).
  CHECK(v().in_code("bit-trick-dequant", "lo = ((packed & 0xF).to(tl.int16) | 0x4300).to(tl.bfloat16, bitcast=True)",
                    "triton"));
}

TEST_CASE("levers: the vocabulary is configuration a user overrides, refused when malformed", "[levers]") {
  auto dir = testsupport::fresh_dir("levers-config");
  auto file = dir / "override.json";
  io::write_file_atomic(file, R"({"levers": {"warp-count": {"prose": ["warp count"], "code": {"any": ["NW"]}}}})");
  auto mine = LeverVocabulary::from_config(config::Config::load(file));
  CHECK(has(mine.named_in("raised the warp count"), "warp-count"));
  CHECK(mine.in_code("warp-count", "NW = 8", "cuda"));
  CHECK(has(mine.ids(), "num-warps-tuning")); // objects merge key by key: the defaults stay
  for (const char *bad : {R"({"levers": {"x": {"code": {"any": ["a"]}}}})", R"({"levers": {"x": {"prose": []}}})",
                          R"({"levers": {"x": {"prose": ["a"], "code": ["a"]}}})",
                          R"({"levers": {"x": {"prose": ["(unclosed"]}}})", R"({"levers": []})"}) {
    io::write_file_atomic(file, bad);
    INFO(bad);
    CHECK_THROWS_AS(LeverVocabulary::from_config(config::Config::load(file)), otm::Error);
  }
  // The technique vocabulary moved here: an old override says where.
  std::filesystem::remove_all(dir);
}

TEST_CASE("levers: the setting a text states, and one key per failed lever", "[levers][issue25]") {
  auto one = [](std::string_view text) {
    auto s = levers::settings_in(v(), text);
    REQUIRE_FALSE(s.empty());
    return s.front();
  };
  CHECK(one("num_warps 8 -> 4 cannot hide the latency").value == "4");
  CHECK(one("4 warps leave too few loads in flight").value == "4");
  CHECK(one("retuned num_warps to 16.").value == "16");
  CHECK(one("num_warps=16.").value == "16");
  CHECK(one("warp count per row-program 8→2").value == "2"); // round 10: what the count is of, between
  CHECK(one("warp count per row-program: 2").value == "2");
  CHECK(one("set warp count per row-program to 4").value == "4");
  CHECK(one("changed BLOCK_SIZE from 4096 to 8192").value == "8192");
  CHECK(levers::failed_lever_key(v(), "changed BLOCK_SIZE from 4096 to 8192", "triton") ==
        levers::failed_lever_key(v(), "block size 4096 -> 8192, at 8192 ptxas reports spills", "triton"));
  CHECK(one("two rows per program").value == "2");
  CHECK(one("drop cache_modifier=\".cg\"").value == "no .cg");
  CHECK(levers::settings_in(v(), "more warps").front().value.empty());
  // Spelled otherwise, with or without a cause: one lever.
  auto a = levers::failed_lever_key(v(), "4 warps leave too few loads in flight", "triton");
  CHECK(a == levers::failed_lever_key(v(), "num_warps 8 -> 4 (reverted: -3%)", "triton"));
  CHECK(levers::is_lever_key(a));
  // Another setting, another DSL: another lever.
  CHECK(a != levers::failed_lever_key(v(), "num_warps 8 -> 16", "triton"));
  CHECK(a != levers::failed_lever_key(v(), "4 warps leave too few loads in flight", "cuda"));
  // A lever named at no value: the lever, however worded.
  auto ws = levers::failed_lever_key(v(), "warp specialisation handoff latency", "gluon");
  CHECK(levers::is_lever_key(ws));
  CHECK(ws == levers::failed_lever_key(v(), "split into warp_specialize (reverted: +3%)", "gluon"));
  // Round 13: "half-precision accumulators" and "fp16 accumulation" are one
  // lesson; fp8 is another.
  auto half = levers::failed_lever_key(v(), "half-precision accumulators fails accuracy", "triton");
  CHECK(half == levers::failed_lever_key(v(), "fp16 accumulation fails accuracy (max_abs_err 4.4e+00)", "triton"));
  CHECK(half != levers::failed_lever_key(v(), "fp8 weights fail accuracy", "triton"));
  // "flash-decoding split=16", "split-K with 16 partitions": one setting.
  CHECK(levers::failed_lever_key(v(), "flash-decoding split=16 second pass", "triton") ==
        levers::failed_lever_key(v(), "split-K with 16 partitions", "triton"));
  // No lever named: the words decide, without figures or verdicts.
  auto w = levers::failed_lever_key(v(), "a second kernel for the statistics (reverted, +4%)", "triton");
  CHECK_FALSE(levers::is_lever_key(w));
  CHECK(w == levers::failed_lever_key(v(), "a second kernel for the statistics.", "triton"));
}

TEST_CASE("levers: a constant a text sets in code's own name, at the value it ends at", "[levers]") {
  auto settings = [](std::string_view text) {
    std::vector<std::string> out;
    for (const auto &s : levers::constant_settings_in(text)) out.push_back(s.name + "=" + s.value);
    return out;
  };
  CHECK(settings("MAX_BLOCK_N from 4096 to 8192") == std::vector<std::string>{"MAX_BLOCK_N=8192"});
  CHECK(settings("NUM_SPLITS=16, GROUP_M 1->8->16") == std::vector<std::string>{"NUM_SPLITS=16", "GROUP_M=16"});
  CHECK(settings("WARPS_PER_BLOCK: 4") == std::vector<std::string>{"WARPS_PER_BLOCK=4"});
  // A `k` and a capital is how C++ spells a constant (kit 48, U02).
  CHECK(settings("kWarps 4->2") == std::vector<std::string>{"kWarps=2"});
  // Not a constant's spelling: a lever's word, a lower-case name, a name
  // with no underscore.
  CHECK(settings("4 warps, num_warps 8->4, BLOCK 128").empty());
}

TEST_CASE("a code name spelled out in words", "[levers][issue25]") {
  CHECK(levers::spells_out("ROWS_PER_PROG", "packs two rows per program"));
  CHECK(levers::spells_out("CTAS_PER_SM", "2 CTAs per SM"));
  CHECK(levers::spells_out("numStagesPerLoop", "three stages per loop"));
  // One word, or words apart, is no spelling.
  CHECK_FALSE(levers::spells_out("BLOCK_N", "a wider block"));
  CHECK_FALSE(levers::spells_out("NUM_STAGES", "more stages"));
  CHECK_FALSE(levers::spells_out("ROWS_PER_PROG", "rows of each program"));
  CHECK_FALSE(levers::spells_out("ROWS_PER_PROG", "one program"));
}

TEST_CASE("levers: a line the diff only moves or re-indents changes no lever", "[levers][issue25]") {
  // Kit 28, Q24: a persistent tile loop re-indents the GROUP_M swizzle; the
  // kept steps GROUP_M 8 -> 16 -> 8 before it left nothing in the diff.
  const char *persistent = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -20,6 +20,8 @@ def gemm(a_ptr, b_ptr, M, N, GROUP_M: tl.constexpr):
-    pid = tl.program_id(0)
-    group_id = pid // (GROUP_M * num_pid_n)
-    first_pid_m = group_id * GROUP_M
+    for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
+        group_id = tile // (GROUP_M * num_pid_n)
+        first_pid_m = group_id * GROUP_M
)";
  auto diff = diff::read_diff(persistent);
  REQUIRE(diff.hunks.size() == 1);
  std::size_t moved = 0;
  for (const auto &c : diff.hunks[0].running) moved += c.moved;
  CHECK(moved == 2); // `first_pid_m = ...` on each side; the group_id lines differ
  CHECK_FALSE(
      levers::left_in_diff(diff, "Moved GROUP_M 16->8. Grouped rasterization keeps panels in L2.", v(), "triton"));
  CHECK(levers::left_in_diff(diff, "enable PERSISTENT: one program per SM loops over tiles.", v(), "triton"));
  // A line that really changes its GROUP_M is the lever's.
  const std::string changed = std::string(persistent) + "@@ -90,3 +92,3 @@ def run(a, b):\n-    GROUP_M = 16\n"
                                                        "+    GROUP_M = 8\n     gemm[grid](a, b, M, N, GROUP_M)\n";
  CHECK(levers::left_in_diff(diff::read_diff(changed), "Moved GROUP_M 16->8.", v(), "triton"));
}

TEST_CASE("levers: every lever a change text names must be in the diff, however it is worded", "[levers][issue25]") {
  // Kit 59, L01 and L05: "ex2.approx + smaller query tile (32)" for an exp2
  // change; "pipeline depth 3 + tl.make_tensor_descriptor loads" for
  // NUM_STAGES 2 -> 3. The second lever of each was in no line of the diff.
  const char *exp2 = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -45,3 +45,3 @@ def _silu(x, LAYOUT: gl.constexpr):
-    return x * gl.sigmoid(x)
+    return x * (1.0 / (1.0 + gl.math.exp2(-x * 1.44269504)))
)";
  auto query_tile = levers::read_levers(diff::read_diff(exp2), "ex2.approx + smaller query tile (32)", v(), "gluon");
  CHECK(has(query_tile.missing, "block-size-tuning"));
  const char *stages = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -12,3 +12,3 @@
-NUM_STAGES = 2
+NUM_STAGES = 3
)";
  auto descriptors =
      levers::read_levers(diff::read_diff(stages), "pipeline depth 3 + tl.make_tensor_descriptor loads", v(), "triton");
  CHECK(has(descriptors.realised, "pipeline-stages"));
  CHECK(has(descriptors.missing, "tma"));
  // A change that names only what its diff holds misses nothing.
  CHECK(levers::read_levers(diff::read_diff(stages), "pipeline depth 3", v(), "triton").missing.empty());
  // An autotune list's `for` line sets the tiles the config line after it
  // reads (kit 61, J01: the running change of "column tile 32->64").
  const char *configs = R"(diff --git a/kernel.py b/kernel.py
--- a/kernel.py
+++ b/kernel.py
@@ -36,5 +36,5 @@ def _check_inputs(*tensors):
 def _autotune_configs():
     cfgs = []
-    for _m, _n in [(32, 16), (64, 32)]:
+    for _m, _n in [(32, 32), (64, 64)]:
         for w in (4, 8):
             cfgs.append(triton.Config({'BM': _m, 'BN': _n}, num_warps=w))
)";
  CHECK(has(levers::read_levers(diff::read_diff(configs), "column tile 32->64", v(), "triton").realised,
            "block-size-tuning"));
  // The same list feeding no tile: not the lever's.
  std::string warps = configs;
  warps.replace(warps.find("{'BM': _m, 'BN': _n}"), 20, "{}");
  CHECK(has(levers::read_levers(diff::read_diff(warps), "column tile 32->64", v(), "triton").missing,
            "block-size-tuning"));
  // A tile's code name is its lever, so accounts of TILE_K=64 are one lever.
  CHECK(levers::failed_lever_key(v(), "TILE_K=64 does not compile (OutOfResources)", "gluon") ==
        levers::failed_lever_key(v(), "TILE_K 32->64 regresses large shapes", "gluon"));
  // A layout is a setting by name, however the text calls the lever.
  const auto layout = levers::settings_in(v(), "channel-innermost layout nchw->nhwc");
  REQUIRE(layout.size() == 1);
  CHECK(layout[0].lever == "memory-layout");
  CHECK(layout[0].value == "nhwc");
  CHECK(levers::failed_lever_key(v(), "channels_last=nchw", "triton") ==
        levers::failed_lever_key(v(), "memory format set to nchw", "triton"));
  CHECK(levers::is_named_value("nhwc"));
  CHECK_FALSE(levers::is_named_value("64"));
  CHECK_FALSE(levers::is_named_value("true"));
}
