// Which shape a per-shape figure is about (packet/shape_reach.hpp): the
// workload's lines name their shapes by an id or by their axes spelled
// out, under "axes" or flat on the line (kit 45: both generators wrote
// flat lines, and every per-shape figure read "shape-N" with no axes).
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "distill_test_support.hpp"
#include "io/file.hpp"
#include "packet/shape_reach.hpp"
#include "trace/trace_files.hpp"

using namespace otm;

TEST_CASE("shape reach: a workload line's axes, nested or flat, under every name it is timed by", "[packet]") {
  auto dir = testsupport::fresh_dir("shape-reach");
  io::write_file_atomic(dir / "workload.jsonl", "{\"axes\": {\"M\": 1, \"N\": 4096}, \"uuid\": \"ab12cd34\"}\n"
                                                "{\"name\": \"M4096_N1024\", \"M\": 4096, \"N\": 1024, "
                                                "\"dtype\": \"bfloat16\"}\n"
                                                "{\"T\": 512, \"V\": 256000}\n"
                                                "{\"note\": \"no axes\"}\n");
  const auto config = config::Config::defaults();
  trace::TraceFiles files(dir, config.limits());
  packet::Context ctx;
  ctx.files = &files;
  const auto reach = packet::shapes_reached(nullptr, workspace::Segment{}, ctx);
  auto axes_of = [&](const std::string &key) {
    auto it = reach.axes.find(key);
    return it == reach.axes.end() ? code::ShapeAxes::Values{} : it->second;
  };
  CHECK(axes_of("ab12cd34") == code::ShapeAxes::Values{{"M", 1}, {"N", 4096}});
  CHECK(axes_of("M1_N4096") == axes_of("ab12cd34"));
  CHECK(axes_of("M4096_N1024") == code::ShapeAxes::Values{{"M", 4096}, {"N", 1024}});
  CHECK(axes_of("T=512,V=256000") == code::ShapeAxes::Values{{"T", 512}, {"V", 256000}});
  CHECK(axes_of("T512_V256000") == axes_of("T=512,V=256000"));
  CHECK(reach.axes.size() == 7); // a line with no number names no shape
  std::filesystem::remove_all(dir);
}
