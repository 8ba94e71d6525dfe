// A kept step that removes a barrier (diff/barrier_removal.hpp): no
// technique to copy, and no reference kernel after it (kit 46: S07, S22,
// S46 credited "remove redundant barrier" with a gain in noise; S41 and
// S21 quoted the kernel it left with a race).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "diff/barrier_removal.hpp"
#include "error/error.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("barrier removal: a diff that removes more barrier calls than it adds", "[diff][issue25]") {
  const auto config = config::Config::defaults();
  const auto rule = diff::BarrierRemovalRule::from_json(config.data().get("barrier_removal"), "otm-config.json");
  const std::string removed = "--- a/kernel.py\n+++ b/kernel.py\n@@ -57,4 +57,3 @@\n"
                              "         tl.store(dw_ptr + offs, dw)\n-        tl.debug_barrier()\n"
                              "         tl.atomic_xchg(lock_ptr, 0)\n";
  CHECK(rule.removed_barrier(removed) == std::optional<std::string>("tl.debug_barrier()"));
  const std::string cuda = "--- a/kernel.cu\n+++ b/kernel.cu\n@@ -60,3 +60,2 @@\n   red[w] = v;\n"
                           "-  __syncthreads();\n   if (w == 0) out = red[0];\n";
  CHECK(rule.removed_barrier(cuda) == std::optional<std::string>("__syncthreads();"));
  // Moved, not removed; a comment that names one; a diff that adds one.
  const std::string moved = "@@ -1,3 +1,3 @@\n-  __syncthreads();\n   a = b;\n+  __syncthreads();\n";
  CHECK_FALSE(rule.removed_barrier(moved));
  CHECK_FALSE(rule.removed_barrier("@@ -1 +1 @@\n-  // __syncthreads();\n+  // gone\n"));
  CHECK_FALSE(rule.removed_barrier("@@ -1 +1,2 @@\n   a = b;\n+  __syncthreads();\n"));
  // Without the section the rule checks nothing; a malformed one is refused.
  CHECK_FALSE(diff::BarrierRemovalRule::from_json(json::Value(), "x").removed_barrier(cuda));
  CHECK_THROWS_AS(diff::BarrierRemovalRule::from_json(json::parse(R"({"barriers": "__syncthreads"})"), "x"), Error);
}

TEST_CASE("barrier removal: a barrier replaced by mbarrier waits is no removal", "[diff][issue25]") {
  // Kit 46, S19: a warp-specialised pipeline's mbarriers took over from a
  // thread barrier.
  const auto config = config::Config::defaults();
  const auto rule = diff::BarrierRemovalRule::from_json(config.data().get("barrier_removal"), "otm-config.json");
  const std::string ws = "@@ -1,2 +1,2 @@\n-    gl.thread_barrier()\n+    mbarrier.wait(ready.index(s), phase)\n";
  CHECK_FALSE(rule.removed_barrier(ws));
  CHECK(rule.removed_barrier("@@ -1,2 +1,1 @@\n-    gl.thread_barrier()\n     x = 1\n"));
}
