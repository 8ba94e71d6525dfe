// The paths the no-fabrication gate and otm-explain share
// (gates/record_numbers): a dotted path reads object keys and, in
// walk_scalars' form, list indices.
#include <catch2/catch.hpp>

#include "gates/record_numbers.hpp"
#include "json/parse.hpp"

using namespace otm;

TEST_CASE("a record path reads object keys and list indices", "[gates]") {
  auto v = json::parse(R"({"m": {"list": [{"x": 1}, {"x": 2, "y": [[7, 8]]}]}, "n": 3})");
  CHECK(*gates::at_path(v, "n").as_number() == 3);
  CHECK(*gates::at_path(v, "m.list[1].x").as_number() == 2);
  CHECK(*gates::at_path(v, "m.list[1].y[0][1]").as_number() == 8);
  CHECK(gates::at_path(v, "m.list[1]").is_object());
  // Out of range, not a list, or not an index: null.
  CHECK(gates::at_path(v, "m.list[2].x").is_null());
  CHECK(gates::at_path(v, "n[0]").is_null());
  CHECK(gates::at_path(v, "m.list[a].x").is_null());
  CHECK(gates::at_path(v, "m.list[1").is_null());
  CHECK(gates::at_path(v, "m.absent.x").is_null());
}
