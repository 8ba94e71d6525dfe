// Makefile.pipeline end to end on copies of the example trace: incremental
// reruns, staleness from the trace and the configuration, failure hygiene,
// parallel determinism, and agreement with the stages run as a pipe.
#include <catch2/catch.hpp>

#include "store_checker.hpp"
#include "test_paths.hpp"

#include <algorithm>
#include <map>

#include "example_trace.hpp"
#include "io/file.hpp"

using namespace otm;
using namespace otm::testing;

namespace {

struct Pipeline {
  fs::path root, scratch, trace, workspace;
  explicit Pipeline(const std::string &tag) {
    root = fresh_temp_dir("make-" + tag);
    scratch = root / "scratch";
    trace = make_example_trace(root / "traces");
    workspace = scratch / kExampleTraceName;
  }
  std::string make(const std::string &args = "", const std::string &env = "") const {
    return env + " make --no-print-directory -f '" + otm::testing::source_dir() + "/Makefile.pipeline' TRACE='" +
           trace.string() + "' OTM_BIN='" + otm::testing::bin_dir() + "' OTM_SCRATCH='" + scratch.string() + "' " +
           args;
  }
  ProcessResult run(const std::string &args = "", const std::string &env = "") const {
    return run_in(root, make(args, env));
  }
  ~Pipeline() { fs::remove_all(root); }
};

std::vector<std::string> stages_run(const std::string &out) {
  std::vector<std::string> stages;
  for (const char *s : {"ingest", "ladder", "recon", "partition", "packets", "distill", "score", "validate", "readme"})
    if (out.find(std::string("otm: ") + s + "\n") != std::string::npos ||
        out.find(std::string("otm: ") + s + " (") != std::string::npos)
      stages.push_back(s);
  return stages;
}

// Every output file of a run (workspace and staging store), by relative
// path, without the stamps (their content is not the product).
std::map<std::string, std::string> outputs(const fs::path &workspace) {
  std::map<std::string, std::string> files;
  for (auto it = fs::recursive_directory_iterator(workspace); it != fs::recursive_directory_iterator(); ++it) {
    auto rel = it->path().lexically_relative(workspace).generic_string();
    if (rel.rfind(".stamps", 0) == 0) continue;
    if (it->is_regular_file()) files[rel] = io::read_file(it->path());
  }
  return files;
}

const std::string kGit =
    "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t.invalid "
    "GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t.invalid git";

} // namespace

TEST_CASE("Makefile.pipeline runs the whole job and a second run does nothing", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("rerun");
  auto first = p.run();
  INFO(first.out << first.err);
  REQUIRE(first.rc == 0);
  CHECK(stages_run(first.out).size() == 9);
  CHECK_THAT(first.out, Catch::Contains("records staged") && Catch::Contains("all gates passed"));
  CHECK(fs::exists(p.workspace / "staging" / "README.md"));
  CHECK(fs::exists(p.workspace / "staging" / "records" / "index.json"));

  auto q = p.run("-q");
  CHECK(q.rc == 0);
  auto second = p.run();
  CHECK(second.rc == 0);
  CHECK(stages_run(second.out).empty());
}

TEST_CASE("a new commit in the trace reruns ingest and everything downstream", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("commit");
  REQUIRE(p.run().rc == 0);
  auto versions_before = io::read_file(p.workspace / "work" / "versions.jsonl");
  auto recon_before =
      io::read_file(p.workspace / "staging" / "reports" / "001-example-fused-softmax-h4096" / "recon.md");
  // v32: a further kept version with its step record.
  io::write_file_atomic(p.trace / "kernel.py", io::read_file(p.trace / "kernel.py") + "\n# v32 tweak\n");
  io::write_file_atomic(p.trace / "memory" / "v32.json",
                        R"({"performance": {"latency_us_geomean": 21.9}, "correctness": {"status": "PASS"}})");
  REQUIRE(run_in(p.trace, kGit + " add kernel.py memory/v32.json && " + kGit +
                              " commit -qm 'v32: hoist the row max out of the inner loop (-2.7%)'")
              .rc == 0);
  auto again = p.run();
  INFO(again.out << again.err);
  REQUIRE(again.rc == 0);
  auto stages = stages_run(again.out);
  CHECK(std::find(stages.begin(), stages.end(), "ingest") != stages.end());
  CHECK(std::find(stages.begin(), stages.end(), "ladder") != stages.end());
  CHECK(std::find(stages.begin(), stages.end(), "validate") != stages.end());
  CHECK(io::read_file(p.workspace / "work" / "versions.jsonl") != versions_before);
  CHECK(io::read_file(p.workspace / "work" / "versions.jsonl").find("\"v32\"") != std::string::npos);
  CHECK(io::read_file(p.workspace / "staging" / "reports" / "001-example-fused-softmax-h4096" / "recon.md") !=
        recon_before);
}

TEST_CASE("a changed ladder threshold reruns ladder and downstream, not ingest", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("threshold");
  auto override_file = p.root / "override.json";
  io::write_file_atomic(override_file, R"({"ladder": {"milestone_pct": 1.5}})");
  REQUIRE(p.run("", "OTM_CONFIG='" + override_file.string() + "'").rc == 0);
  auto ladder_before = io::read_file(p.workspace / "work" / "ladder.jsonl");
  io::write_file_atomic(override_file, R"({"ladder": {"milestone_pct": 3.0}})");
  auto again = p.run("", "OTM_CONFIG='" + override_file.string() + "'");
  INFO(again.out << again.err);
  REQUIRE(again.rc == 0);
  auto stages = stages_run(again.out);
  CHECK(std::find(stages.begin(), stages.end(), "ingest") == stages.end());
  CHECK(std::find(stages.begin(), stages.end(), "ladder") != stages.end());
  CHECK(std::find(stages.begin(), stages.end(), "partition") != stages.end());
  CHECK(io::read_file(p.workspace / "work" / "ladder.jsonl") != ladder_before);
}

TEST_CASE("a broken distiller fails the run at the gates and leaves no validated stamp", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("broken");
  // A distiller that drafts honestly and then invents a number in every
  // record: the no-fabrication gate must stop the run.
  auto bin = p.root / "bin";
  fs::create_directories(bin);
  for (const auto &e : fs::directory_iterator(otm::testing::bin_dir()))
    fs::create_symlink(e.path(), bin / e.path().filename());
  fs::remove(bin / "otm-draft");
  io::write_file_atomic(bin / "otm-draft", "#!/bin/sh\n'" + otm::testing::bin_dir() +
                                               "/otm-draft' \"$@\" || exit $?\n"
                                               "for f in $(find \"$STAGE\" -name '*.json' ! -name index.json); do\n"
                                               "  sed -i 's/\"goal\": \"/\"goal\": \"87.6543 /' \"$f\"\ndone\n");
  fs::permissions(bin / "otm-draft", fs::perms::owner_all);
  auto store = p.workspace / "staging" / "records";
  auto r = run_in(p.root, "STAGE='" + store.string() + "' make --no-print-directory -f '" + otm::testing::source_dir() +
                              "/Makefile.pipeline' TRACE='" + p.trace.string() + "' OTM_BIN='" + bin.string() +
                              "' OTM_SCRATCH='" + p.scratch.string() + "'");
  INFO(r.out << r.err);
  CHECK(r.rc != 0);
  CHECK_THAT(r.out + r.err, Catch::Contains("no-fabrication") && Catch::Contains("87.6543"));
  CHECK_FALSE(fs::exists(p.workspace / ".stamps" / "validated"));
  CHECK_FALSE(fs::exists(p.workspace / ".stamps" / "outcome"));
  CHECK(p.run("-q").rc != 0);
}

TEST_CASE("make -j4 and make -j1 produce byte-identical outputs", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("parallel");
  REQUIRE(p.run("-j1").rc == 0);
  auto serial = outputs(p.workspace);
  fs::remove_all(p.workspace);
  REQUIRE(p.run("-j4").rc == 0);
  auto parallel = outputs(p.workspace);
  REQUIRE(serial.size() == parallel.size());
  for (const auto &[rel, content] : serial) {
    INFO(rel);
    REQUIRE(parallel.count(rel));
    CHECK(parallel[rel] == content);
  }
}

TEST_CASE("the stages compose as pipes and agree with the Makefile's files", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("pipes");
  REQUIRE(p.run().rc == 0);
  auto pipe_ws = p.root / "pipe-ws";
  auto r = run_in(p.root, bin("otm-ingest") + " --quiet --trace '" + p.trace.string() + "' --workspace '" +
                              pipe_ws.string() + "' -o - | " + bin("otm-ladder") + " - | " + bin("otm-partition") +
                              " --quiet --trace '" + p.trace.string() + "' --workspace '" + pipe_ws.string() +
                              "' --live '" + (p.workspace / "live-empty").string() + "' --ladder - -o -");
  INFO(r.err);
  REQUIRE(r.rc == 0);
  CHECK(r.out == io::read_file(p.workspace / "work" / "segments.jsonl"));
}

TEST_CASE("Makefile.pipeline refuses a missing TRACE with a clear message", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  auto d = fresh_temp_dir("make-notrace");
  auto r = run_in(d, "make --no-print-directory -f '" + otm::testing::source_dir() + "/Makefile.pipeline' OTM_BIN='" +
                         otm::testing::bin_dir() + "'");
  CHECK(r.rc != 0);
  CHECK_THAT(r.err, Catch::Contains("TRACE is not set"));
  auto help = run_in(d, "make --no-print-directory -f '" + otm::testing::source_dir() + "/Makefile.pipeline' help");
  CHECK(help.rc == 0);
  CHECK_THAT(help.out, Catch::Contains("DISTILL_CMD") && Catch::Contains("admit"));
  fs::remove_all(d);
}

TEST_CASE("Makefile.pipeline refuses paths with a space, naming them, instead of failing obscurely",
          "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  auto d = fresh_temp_dir("make-space");
  fs::create_directories(d / "my checkout");
  fs::copy_file(fs::path(otm::testing::source_dir()) / "Makefile.pipeline", d / "my checkout" / "Makefile.pipeline");
  auto r = run_in(d / "my checkout", "make --no-print-directory -f Makefile.pipeline TRACE=example OTM_BIN='" +
                                         otm::testing::bin_dir() + "'");
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("holds a space") && Catch::Contains("my checkout"));
  auto t = run_in(d, "make --no-print-directory -f '" + otm::testing::source_dir() + "/Makefile.pipeline' OTM_BIN='" +
                         otm::testing::bin_dir() + "' TRACE='" + (d / "my checkout").string() + "'");
  CHECK(t.rc == 2);
  CHECK_THAT(t.err, Catch::Contains("TRACE") && Catch::Contains("holds a space"));
  fs::remove_all(d);
}

TEST_CASE("one broken record in a batch of good ones: the good are staged and admitted, it is refused with its gate",
          "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("break-one");
  auto live = p.root / "live";
  fs::create_directories(live / "records");
  // The fake agent drafts every packet honestly except strategy-v5, where it
  // invents a number the no-fabrication gate refuses in every round.
  std::string agent = otm::testing::source_dir() + "/testdata/fake-agents/break-one.sh";
  std::string env = "OTM_BIN_DIR='" + otm::testing::bin_dir() + "' BREAK_SEG=strategy-v5";
  auto r = p.run("DISTILL_CMD='" + agent + "' LIVE='" + live.string() + "' admit", env);
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  auto store = p.workspace / "staging";
  auto ledger = io::read_file(store / "reports" / "001-example-fused-softmax-h4096" / "refusals.jsonl");
  std::string broken;
  for (std::size_t pos = 0; pos < ledger.size();) {
    auto nl = ledger.find('\n', pos);
    auto line = ledger.substr(pos, nl - pos);
    if (line.find("\"strategy-v5\"") != std::string::npos) broken = line;
    pos = nl == std::string::npos ? ledger.size() : nl + 1;
  }
  CHECK_THAT(broken,
             Catch::Contains("\"gate\": \"no-fabrication\"") && Catch::Contains("\"refused\": \"payload.goal\""));
  CHECK_THAT(io::read_file(store / "README.md"), Catch::Contains("| strategy-v5 | strategy | no-fabrication |"));
  // The good records are staged and admitted; the broken one is nowhere.
  std::size_t staged = 0, admitted = 0;
  for (const auto &e : fs::recursive_directory_iterator(store / "records"))
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().filename() != "index.json") ++staged;
  for (const auto &e : fs::recursive_directory_iterator(live / "records"))
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().filename() != "index.json") {
      ++admitted;
      CHECK(e.path().filename().string().find("persistent-grid") == std::string::npos);
    }
  CHECK(staged >= 8);
  CHECK(admitted == staged);
  CHECK_THAT(r.out, Catch::Contains("packets refused") && Catch::Contains("store gates pass on the live store"));
  // One batch: one index rewrite, no journal left, and the store's own
  // checker passes on the live store `make admit` wrote.
  CHECK_THAT(r.out, Catch::Contains("batch: " + std::to_string(staged) + " records offered"));
  CHECK_FALSE(fs::exists(live / "records" / "index.journal"));
  CHECK_STORE_CHECKER_PASSES_IF_HERE(live);
}

TEST_CASE("a subject naming a PTX vector mnemonic (ld.global.nc.v4) never sinks the trace", "[pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  Pipeline p("ptx-v4");
  // A change that runs and is the claimed lever's (a vector-width hint on
  // the row load): a constant nothing reads would be refused (issue 25).
  std::string kernel = io::read_file(p.trace / "kernel.py");
  const std::string load = "gl.load(x_ptr + row * stride_x + cols)";
  REQUIRE(kernel.find(load) != std::string::npos);
  kernel.replace(kernel.find(load), load.size(), "gl.load(x_ptr + row * stride_x + gl.max_contiguous(cols, 4))");
  io::write_file_atomic(p.trace / "kernel.py", kernel);
  io::write_file_atomic(p.trace / "memory" / "v32.json",
                        R"({"performance": {"latency_us_geomean": 21.0}, "correctness": {"status": "PASS"},
                            "optimization": {"action_category": "memory",
                              "action_description": "Row loads through ld.global.nc.v4 instead of ld.global, so each thread moves 16 bytes per load instruction."}})");
  REQUIRE(run_in(p.trace, kGit + " add kernel.py memory/v32.json && " + kGit +
                              " commit -qm 'v32: ld.global.nc.v4 loads for the row (-4.0%)'")
              .rc == 0);
  auto r = p.run();
  INFO(r.out << r.err);
  REQUIRE(r.rc == 0);
  // Its record is staged: the id derived from the subject keeps the
  // mnemonic's v4, which is no version id (issue 10, item 5).
  auto ledger =
      io::read_file(p.workspace / "staging" / "reports" / "001-example-fused-softmax-h4096" / "refusals.jsonl");
  auto distilled = io::read_file(p.workspace / "work" / "distill.jsonl");
  CHECK(
      distilled.find("{\"seg_id\": \"strategy-v32\", \"written\": \"records/strategy/nvidia/blackwell/gluon/"
                     "fused-softmax-h4096/nvidia.b200.gluon.fused-softmax-h4096.row-loads-through-ld-global-nc-v4-") !=
      std::string::npos);
  CHECK(ledger.find("\"gate\": \"anonymization\"") == std::string::npos);
  CHECK_THAT(r.out, Catch::Contains("all gates passed"));
}
