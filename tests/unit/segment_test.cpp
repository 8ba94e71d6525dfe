// The segment's codec (workspace/segment.hpp): the segments otm-partition
// wrote for the example trace read and write back byte for byte, in each
// kind's key order, and a field of another type is an error naming it.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "error_kind.hpp"
#include "golden.hpp"
#include "workspace/segment.hpp"
#include "workspace/segment_kinds.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using workspace::Segment;

using otm::test::mentions;

namespace {

// The segments otm-partition wrote for the example trace.
std::vector<std::string> golden_segments() { return testsupport::golden_lines("example/segments.jsonl"); }

} // namespace

TEST_CASE("segments read and write back byte for byte, in each kind's order", "[segment]") {
  std::set<std::string> kinds;
  for (const auto &line : golden_segments()) {
    INFO(line);
    auto seg = Segment::from_json(json::parse(line));
    REQUIRE(seg.ok());
    CHECK(seg.value().later.size() == 0); // every key is a field
    CHECK(json::to_line(seg.value().to_json()) == line);
    kinds.insert(seg.value().seg_kind);
  }
  // Every order the writer knows is proven: a strategy, both dead-end
  // accounts, a curated pitfall, both reference kernels.
  for (const char *k :
       {workspace::kDeadendItemSegment, workspace::kDeadendProseSegment, workspace::kCuratedPitfallSegment,
        workspace::kFinalKernelSegment, workspace::kMegaSnapshotSegment})
    CHECK(kinds.count(k));
  CHECK(std::any_of(kinds.begin(), kinds.end(),
                    [](const std::string &k) { return k.rfind(workspace::kMilestoneSegmentPrefix, 0) == 0; }));
}

TEST_CASE("a segment's fields are typed, and a final kernel has no measured_against", "[segment]") {
  const Segment *final_kernel = nullptr;
  std::vector<Segment> all;
  for (const auto &line : golden_segments()) all.push_back(Segment::from_json(json::parse(line)).value());
  for (const auto &s : all)
    if (s.seg_kind == workspace::kFinalKernelSegment) final_kernel = &s;
  REQUIRE(final_kernel);
  CHECK(final_kernel->record_type == "reference-kernel");
  CHECK(final_kernel->kernel_file == "kernel.py");
  CHECK_FALSE(final_kernel->measured_against);
  CHECK_FALSE(final_kernel->final_kernel);
  CHECK(json::to_line(final_kernel->to_json()).find("measured_against") == std::string::npos);
  const Segment &first = all.front();
  CHECK(first.record_type == "strategy");
  CHECK(first.measured_against.has_value());
  CHECK(first.disc >= 1);
  CHECK_FALSE(first.id.empty());
}

TEST_CASE("a segment with a field of another type is an UnreadableInput error naming it", "[segment]") {
  struct Case {
    const char *json, *field;
  };
  for (const auto &c :
       {Case{R"({"seg_id": "s", "record_type": "strategy"})", "`version`"},
        Case{R"({"version": "v1", "record_type": "strategy"})", "`seg_id`"},
        Case{R"({"version": "v1", "seg_id": "s", "record_type": 1})", "`record_type`"},
        Case{R"({"version": "v1", "seg_id": "s", "record_type": "strategy", "disc": "1"})", "`disc`"},
        Case{R"({"version": "v1", "seg_id": "s", "record_type": "strategy", "sha": 3})", "`sha`"},
        Case{R"({"version": "v1", "seg_id": "s", "record_type": "strategy", "ncu_dirs": [1]})", "`ncu_dirs`"},
        Case{R"({"version": "v1", "seg_id": "s", "record_type": "strategy", "comparable": "yes"})", "`comparable`"}}) {
    INFO(c.json);
    auto seg = Segment::from_json(json::parse(c.json));
    REQUIRE_FALSE(seg.ok());
    CHECK(seg.error().kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(seg.error(), c.field));
  }
  std::vector<json::Value> rows{
      json::parse(R"({"version": "v1", "seg_id": "s", "record_type": "strategy"})"),
      json::parse(R"({"version": "v1", "seg_id": "s", "record_type": "strategy", "n": 1.5})")};
  CHECK_THROWS_MATCHES(workspace::read_segments(rows, "segments.jsonl"), Error,
                       test::of_kind(ErrorKind::UnreadableInput));
  try {
    workspace::read_segments(rows, "segments.jsonl");
  } catch (const Error &e) {
    CHECK(mentions(e, "segments.jsonl: row 2"));
    CHECK(mentions(e, "`n`"));
  }
}
