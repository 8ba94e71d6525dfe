// An mbarrier phase that starts again with every tile of a persistent loop
// (code/barrier_phases.hpp), and the three ways a kernel carries it
// correctly.
#include <catch2/catch.hpp>

#include <string>

#include "code/barrier_phases.hpp"

using namespace otm;

namespace {

// A persistent TMA ring: the barriers are initialised once, the phase is
// computed from the k loop alone. `carry` replaces the phase computation;
// `init_inside` moves the initialisation into the tile loop.
std::string kernel(const std::string &phase_lines, const std::string &before_tiles = "",
                   const std::string &tile_end = "", bool init_inside = false) {
  std::string init = "    for i in gl.static_range(NUM_STAGES):\n"
                     "        mbarrier.init(ready.index(i), count=1)\n";
  std::string init_in = "        for i in gl.static_range(NUM_STAGES):\n"
                        "            mbarrier.init(ready.index(i), count=1)\n";
  return "import triton\n"
         "from triton.experimental import gluon\n"
         "from triton.experimental.gluon import language as gl\n"
         "from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier\n"
         "\n"
         "@gluon.jit\n"
         "def gemm(a_desc, c_ptr, M, K, BLOCK_K: gl.constexpr, NUM_STAGES: gl.constexpr, NUM_SMS: gl.constexpr):\n"
         "    a_smem = gl.allocate_shared_memory(a_desc.dtype, [NUM_STAGES, 128, BLOCK_K], a_desc.layout)\n"
         "    ready = gl.allocate_shared_memory(gl.int64, [NUM_STAGES, 1], mbarrier.MBarrierLayout())\n" +
         (init_inside ? "" : init) + before_tiles +
         "    num_tiles = gl.cdiv(M, 128)\n"
         "    for tile_id in range(gl.program_id(0), num_tiles,\n"
         "                         NUM_SMS):\n" +
         (init_inside ? init_in : "") +
         "        k_tiles = gl.cdiv(K, BLOCK_K)  # per tile\n"
         "        k_lo = 0\n"
         "        for kt in range(k_lo, k_tiles):\n"
         "            s = (kt - k_lo) % NUM_STAGES\n" +
         phase_lines +
         "            tma.async_copy_global_to_shared(a_desc, [tile_id * 128, kt * BLOCK_K], ready.index(s),\n"
         "                                            a_smem.index(s))\n"
         "            mbarrier.wait(ready.index(s), phase)\n" +
         tile_end + "    return\n";
}

} // namespace

TEST_CASE("barrier phases: a phase computed from the k loop alone restarts with every tile", "[code][issue25]") {
  auto r = code::barrier_phase_restarted_per_tile(
      kernel("            phase = ((kt - k_lo) // NUM_STAGES) & 1  # the ring's parity\n"));
  REQUIRE(r);
  CHECK(r->barrier == "ready");
  CHECK(r->phase == "((kt - k_lo) // NUM_STAGES) & 1  # the ring's parity");
  CHECK_THAT(r->tile_loop, Catch::StartsWith("for tile_id in range("));
  CHECK_THAT(r->why(), Catch::Contains("starts again with every iteration"));
  // Written inline in the wait, the same.
  auto inline_phase = kernel("            phase = 0\n");
  auto pos = inline_phase.find("mbarrier.wait(ready.index(s), phase)");
  inline_phase.replace(pos, std::string("mbarrier.wait(ready.index(s), phase)").size(),
                       "mbarrier.wait(ready.index(s), (kt // NUM_STAGES) & 1)");
  CHECK(code::barrier_phase_restarted_per_tile(inline_phase));
}

TEST_CASE("barrier phases: a counter carried across tiles, the tile's own index, or barriers initialised per tile "
          "are not flagged",
          "[code][issue25]") {
  // A counter bound before the tile loop and advanced inside it.
  CHECK_FALSE(code::barrier_phase_restarted_per_tile(kernel("            phase = (it // NUM_STAGES) & 1\n"
                                                            "            it += 1\n",
                                                            "    it = 0\n")));
  // A phase flipped in place.
  CHECK_FALSE(code::barrier_phase_restarted_per_tile(kernel("            if s == NUM_STAGES - 1:\n"
                                                            "                phase ^= 1\n",
                                                            "    phase = 0\n")));
  // A phase derived from the tile loop's own variable.
  CHECK_FALSE(code::barrier_phase_restarted_per_tile(
      kernel("            g = ((tile_id - gl.program_id(0)) // NUM_SMS) * k_tiles + kt\n"
             "            phase = (g // NUM_STAGES) & 1\n")));
  // Barriers initialised again for every tile.
  CHECK_FALSE(code::barrier_phase_restarted_per_tile(
      kernel("            phase = ((kt - k_lo) // NUM_STAGES) & 1\n", "", "", true)));
  // One loop, no tiles: its counter is the barrier's whole life.
  CHECK_FALSE(code::barrier_phase_restarted_per_tile("from triton.experimental import gluon\n"
                                                     "@gluon.jit\n"
                                                     "def k(a, K, NUM_STAGES: gl.constexpr):\n"
                                                     "    mbarrier.init(ready.index(0), count=1)\n"
                                                     "    for kt in range(0, K):\n"
                                                     "        phase = (kt // NUM_STAGES) & 1\n"
                                                     "        mbarrier.wait(ready.index(0), phase)\n"));
}
