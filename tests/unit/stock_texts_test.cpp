// The run's stock sentences (packet/stock_texts.hpp): a text its step
// records give on steps of several kinds is a template; one kind's
// repeated reason is not.
#include <catch2/catch.hpp>

#include "packet/stock_texts.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

workspace::VersionRow step(const std::string &version, const std::string &category, const std::string &pitfalls) {
  workspace::VersionRow r;
  r.version = version;
  r.action_category = category;
  r.pitfalls = json::parse(pitfalls);
  return r;
}

} // namespace

TEST_CASE("stock texts: counted over steps and kinds of change, both pitfall vintages", "[packet][issue25]") {
  const std::string spills = R"([{"error_message": "register spills once tiles exceed 64 regs/thread",
                                  "root_cause": "Seen again on this step."}])";
  const std::string bf16 = R"([{"pitfall": "bf16 accumulation loses 8 mantissa bits over a long sum"}])";
  std::vector<workspace::VersionRow> rows{step("v1", "tiling", spills),      step("v2", "launch_config", spills),
                                          step("v3", "parallelism", spills), step("v4", "precision", bf16),
                                          step("v5", "precision", bf16),     step("v6", "precision", bf16)};
  rows[3].expected_impact = "fewer bytes per element";
  packet::StockTexts stock(rows);
  const auto s = stock.count_of("Register spills once tiles exceed 64 regs/thread");
  CHECK(s.steps == 3);
  CHECK(s.kinds == 3);
  CHECK(s.repeated_across_kinds());
  CHECK(stock.count_of("Seen again on this step.").kinds == 3);
  // One lever failing for one reason, again and again: not a template.
  const auto b = stock.count_of("bf16 accumulation loses 8 mantissa bits over a long sum");
  CHECK(b.steps == 3);
  CHECK(b.kinds == 1);
  CHECK_FALSE(b.repeated_across_kinds());
  CHECK(stock.count_of("fewer bytes per element").steps == 1);
  CHECK(stock.count_of("never said").steps == 0);
  CHECK(packet::StockTexts::explanations_of(rows[3]) ==
        std::vector<std::string>{"fewer bytes per element", "bf16 accumulation loses 8 mantissa bits over a long sum"});
}
