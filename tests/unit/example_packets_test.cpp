// The bundled example trace through ingest, ladder, recon, partition and
// packet: segments, reports and every packet file pinned by goldens
// (testdata/golden/example/; regenerate with OTM_UPDATE_GOLDEN=1), the
// pre-flight clean, and every .diff equal to git's own diff.
#include <catch2/catch.hpp>

#include "example_trace.hpp"
#include "git/repository.hpp"
#include "scrub/scrubber.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Pipeline {
  fs::path dir, trace, ws, store;
  std::string env;
  testing::ProcessResult run(const std::string &tool, const std::string &args = "") const {
    return testing::run_in(dir, env + " " + testing::bin(tool) + " " + args);
  }
};

Pipeline pipeline(const std::string &tag, const std::string &extra_env = "") {
  Pipeline p;
  p.dir = testing::fresh_temp_dir(tag);
  p.trace = testing::make_example_trace(p.dir / "traces");
  p.ws = p.dir / "ws";
  p.store = p.dir / "staging";
  p.env = "env -u RTM_TRACE_NAME -u ATREX_WIKI_DENYLIST -u RTM_LIVE -u OTM_CONFIG RTM_TRACE='" + p.trace.string() +
          "' RTM_WORKSPACE='" + p.ws.string() + "' RTM_STORE='" + p.store.string() + "' " + extra_env;
  auto ingest = p.run("otm-ingest", "--quiet");
  if (ingest.rc != 0) throw std::runtime_error("otm-ingest: " + ingest.err);
  auto ladder = p.run("otm-ladder", "'" + (p.ws / "work" / "versions.jsonl").string() + "' -o '" +
                                        (p.ws / "work" / "ladder.jsonl").string() + "'");
  if (ladder.rc != 0) throw std::runtime_error("otm-ladder: " + ladder.err);
  return p;
}

const char *kSlug = "001-example-fused-softmax-h4096";

} // namespace

TEST_CASE("example trace: recon, partition and packets match the goldens", "[packet][example]") {
  auto p = pipeline("example-packets");
  auto recon = p.run("otm-recon", "--quiet");
  REQUIRE(recon.rc == 0);
  auto part = p.run("otm-partition", "--quiet");
  INFO(part.err);
  REQUIRE(part.rc == 0);
  auto pk = p.run("otm-packet", "--quiet");
  INFO(pk.err);
  REQUIRE(pk.rc == 0); // the pre-flight is clean

  auto reports = p.store / "reports" / kSlug;
  CHECK(testing::check_golden("example/recon.md", io::read_file(reports / "recon.md")) == "");
  CHECK(testing::check_golden("example/partition.md", io::read_file(reports / "partition.md")) == "");
  CHECK(testing::check_golden("example/segments.jsonl", io::read_file(p.ws / "work" / "segments.jsonl")) == "");
  std::string listing;
  for (const auto &f : io::list_dir(p.ws / "packets")) {
    std::string name = f.filename().string();
    listing += name + "\n";
    CHECK(testing::check_golden("example/packets/" + name, io::read_file(f)) == "");
  }
  CHECK(testing::check_golden("example/packets.txt", listing) == "");
  auto segments = json::parse_lines_file(p.ws / "work" / "segments.jsonl");
  CHECK(json::parse_lines(pk.out).size() == segments.size());

  // Every .diff is git's diff of the recorded range, byte for byte before
  // the comment scrubbing, and exactly its code-scrubbed form after.
  auto repo = git::Repository::open(p.trace);
  std::size_t diffs = 0;
  for (const auto &f : io::list_dir(p.ws / "packets")) {
    if (f.extension() != ".diff") continue;
    ++diffs;
    auto packet = json::parse_file(f.parent_path() / (f.stem().string() + ".json"));
    const auto &prov = packet.get("provenance");
    std::string from = prov.string_or("diff_from"), to = prov.string_or("diff_to");
    REQUIRE(!to.empty());
    auto git = testing::run_in(p.trace, "git --no-pager diff " + from + ".." + to + " -- kernel.py");
    REQUIRE(git.rc == 0);
    CHECK(repo.diff_path(from, to, "kernel.py") == git.out);
    scrub::Scrubber s;
    CHECK(io::read_file(f) == s.code(git.out));
  }
  CHECK(diffs > 5);
}

TEST_CASE("example trace against a copy of the live store", "[packet][example][shared]") {
  fs::path shared = fs::path(OTM_SHARED_DIR) / "gpu-wiki" / "kernel_wiki";
  REQUIRE(fs::is_directory(shared / "records"));
  auto p = pipeline("example-live");
  auto live = p.dir / "live";
  fs::copy(shared, live, fs::copy_options::recursive);
  // Records of this operator from another trace, at known maxima.
  auto index = json::parse_file(live / "records" / "index.json");
  auto *records = index.find("records")->as_array();
  std::size_t real = records->size();
  for (const char *id : {"nvidia.b200.triton.fused-softmax-h4096.older-idea-s06",
                         "nvidia.b200.triton.mlp-activation.anti.older-failure-t11",
                         "nvidia.b200.triton.fused-softmax-h4096.reference-impl-r03"}) {
    std::string rel = std::string("records/strategy/") + id + ".json";
    json::Value rec = json::Value::object();
    rec.set("id", id);
    rec.set("type", "strategy");
    rec.set("retrieval", json::parse(R"({"scope": {"operator_family": "fused-softmax-h4096"}})"));
    rec.set("evidence", json::parse(R"({"raw": {"source_repo": "kernel_opt_077_other_run", "version": "v4"}})"));
    io::write_file_atomic(live / rel, json::to_pretty(rec));
    json::Value e = rec;
    e.erase("evidence");
    e.set("path", rel);
    records->push_back(e);
  }
  io::write_file_atomic(live / "records" / "index.json", json::to_pretty(index));
  std::string live_arg = "--live '" + live.string() + "'";
  auto recon = p.run("otm-recon", "--quiet " + live_arg + " -o -");
  REQUIRE(recon.rc == 0);
  CHECK(recon.out.find("(" + std::to_string(real + 3) + " records)") != std::string::npos);
  CHECK(recon.out.find("3 live records already cover `fused-softmax-h4096`.") != std::string::npos);
  CHECK(recon.out.find("| kernel_opt_077_other_run | 3 | v4 |") != std::string::npos);
  CHECK(recon.out.find("`r`->03, `s`->06, `t`->11") != std::string::npos);
  auto part = p.run("otm-partition", "--quiet -o - " + live_arg);
  INFO(part.err);
  REQUIRE(part.rc == 0);
  std::size_t checked = 0;
  for (const auto &seg : json::parse_lines(part.out)) {
    std::string id = seg.string_or("id");
    char marker = id[id.rfind('-') + 1];
    int n = std::stoi(id.substr(id.rfind('-') + 2));
    int seed = marker == 's' ? 6 : marker == 't' ? 11 : 3;
    CHECK(n > seed);
    CHECK(seg.get("comparable") == json::Value(false));
    ++checked;
  }
  CHECK(checked > 10);
}
