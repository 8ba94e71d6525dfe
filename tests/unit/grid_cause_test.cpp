// A cause about the launch grid checked against each shape's program count
// (distill/grid_cause, code::programs_per_shape; issue 25, round 9).
#include <catch2/catch.hpp>

#include "code/shape_paths.hpp"
#include "config/config.hpp"
#include "diff/diff_reading.hpp"
#include "distill/grid_cause.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

std::string softmax(const std::string &grid) {
  return R"(import torch
import triton
import triton.language as tl

NUM_SMS = torch.cuda.get_device_properties(0).multi_processor_count


@triton.jit
def k(x_ptr, n_rows, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        tl.store(x_ptr + row * BLOCK + tl.arange(0, BLOCK), 1.0)


def launch(x):
    n_rows, n_cols = x.shape
    k[)" +
         grid + R"(](x, n_rows, BLOCK=4096)
    return x
)";
}

std::vector<code::ShapeAxes> rows(std::initializer_list<double> counts) {
  std::vector<code::ShapeAxes> out;
  for (double n : counts) out.push_back({{{"n_rows", n}, {"n_cols", 4096}}});
  return out;
}

// A packet's measurements: per shape, programs before and after and the
// change in percent; the product's SMs.
json::Value measurements(const std::vector<std::tuple<double, double, double>> &shapes, double sms = 132) {
  json::Value m = json::Value::object();
  json::Value list = json::Value::array();
  int i = 1;
  for (const auto &[before, after, change] : shapes) {
    json::Value s = json::Value::object();
    s.set("shape", "shape-" + std::to_string(i++));
    s.set("change_pct", change);
    s.set("programs_before", before);
    s.set("programs_after", after);
    list.push_back(std::move(s));
  }
  m.set("per_shape_vs_measured_against", list);
  m.set("sm_count", sms);
  return m;
}

const distill::GridCauseRule &rule() {
  static const auto r = distill::GridCauseRule::from_json(
      json::parse(R"J({"causes": ["partial (?:last )?waves?", "launch (?:overheads?|costs?)"],
                      "fill_causes": ["fill(?:s|ed)? (?:all |the )?SMs"]})J"),
      "test");
  return r;
}

} // namespace

TEST_CASE("programs per shape: a persistent grid counted with the product's SMs", "[grid]") {
  auto shapes = rows({64, 132, 4096});
  auto counts = code::programs_per_shape(softmax("(n_rows,)"), softmax("(min(n_rows, NUM_SMS),)"), shapes, {}, 132);
  REQUIRE(counts.size() == 3);
  REQUIRE(counts[0]);
  CHECK(counts[0]->before == 64);
  CHECK(counts[0]->after == 64); // fewer rows than SMs: the grid is as it was
  CHECK(counts[1]->after == 132);
  CHECK(counts[2]->before == 4096);
  CHECK(counts[2]->after == 132);
  // Without the SM count the persistent grid is unknown.
  auto unknown = code::programs_per_shape(softmax("(n_rows,)"), softmax("(min(n_rows, NUM_SMS),)"), shapes, {}, {});
  CHECK_FALSE(unknown[2].has_value());
  // The SM count cached in a global on the first launch.
  std::string cached = softmax("(min(n_rows, _NUM_SMS * 2),)");
  cached.replace(cached.find("    n_rows, n_cols = x.shape\n"), 0,
                 "    global _NUM_SMS\n    if _NUM_SMS is None:\n"
                 "        _NUM_SMS = torch.cuda.get_device_properties(x.device).multi_processor_count\n");
  auto lazy = code::programs_per_shape(softmax("(n_rows,)"), cached, shapes, {}, 132);
  REQUIRE(lazy[2]);
  CHECK(lazy[2]->after == 264);
  // Two-dimensional grids multiply.
  auto two = code::programs_per_shape(softmax("(n_rows, 2)"), softmax("(n_rows, 4)"), shapes, {}, 132);
  CHECK(two[0]->before == 128);
  CHECK(two[0]->after == 256);
}

TEST_CASE("a grid cause is contradicted by the shapes whose program count did not change", "[grid]") {
  // Round 9: the gain sits on the shapes whose grid stayed.
  auto m = measurements({{64, 64, -9.0}, {96, 96, -8.0}, {4096, 132, -3.0}, {8192, 132, -2.0}});
  auto why = rule().contradiction("Fewer launches: the launch overhead is paid once per SM.", m);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"launch overhead\"") && Catch::Contains("shape-1 (64 programs)") &&
                       Catch::Contains("gained 8.5 % on average") && Catch::Contains("(2.5 %)"));
  // The gain where the grid changed: the cause stands.
  auto ok = measurements({{64, 64, -0.5}, {96, 96, 0.2}, {4096, 132, -6.0}, {8192, 132, -7.0}});
  CHECK_FALSE(rule().contradiction("Fewer launches: the launch overhead is paid once per SM.", ok));
  // No shape's grid changed at all.
  auto none = measurements({{64, 64, -5.0}, {4096, 4096, -5.0}});
  auto all_same = rule().contradiction("It removes the partial wave.", none);
  REQUIRE(all_same);
  CHECK_THAT(*all_same, Catch::Contains("every shape starts as many programs"));
  // A cause that is not about the grid is not read.
  CHECK_FALSE(rule().contradiction("The row stays in registers between the passes.", none));
  // One counted shape decides nothing.
  CHECK_FALSE(rule().contradiction("It removes the partial wave.", measurements({{64, 64, -5.0}})));
}

TEST_CASE("a fill cause is contradicted by shapes that already filled the SMs", "[grid]") {
  // Round 9: split-K "to fill the SMs", its largest gains where the grid already covered them.
  auto m = measurements({{32, 256, -4.0}, {264, 2112, -12.0}, {528, 4224, -11.0}});
  auto why = rule().contradiction("Splitting K 8 ways fills the SMs at small batch.", m);
  REQUIRE(why);
  CHECK_THAT(*why,
             Catch::Contains("already started at least 132 programs") && Catch::Contains("shape-2 (264 programs)"));
  auto ok = measurements({{32, 256, -20.0}, {64, 512, -15.0}, {528, 4224, -1.0}});
  CHECK_FALSE(rule().contradiction("Splitting K 8 ways fills the SMs at small batch.", ok));
  auto all_full = measurements({{264, 2112, -12.0}, {528, 4224, -11.0}});
  REQUIRE(rule().contradiction("Splitting K 8 ways fills the SMs.", all_full));
}

TEST_CASE("a tail-removal cause is contradicted by a persistent loop that ends on a partial round", "[grid]") {
  const auto shipped =
      distill::GridCauseRule::from_json(config::Config::defaults().data().get("launch_grid"), "shipped");
  // Kit 39, K09: 448 tiles over 148 persistent programs, four rounds, the
  // last with 4 of them busy.
  auto m = measurements({{56, 56, -0.4}, {448, 148, -1.4}, {6144, 148, -3.5}, {3584, 148, -5.0}}, 148);
  auto why = shipped.contradiction("one CTA per SM loops over tiles, removing wave-quantisation tails", m);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"removing wave-quantisation tails\"") &&
                       Catch::Contains("shape-2 its 148 programs loop over the 448") &&
                       Catch::Contains("in 4 rounds, the last with 4 of them busy"));
  // Kit 39, K20: token rows over many rounds, or a last round mostly busy:
  // the tail is small, the cause stands.
  auto rows = measurements({{4, 16, -1.1}, {128, 512, -3.2}, {4096, 1136, -4.3}, {16384, 1136, -6.5}}, 142);
  CHECK_FALSE(shipped.contradiction("grid sized to the SM count streams tokens with no tail wave", rows));
  // An even split leaves no tail; a cause that claims no removal is not read so.
  auto even = measurements({{56, 56, -0.4}, {444, 148, -4.0}, {592, 148, -5.0}}, 148);
  CHECK_FALSE(shipped.contradiction("one CTA per SM loops over tiles, removing wave-quantisation tails", even));
  CHECK_FALSE(shipped.contradiction("one CTA per SM loops over tiles, amortising the prologue",
                                    measurements({{56, 56, -0.4}, {448, 148, -4.0}}, 148)));
  // The bound is configuration.
  CHECK_THROWS(distill::GridCauseRule::from_json(json::parse(R"({"tail_rounds_max": 0})"), "test"));
  auto strict = distill::GridCauseRule::from_json(
      json::parse(R"({"tail_removal_causes": ["removing (?:\\S+ )?tails"], "tail_rounds_max": 3})"), "test");
  CHECK_FALSE(strict.contradiction("one CTA per SM loops over tiles, removing wave-quantisation tails", m));
}

TEST_CASE("a tail-removal cause is contradicted by a profile of the kernel after it that sees a tail", "[grid]") {
  // Kit 52, Y14: "Amortize launch and prologue cost; remove tail wave."
  // over a capture of the persistent kernel reading "Tail effect visible".
  const auto shipped =
      distill::GridCauseRule::from_json(config::Config::defaults().data().get("launch_grid"), "shipped");
  auto profiler = [](const std::string &conclusion, bool under_test) {
    json::Value p = json::Value::object();
    p.set("conclusion", conclusion);
    p.set("conclusion_is_from_the_kernel_under_test", under_test);
    return p;
  };
  const std::string seen = "| bottleneck | compute | Tail effect visible: the last wave is under-utilized.";
  auto why =
      shipped.tail_seen_contradiction("Amortize launch and prologue cost; remove tail wave.", profiler(seen, true));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"remove tail\"") && Catch::Contains("\"Tail effect visible\""));
  // Another kernel's capture, a profile without a tail, or no such cause.
  CHECK_FALSE(shipped.tail_seen_contradiction("remove tail wave", profiler(seen, false)));
  CHECK_FALSE(shipped.tail_seen_contradiction("remove tail wave", profiler("| bottleneck | memory |", true)));
  CHECK_FALSE(shipped.tail_seen_contradiction("Amortize launch and prologue cost.", profiler(seen, true)));
}

TEST_CASE("a change saying the grid is the SM count is contradicted by a launch of a multiple of it", "[grid]") {
  // Kit 51, X13: "persistent grid-stride tile loop (grid = #SMs)" whose
  // launch is `std::min(rows_total, num_sms * 4)`.
  const auto shipped =
      distill::GridCauseRule::from_json(config::Config::defaults().data().get("launch_grid"), "shipped");
  auto launch = [](const std::string &grid) {
    return diff::read_diff("--- a/kernel.cu\n+++ b/kernel.cu\n@@ -119,3 +118,3 @@\n"
                           "     const int rows_total = M;\n"
                           "-    dim3 grid(rows_total, SPLIT);\n"
                           "+    dim3 grid(" +
                           grid + ", SPLIT);\n");
  };
  auto why = shipped.sm_count_claim_contradiction("persistent grid-stride tile loop (grid = #SMs)",
                                                  launch("std::min(rows_total, num_sms * 4)"));
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("\"grid = #SMs\"") && Catch::Contains("`num_sms * 4`, 4 programs per SM"));
  CHECK(shipped.sm_count_claim_contradiction("one program per SM loops over the rows",
                                             launch("std::min(rows_total, 2 * NUM_SMS)")));
  // The SM count itself, a launch that says no such thing, or a multiple
  // of one: not contradicted.
  CHECK_FALSE(shipped.sm_count_claim_contradiction("persistent grid-stride tile loop (grid = #SMs)",
                                                   launch("std::min(rows_total, num_sms)")));
  CHECK_FALSE(shipped.sm_count_claim_contradiction("persistent grid-stride tile loop (grid = #SMs)",
                                                   launch("std::min(rows_total, num_sms * 1)")));
  CHECK_FALSE(shipped.sm_count_claim_contradiction("persistent grid-stride tile loop",
                                                   launch("std::min(rows_total, num_sms * 4)")));
  // Without the section's lists the rule is off.
  CHECK_FALSE(distill::GridCauseRule::from_json(json::parse("{}"), "test")
                  .sm_count_claim_contradiction("grid = #SMs", launch("num_sms * 4")));
}

TEST_CASE("the launch_grid section is checked when read", "[grid]") {
  CHECK_THROWS(distill::GridCauseRule::from_json(json::parse(R"({"causes": "wave"})"), "test"));
  CHECK_THROWS(distill::GridCauseRule::from_json(json::parse(R"([1])"), "test"));
  CHECK_NOTHROW(distill::GridCauseRule::from_json(json::Value(), "test"));
}

TEST_CASE("the product's SM count is configuration", "[grid]") {
  const auto config = config::Config::defaults();
  CHECK(config.sm_count("h100") == std::optional<long>(132));
  CHECK(config.sm_count("b200") == std::optional<long>(148));
  CHECK_FALSE(config.sm_count("sm120").has_value()); // one product id, several parts
  CHECK_FALSE(config.sm_count("").has_value());
}

TEST_CASE("the shipped causes read rows-per-program amortisation as a grid cause", "[grid]") {
  // Kit 23, K12: a two-change step (top-k first, rows 1 -> 2) credited to
  // "several tokens per program amortise the expert-index vector and launch
  // geometry", while the one-token shape, its program count unchanged,
  // gained as much as the others.
  const auto shipped =
      distill::GridCauseRule::from_json(config::Config::defaults().data().get("launch_grid"), "shipped");
  auto m = measurements({{1, 1, -12.46}, {16, 8, -10.53}, {512, 256, -8.24}, {4096, 2048, -15.82}});
  auto why =
      shipped.contradiction("several tokens per program amortise the expert-index vector and launch geometry", m);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("shape-1 (1 program)"));
  // Where only the shapes whose count halved gained, the cause stands.
  auto ok = measurements({{1, 1, -0.2}, {16, 8, -10.53}, {512, 256, -8.24}, {4096, 2048, -15.82}});
  CHECK_FALSE(shipped.contradiction("two rows per program amortise the launch geometry", ok));
}

TEST_CASE("programs per shape: an SM-count query inside the grid expression", "[grid]") {
  // Kit 30: `min(M, 4 * torch.cuda.get_device_properties(x.device).multi_processor_count)`
  // left every count unknown, so a one-row shape's "regression" under a grid
  // the change did not alter read as real.
  auto shapes = rows({1, 4096});
  auto counts = code::programs_per_shape(
      softmax("(triton.cdiv(n_rows, 1),)"),
      softmax("(min(n_rows, 4 * torch.cuda.get_device_properties(x.device).multi_processor_count),)"), shapes, {}, 108);
  REQUIRE(counts.size() == 2);
  REQUIRE(counts[0]);
  REQUIRE(counts[1]);
  CHECK(counts[0]->before == 1);
  CHECK(counts[0]->after == 1);
  CHECK(counts[1]->before == 4096);
  CHECK(counts[1]->after == 432);
  // Without the product's SM count the grid stays unknown.
  auto unknown = code::programs_per_shape(
      softmax("(n_rows,)"), softmax("(min(n_rows, 4 * torch.cuda.get_device_properties(0).multi_processor_count),)"),
      shapes, {}, std::nullopt);
  CHECK_FALSE(unknown[1]);
}
