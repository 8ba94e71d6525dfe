#include <catch2/catch.hpp>

#include "trace/subject_grammar.hpp"

using namespace otm::trace;
using V = std::vector<std::string>;

TEST_CASE("trace-format.md §2.2 worked examples", "[subject]") {
  auto f = parse_commit_message(
      "v6: kept -> 59.6\u219259.1\u00b5s (-0.7%) no improvement over 60.1us, 12th consecutive dead-end", "");
  CHECK_FALSE(f.reverted);
  CHECK(f.before_us == 59.6);
  CHECK(f.after_us == 59.1);
  CHECK(f.pct == -0.7);
  CHECK(f.baseline_us == 60.1);
  CHECK(f.deadend_streak == 12);
  CHECK_FALSE(f.deadend_items);
  CHECK_FALSE(f.next_direction);
  CHECK_FALSE(f.stated_change); // how the step ended, not what it changed

  auto g = parse_commit_message("v5: reverted (flat-within-noise, +0.04%) - dead-end recorded", "");
  CHECK(g.reverted);
  CHECK_FALSE(g.pct); // the percentage is not right after the parenthesis
  CHECK_FALSE(g.deadend_blob);
  CHECK_FALSE(g.deadend_items);
}

TEST_CASE("trace-format.md §2.3 splitting examples", "[subject]") {
  CHECK(split_deadend_list("A slow (x, y), B 2x slower. then more, C") == V{"A slow (x, y)", "B 2x slower"});
  CHECK(split_deadend_list("ab, abcd, e.g. 54.5 us slower, x") == V{"abcd", "e.g. 54.5 us slower"});
  CHECK(split_deadend_list("abcd]], efgh (ij, kl") == V{"abcd]]", "efgh (ij, kl"});
}

TEST_CASE("abbreviations do not end a dead-end item", "[subject]") {
  CHECK(split_deadend_list("tiling, e.g. the 64x64 tile, split-K i.e. two passes, wider vs. narrower loads. Then x") ==
        V{"tiling", "e.g. the 64x64 tile", "split-K i.e. two passes", "wider vs. narrower loads"});
  CHECK(split_deadend_list("cf. the note, approx. twice slower") == V{"cf. the note", "approx. twice slower"});
}

TEST_CASE("the verdict comes from the subject, a body marker line counts unless the subject says kept", "[subject]") {
  CHECK_FALSE(parse_commit_message("v7: faster loads", "The earlier split-K attempt was reverted.").reverted);
  CHECK(parse_commit_message("v7: Reverted split-K", "").reverted);
  CHECK(parse_commit_message("v8: split-K", "Dead-end recorded: slower by 3%").reverted);
  CHECK_FALSE(parse_commit_message("v8: kept split-K", "dead-end recorded: something else").reverted);
  CHECK_FALSE(parse_commit_message("v9: x", "We never got a dead-end recorded here").reverted);
}

TEST_CASE("the dead-end list and Next: stay within the part they start in", "[subject]") {
  auto f = parse_commit_message("v3: reverted - dead-end recorded: wider tiles, more warps",
                                "Long body about the profile, with commas, and more text.\n\nNext: try X");
  REQUIRE(f.deadend_items);
  CHECK(*f.deadend_items == V{"wider tiles", "more warps"});
  CHECK(f.deadend_blob == "wider tiles, more warps");
  REQUIRE(f.next_direction);
  CHECK(*f.next_direction == "try X");

  auto g = parse_commit_message("v4: reverted - dead-end recorded: A slower, B slower Next: try C",
                                "unrelated body\n\nmore");
  CHECK(*g.deadend_items == V{"A slower", "B slower"});
  CHECK(g.next_direction == "try C");

  auto h =
      parse_commit_message("v5: reverted", "Dead-end recorded: x tiles, y warps\nwrapped line\n\nlater text, more");
  CHECK(*h.deadend_items == V{"x tiles", "y warps\nwrapped line"});
  auto n = parse_commit_message("v6: faster", "Next: fuse the epilogue\ninto the main loop\n\nProfile: 3 stalls");
  CHECK(n.next_direction == "fuse the epilogue\ninto the main loop");
}

TEST_CASE("the change a subject states after its verdict and figures", "[subject]") {
  // Kit 49, V12: a kept step with no step record is known by its subject
  // alone; its change is what follows the figures.
  auto f = parse_commit_message("v108: kept -> 84.5\u219282.0\u00b5s (-3.0%) BLOCK_N 256->128, BLOCK_M 64->128", "");
  CHECK(f.stated_change == "BLOCK_N 256->128, BLOCK_M 64->128");
  CHECK(parse_commit_message("kept -> 61.5->61.0us (-0.8%) kWarps 4->2", "").stated_change == "kWarps 4->2");
  // A baseline, or a subject with no figures, states no change.
  CHECK_FALSE(
      parse_commit_message("v1: kept -> baseline 117.1\u00b5s geomean (naive triton kernel)", "").stated_change);
  CHECK_FALSE(parse_commit_message("v3: tried BLOCK_N 128", "").stated_change);
}
