// otm-explain on the example trace: every staged record is explained from
// the trace alone once the workspace (and its packets) is deleted; the
// explanations are checked against the trace independently (git's own copy
// of kernel.py at the cited commits, the step-record files); and records
// that cannot be re-derived — a changed number, a foreign commit, an edited
// snippet line, a trace whose step record changed — are named, exit 1.
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "example_trace.hpp"
#include "io/file.hpp"
#include "test_paths.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::testing;

namespace {

struct Staged {
  fs::path root, trace, store;
  std::string explain(const std::string &args) const {
    return "env -u RTM_WORKSPACE -u RTM_STORE -u RTM_LIVE -u OTM_CONFIG -u RTM_TRACE_NAME " + bin("otm-explain") +
           " --trace '" + trace.string() + "' --store '" + store.string() + "' " + args;
  }
  std::vector<fs::path> records() const {
    std::vector<fs::path> out;
    for (auto it = fs::recursive_directory_iterator(store / "records"); it != fs::recursive_directory_iterator(); ++it)
      if (it->path().extension() == ".json" && it->path().filename() != "index.json") out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
  }
  ~Staged() { fs::remove_all(root); }
};

// The example trace through the whole pipeline into a store outside the
// workspace; then the workspace (work files and packets) is deleted.
std::unique_ptr<Staged> staged(const std::string &tag) {
  auto s = std::make_unique<Staged>();
  s->root = fresh_temp_dir("explain-" + tag);
  s->trace = make_example_trace(s->root / "traces");
  s->store = s->root / "store";
  auto ws = s->root / "scratch" / kExampleTraceName;
  auto r =
      run_in(s->root, "make --no-print-directory -f '" + otm::testing::source_dir() + "/Makefile.pipeline' TRACE='" +
                          s->trace.string() + "' OTM_BIN='" + otm::testing::bin_dir() + "' OTM_SCRATCH='" +
                          (s->root / "scratch").string() + "' STORE='" + s->store.string() + "'");
  if (r.rc != 0) throw std::runtime_error("pipeline failed: " + r.out + r.err);
  fs::remove_all(ws);
  return s;
}

std::vector<std::string> git_lines(const fs::path &trace, const std::string &commit, const std::string &file) {
  auto r = run_in(trace, "git show '" + commit + ":" + file + "'");
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= r.out.size()) {
    auto nl = r.out.find('\n', pos);
    out.push_back(r.out.substr(pos, (nl == std::string::npos ? r.out.size() : nl) - pos));
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

std::string strip_marker(const std::string &s) { return s.empty() ? s : s.substr(1); }

} // namespace

// One pipeline for every check (it dominates the test's time, more so under
// the sanitizers).
TEST_CASE("otm-explain on the example trace, its workspace deleted", "[explain]") {
  OTM_MAKE_OR_SKIP();
  auto s = staged("all");
  {
    INFO("every staged record is explained from the trace alone");
    auto records = s->records();
    REQUIRE(records.size() >= 9);
    std::string args = "--format json";
    for (const auto &r : records) args += " '" + r.string() + "'";
    auto out = run_in(s->root, s->explain(args));
    INFO(out.err << out.out.substr(0, 4000));
    REQUIRE(out.rc == 0);
    auto lines = json::parse_lines(out.out);
    REQUIRE(lines.size() == records.size());
    std::size_t numbers = 0, code_lines = 0, derived = 0;
    std::map<std::string, std::vector<std::string>> files; // commit:path -> lines, git's own copy
    for (const auto &e : lines) {
      INFO(e.string_or("id"));
      CHECK(e.get("unexplained").size() == 0);
      CHECK(e.get("provenance").get("resolves").truthy());
      CHECK(e.get("provenance").get("commit_of_version").truthy());
      CHECK(!e.get("provenance").string_or("subject").empty());
      CHECK(!e.string_or("segment").empty());
      CHECK(!e.get("ladder").string_or("decision").empty());
      for (const auto &n : *e.get("numbers").as_array()) {
        ++numbers;
        CHECK(n.get("explained").truthy());
        CHECK(!n.get("source").string_or("locator").empty());
        if (!n.get("derivation").is_null()) ++derived;
      }
      // Every located code line is the line git holds at that commit.
      for (const auto &l : *e.get("code_lines").as_array()) {
        ++code_lines;
        REQUIRE(l.get("explained").truthy());
        std::string role = l.string_or("role");
        if (role == "hunk-header") {
          // A quoted hunk header is the header of the hunk it names.
          CHECK(l.string_or("text").starts_with(l.string_or("hunk_header")));
          CHECK(l.get("new_line").is_null());
          continue;
        }
        std::string commit = role == "removed" ? l.string_or("old_commit") : l.string_or("new_commit");
        auto n = (role == "removed" ? l.get("old_line") : l.get("new_line")).as_int();
        REQUIRE(n);
        auto key = commit + ":" + l.string_or("file");
        if (!files.count(key)) files[key] = git_lines(s->trace, commit, l.string_or("file"));
        const auto &file = files[key];
        REQUIRE(static_cast<std::size_t>(*n) <= file.size());
        std::string want = role == "file" ? l.string_or("text") : strip_marker(l.string_or("text"));
        auto squeeze = [](std::string x) {
          x = std::regex_replace(x, std::regex("[ \t]+"), " ");
          return std::regex_replace(x, std::regex("^ | $"), "");
        };
        CHECK(squeeze(file[*n - 1]) == squeeze(want));
      }
    }
    CHECK(numbers > 40);
    CHECK(code_lines > 100);
    CHECK(derived > 10);
  }
  {
    INFO("a strategy's gain is derived from the two geomeans and the ladder's threshold");
    auto out = run_in(s->root, s->explain("nvidia.b200.triton.fused-softmax-h4096.persistent-grid-one-program-per-sm-"
                                          "striding-over-s03"));
    INFO(out.err);
    REQUIRE(out.rc == 0);
    // Provenance, with the commit subject and verdict.
    CHECK_THAT(out.out, Catch::Contains("v5, commit 3e0daa100578 \"v5: persistent grid") &&
                            Catch::Contains("kept; resolves in the trace"));
    // The ladder decision: the floor before it and the threshold.
    CHECK_THAT(out.out, Catch::Contains("milestone: 41.9 us (memory/v5.json performance.latency_us_geomean) is 4.12% "
                                        "below the best-so-far 43.7 us (v3); 4.12% >= milestone_pct 1.5%"));
    // The gain: the two geomeans, their versions and the formula.
    CHECK_THAT(out.out, Catch::Contains("worth.gain.pct: 4.12") &&
                            Catch::Contains("(43.7 - 41.9) / 43.7 x 100 = 4.12") &&
                            Catch::Contains("43.7 us is v3's geomean (memory/v3.json performance.latency_us_geomean)"));
    // A step-record number, with its file and JSON path.
    CHECK_THAT(out.out, Catch::Contains("worth.gain.correctness.max_diff: 1.9e-06  <- memory/v5.json "
                                        "correctness.max_abs_err"));
    CHECK_THAT(out.out, Catch::Contains("payload.next_steps[0]: 2  <- memory/v5.json open_directions[0].direction"));
    // A snippet line: the commit pair, the hunk and kernel.py's line.
    CHECK_THAT(out.out, Catch::Contains("v3 (92ecea318061) .. v5 (3e0daa100578)") &&
                            Catch::Contains("hunk 1 @@ -7,27 +7,29 @@, added: kernel.py line 10 at 3e0daa100578"));
    // A per-shape change of the gain's scope: derived from the shape's two
    // latencies; the number in a shape label numbers shapes.
    CHECK_THAT(out.out, Catch::Contains("(6.44 - 6.72) / 6.72 x 100 = -4.17") &&
                            Catch::Contains("before is v3's latency on the shape, after v5's") &&
                            Catch::Contains("a shape label the scrubber allocated for a workload key"));
    CHECK_THAT(out.out, Catch::Contains("unexplained: nothing"));
  }
  // What cannot be re-derived is named, exit 1.
  fs::path file;
  for (const auto &r : s->records())
    if (r.filename().string().find("persistent-grid") != std::string::npos) file = r;
  REQUIRE(!file.empty());
  auto record = json::parse_file(file);
  auto feed = [&](const json::Value &r) {
    auto in = s->root / "in.jsonl";
    io::write_file_atomic(in, json::to_line(r) + "\n");
    return run_in(s->root, s->explain("--format json - < '" + in.string() + "'"));
  };
  // One pipeline, four records that cannot be re-derived (SECTIONs would
  // rerun the pipeline for each).
  {
    INFO("a number that is not in the trace");
    auto r = record;
    auto gain = r.get("worth").get("gain");
    gain.set("pct", 5.55);
    auto worth = r.get("worth");
    worth.set("gain", gain);
    r.set("worth", worth);
    auto out = feed(r);
    CHECK(out.rc == 1);
    auto e = json::parse(out.out);
    CHECK_THAT(json::to_line(e.get("unexplained")),
               Catch::Contains("worth.gain.pct: 5.55 not in the packet rebuilt from the trace"));
  }
  {
    INFO("a commit that does not resolve");
    auto r = record;
    auto ev = r.get("evidence");
    auto raw = ev.get("raw");
    raw.set("git_commit", std::string(40, 'e'));
    ev.set("raw", raw);
    r.set("evidence", ev);
    auto out = feed(r);
    CHECK(out.rc == 1);
    auto e = json::parse(out.out);
    CHECK(!e.get("provenance").get("resolves").truthy());
    CHECK_THAT(json::to_line(e.get("unexplained")), Catch::Contains("does not resolve in the trace"));
  }
  {
    INFO("an edited snippet line");
    auto r = record;
    auto payload = r.get("payload");
    auto impl = payload.get("implementation");
    impl.set("snippet", impl.string_or("snippet") + "\n+    y = fabricated(x)");
    payload.set("implementation", impl);
    r.set("payload", payload);
    auto out = feed(r);
    CHECK(out.rc == 1);
    CHECK_THAT(out.out, Catch::Contains("not a line of the rebuilt packet's code"));
  }
  {
    INFO("a step record changed after the record was staged");
    auto mem = s->trace / "memory" / "v5.json";
    auto text = io::read_file(mem);
    auto at = text.find("41.9");
    REQUIRE(at != std::string::npos);
    io::write_file_atomic(mem, text.replace(at, 4, "42.9"));
    auto out = feed(record);
    CHECK(out.rc == 1);
    CHECK_THAT(out.out, Catch::Contains("evidence.raw.effect.new_geomean_us: 41.9"));
  }
}
