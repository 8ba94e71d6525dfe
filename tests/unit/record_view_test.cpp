// The typed readings the read-side tools share: a staged record's fields
// (store/record_view.hpp) and a packet's provenance
// (workspace/packet_provenance.hpp), read from a record staged from the
// example trace and from the example's golden packets; a field of another
// type is an UnreadableInput error naming it, and a page's reading shows
// the record with that field absent.
#include <catch2/catch.hpp>

#include <filesystem>

#include "error_kind.hpp"
#include "golden.hpp"
#include "store/record_view.hpp"
#include "test_paths.hpp"
#include "workspace/packet_provenance.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using store::RecordView;
using workspace::PacketProvenance;

using otm::test::mentions;

namespace {

json::Value staged_record() {
  return json::parse_file(std::filesystem::path(otm::testing::source_dir()) / "testdata" / "hostile" / "record.json");
}

// `record` with the value at `path` ("a.b.c") replaced by `v`.
json::Value with(json::Value record, const std::vector<std::string> &path, json::Value v) {
  if (path.size() == 1) {
    record.set(path.front(), std::move(v));
    return record;
  }
  json::Value inner = record.get(path.front());
  record.set(path.front(), with(inner, std::vector<std::string>(path.begin() + 1, path.end()), std::move(v)));
  return record;
}

} // namespace

TEST_CASE("a staged record's fields read typed", "[record-view]") {
  auto v = RecordView::from_json(staged_record()).value();
  CHECK(v.id == "nvidia.b200.triton.fused-softmax-h4096.single-load-of-the-row-kept-in-registers-for-max-s01");
  CHECK(v.type == "strategy");
  CHECK(v.level == "operator");
  CHECK(v.episode_key ==
        "blackwell|triton|fused-softmax-h4096|single_load_of_the_row_kept_in_registers_for_max|operator");
  CHECK(v.scope.vendor == "nvidia");
  CHECK(v.scope.arch == "blackwell");
  CHECK(v.scope.product == "b200");
  CHECK(v.scope.dsl == "triton");
  CHECK(v.scope.operator_family == "fused-softmax-h4096");
  CHECK(v.source_repo == "kernel_opt_001_example_fused_softmax_h4096");
  CHECK(v.version == "v2");
  REQUIRE(v.git_commit);
  CHECK(v.git_commit->size() == 40);
  REQUIRE(v.diff_from);
  CHECK(v.diff_from->version == "v1");
  CHECK(v.diff_from->git_commit == "68c3231e53f1d946c8fa7ce424ebe20d2374eabf");
  REQUIRE(v.diff_to);
  CHECK(v.diff_to->version == "v2");
  CHECK(v.tier == "promising");
  CHECK(v.gain_basis == "measured");
  REQUIRE(v.snippet);
  CHECK(v.snippet->find("tl.load") != std::string::npos);
  CHECK(v.format == "unified-diff (verbatim; '-' = before this step, '+' = after)");
  // Absent and null read as absent.
  auto bare = RecordView::from_json(json::parse(R"({"type": "anti-strategy", "id": null,
      "evidence": {"raw": {"evidence_extra": {"diff_from": null}}}})"))
                  .value();
  CHECK(bare.type == "anti-strategy");
  CHECK_FALSE(bare.id);
  CHECK_FALSE(bare.scope.dsl);
  CHECK_FALSE(bare.diff_from);
  CHECK_FALSE(bare.diff_to);
}

TEST_CASE("a staged record's field of another type is an UnreadableInput error naming it", "[record-view]") {
  struct Case {
    std::vector<std::string> path;
    json::Value value;
    const char *field;
  };
  const std::vector<Case> cases = {
      {{"type"}, json::Value(3), "`type`"},
      {{"retrieval", "scope", "dsl"}, json::Value(true), "`retrieval.scope.dsl`"},
      {{"retrieval", "scope"}, json::Value("triton"), "`retrieval.scope`"},
      {{"evidence", "raw", "version"}, json::Value(2), "`evidence.raw.version`"},
      {{"evidence", "raw", "evidence_extra", "diff_from"},
       json::Value("v1"),
       "`evidence.raw.evidence_extra.diff_from`"},
      {{"evidence", "raw", "evidence_extra", "diff_to", "git_commit"},
       json::Value(1),
       "`evidence.raw.evidence_extra.diff_to.git_commit`"},
      {{"worth", "rank", "tier"}, json::Value(0.3), "`worth.rank.tier`"},
      {{"episode_key"}, json::Value(2), "`episode_key`"},
      {{"payload", "implementation", "format"}, json::Value(false), "`payload.implementation.format`"},
  };
  for (const auto &c : cases) {
    INFO(c.field);
    auto record = with(staged_record(), c.path, c.value);
    auto v = RecordView::from_json(record);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(v.error(), c.field));
    CHECK_THROWS_MATCHES(v.value(), Error, test::of_kind(ErrorKind::UnreadableInput));
    // A page shows it with that field absent, the others read.
    auto shown = RecordView::shown(record);
    CHECK(shown.id == "nvidia.b200.triton.fused-softmax-h4096.single-load-of-the-row-kept-in-registers-for-max-s01");
  }
  CHECK_FALSE(RecordView::shown(with(staged_record(), {"type"}, json::Value(3))).type);
  CHECK(mentions(RecordView::from_json(json::parse("[1]")).error(), "a list"));
  CHECK_FALSE(RecordView::shown(json::Value()).type);
}

TEST_CASE("a golden packet's provenance reads typed", "[record-view]") {
  int diffs = 0;
  for (const auto &entry : std::filesystem::directory_iterator(testsupport::golden_path("example/packets"))) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().filename().string());
    auto packet = json::parse_file(entry.path());
    const auto &raw = packet.get("provenance");
    auto p = PacketProvenance::from_json(packet).value();
    // Each field as the packet holds it.
    CHECK(p.report_dir.value_or("") == raw.string_or("report_dir"));
    CHECK(p.builds_on_version.value_or("") == raw.string_or("builds_on_version"));
    const auto from = p.diff_from.value_or(PacketProvenance::End{}), to = p.diff_to.value_or(PacketProvenance::End{});
    CHECK(from.version.value_or("root") == raw.get("diff_from").string_or("version", "root"));
    CHECK(to.git_commit.value_or("") == raw.get("diff_to").string_or("git_commit"));
    CHECK(p.span_versions.size() == raw.get("span_versions").size());
    CHECK(p.lineage_versions.size() == raw.get("lineage_versions").size());
    CHECK(p.source_repo == raw.string_or("source_repo"));
    CHECK(p.version == raw.string_or("version"));
    // The one writer gives back what it wrote, key order included.
    CHECK(json::to_pretty(p.to_json(packet.string_or("record_type"))) == json::to_pretty(raw));
    if (to.git_commit) ++diffs;
  }
  CHECK(diffs > 3);
  auto v25 =
      PacketProvenance::from_json(json::parse_file(testsupport::golden_path("example/packets/strategy-v25.json")))
          .value();
  CHECK(v25.report_dir == "v25_ncu");
  CHECK(v25.diff_from->version == "v23");
  CHECK(v25.diff_to->git_commit == "a62b69815931fb2f64702e74287adee2379baf47");
  CHECK(v25.builds_on_version == "v22");
  CHECK(v25.lineage_versions.front() == "v1");
  CHECK(v25.span_versions.empty());
  CHECK(PacketProvenance::from_json(json::parse("{}")).value().lineage_versions.empty());
}

TEST_CASE("a packet's provenance reads back as to_json wrote it", "[record-view]") {
  PacketProvenance p;
  p.source_repo = "trace-a";
  p.version = "v3";
  p.ncu_dirs = {"v3_ncu"};
  p.shape_label_note = "0 workload hashes were relabelled shape-N";
  p.diff_from = PacketProvenance::End{std::nullopt, "abc"};
  p.diff_to = PacketProvenance::End{"v3", "def"};
  p.code_truncated = true;
  p.dram_captures = {"before", "after"};
  auto strategy = p;
  strategy.lineage_versions = {"v1"};
  strategy.reverted_earlier_tries_of_this_change = {"v2"};
  strategy.builds_on_version = "v1";
  auto packet = [](const PacketProvenance &prov, const char *type) {
    json::Value out = json::Value::object();
    out.set("provenance", prov.to_json(type));
    return out;
  };
  CHECK(PacketProvenance::from_json(packet(strategy, "strategy")).value() == strategy);
  auto anti = p;
  anti.lever.emplace();
  anti.lever->accounts = {"v2", std::nullopt};
  anti.lever->kept_with_other_settings = {"v4"};
  anti.lever->other_accounts_that_passed_correctness = {"v2"};
  CHECK(PacketProvenance::from_json(packet(anti, "anti-strategy")).value() == anti);
  // A strategy's fields are not written for another type.
  CHECK_FALSE(packet(strategy, "anti-strategy").get("provenance").contains("builds_on_version"));
}

TEST_CASE("a packet's provenance field of another type is an UnreadableInput error naming it", "[record-view]") {
  struct Case {
    const char *packet, *field;
  };
  for (const auto &c :
       {Case{R"({"provenance": []})", "a list"}, Case{R"({"provenance": {"report_dir": 1}})", "`report_dir`"},
        Case{R"({"provenance": {"diff_from": "v1"}})", "`diff_from`"},
        Case{R"({"provenance": {"diff_to": {"version": 2}}})", "`diff_to.version`"},
        Case{R"({"provenance": {"span_versions": ["v1", 2]}})", "`span_versions`"},
        Case{R"({"provenance": {"builds_on_version": false}})", "`builds_on_version`"},
        Case{R"({"provenance": {"source_repo": null}})", "`source_repo`"},
        Case{R"({"provenance": {"code_truncated": "no"}})", "`code_truncated`"},
        Case{R"({"provenance": {"accounts_of_this_lever": ["v1", 2]}})", "`accounts_of_this_lever[1]`"}}) {
    INFO(c.packet);
    auto p = PacketProvenance::from_json(json::parse(c.packet));
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().kind() == ErrorKind::UnreadableInput);
    CHECK(mentions(p.error(), c.field));
  }
}
