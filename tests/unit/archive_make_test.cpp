// Issue 12, archive mode: `make -f Makefile.pipeline archive` over generated
// traces of different operators, sizes, DSLs and degraded variants, plus one
// whose .git is broken, with -j2 into a copy of the real store. The broken
// one is reported failed and fails the run, the others are admitted, the
// live store passes its nine store gates; a rerun does nothing; a new commit
// in one trace reruns that trace alone.
#include <catch2/catch.hpp>

#include "store_checker.hpp"
#include "test_paths.hpp"

#include <iostream>
#include <map>
#include <set>

#include "example_trace.hpp"
#include "io/file.hpp"
#include "tracegen/trace_generator.hpp"
#include "json/parse.hpp"

using namespace otm;
using namespace otm::testing;

namespace {

const char *kBroken = "kernel_opt_949_broken";

std::map<std::string, json::Value> report_rows(const fs::path &report) {
  std::map<std::string, json::Value> rows;
  for (auto &r : json::parse_lines_file(report)) rows[r.string_or("trace")] = r;
  return rows;
}

std::size_t count(const json::Value &row, const char *key) {
  return static_cast<std::size_t>(row.get(key).as_int().value_or(0));
}

bool ran(const json::Value &row) { return row.get("ran").truthy(); }

// The mtime of every file of every workspace, and of the live store's
// records: what a run that does nothing leaves untouched.
std::map<std::string, fs::file_time_type> mtimes(const std::vector<fs::path> &roots) {
  std::map<std::string, fs::file_time_type> out;
  for (const auto &root : roots)
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
      auto name = it->path().filename().string();
      if (name == "archive-run.txt" || name == "archive.log") continue; // the run record of every run
      if (it->is_regular_file()) out[it->path().string()] = fs::last_write_time(it->path());
    }
  return out;
}

std::set<std::string> traces_that_ran_a_stage(const std::string &out) {
  std::set<std::string> ran;
  for (const char *s : {": otm: ingest\n", ": otm: ladder\n", ": otm: partition\n", ": otm: distill", ": otm: admit\n"})
    for (auto at = out.find(s); at != std::string::npos; at = out.find(s, at + 1)) {
      auto bol = out.rfind('\n', at);
      ran.insert(out.substr(bol == std::string::npos ? 0 : bol + 1, at - (bol == std::string::npos ? 0 : bol + 1)));
    }
  return ran;
}

} // namespace

TEST_CASE("archive mode: parallel traces into one live store, the broken one reported, reruns do nothing",
          "[archive][pipeline][make][shared]") {
  OTM_MAKE_OR_SKIP();
  OTM_REAL_STORE_OR_SKIP(gpu_wiki);
  auto dir = fresh_temp_dir("archive");
  auto traces = dir / "traces", scratch = dir / "scratch", live = dir / "live";
  fs::copy(gpu_wiki / "kernel_wiki", live, fs::copy_options::recursive);
  using tracegen::Dsl;
  using tracegen::Variant;
  struct Spec {
    const char *op;
    Dsl dsl;
    std::size_t versions;
    Variant variant;
  };
  // Small traces (the CI budget), every DSL, the four degradations that
  // still name their hardware.
  std::vector<Spec> specs = {
      {"rmsnorm", Dsl::Triton, 24, Variant::Full},      {"softmax", Dsl::Cuda, 16, Variant::Full},
      {"silu", Dsl::Gluon, 14, Variant::Full},          {"layernorm", Dsl::Triton, 14, Variant::NoMemory},
      {"gelu", Dsl::Cuda, 14, Variant::BrokenJson},     {"logsumexp", Dsl::Triton, 14, Variant::NoProfiles},
      {"swish", Dsl::Triton, 14, Variant::Full},        {"groupnorm", Dsl::Gluon, 14, Variant::BrokenJson},
      {"add_relu", Dsl::Cuda, 14, Variant::NoProfiles}, {"softmax", Dsl::Triton, 14, Variant::NoMemory},
      {"rmsnorm", Dsl::Cuda, 14, Variant::Full},
  };
  // Which of them run (by index; a trace's number and seed follow its index,
  // so a trace is the same in every build), and the one a new commit touches
  // (one whose restaging still stages a record: a trace all of whose records
  // are already live is refused whole by the store-overlap gate and reads
  // "nothing new", the case of the next test).
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < specs.size(); ++i) chosen.push_back(i);
  const std::size_t touched_index = 2;
#ifdef OTM_SANITIZED_BUILD
  // Under the sanitizers (a Debug build, about fifteen times slower: one
  // admission into the real store takes a second, its store gates fourteen)
  // the same run on two of the traces (the first one shortened) and the
  // broken one; the Release build runs all twelve.
  chosen = {0, touched_index};
  specs[0].versions = 12;
#endif
  std::vector<std::string> names;
  std::string touched;
  for (auto i : chosen) {
    const auto &s = specs[i];
    const unsigned number = 931 + static_cast<unsigned>(i);
    tracegen::TraceOptions o;
    o.op = s.op, o.dsl = s.dsl, o.versions = s.versions, o.variant = s.variant;
    o.seed = number, o.number = number;
    o.spelling = (number + 1) % 2 ? tracegen::Spelling::British : tracegen::Spelling::American;
    names.push_back(tracegen::generate_trace(traces, o).dir.filename().string());
    if (i == touched_index) touched = names.back();
  }
  // A trace whose .git is not a repository: its per-trace make cannot run.
  fs::create_directories(traces / kBroken / ".git");
  io::write_file_atomic(traces / kBroken / ".git" / "HEAD", "not a ref\n");
  io::write_file_atomic(traces / kBroken / "kernel.py", "x = 1\n");

  std::string make = "make --no-print-directory -j2 -f '" + source_dir() + "/Makefile.pipeline' OTM_BIN='" + bin_dir() +
                     "' OTM_SCRATCH='" + scratch.string() + "' TRACES_DIR='" + traces.string() + "' LIVE='" +
                     live.string() + "' archive";
  auto first = run_in(dir, make);
  INFO(first.out << first.err);
  CHECK(first.rc != 0);
  CHECK_THAT(first.out, Catch::Contains(std::string(kBroken) + ": FAILED:"));
  std::cout << first.out.substr(first.out.find("\ntrace ") + 1) << std::flush;
  auto rows = report_rows(scratch / "archive-report.jsonl");
  REQUIRE(rows.size() == names.size() + 1);
  CHECK(rows.at(kBroken).string_or("status") == "failed");
  CHECK(count(rows.at(kBroken), "exit") != 0);
  std::size_t admitted = 0;
  for (const auto &n : names) {
    INFO(n);
    const auto &r = rows.at(n);
    CHECK(r.string_or("status") == "ok");
    CHECK(ran(r));
    CHECK(count(r, "versions") >= 12);
    CHECK(count(r, "staged") >= 1);
    // Every staged record was accepted by the admission gate.
    CHECK(count(r, "admitted") + count(r, "confirmed") + count(r, "conflicts") == count(r, "staged"));
    CHECK(count(r, "refused") == 0);
    CHECK(count(r, "gate_failures") == 0);
    CHECK(r.get("seconds").as_number().value_or(0) > 0);
    CHECK_THAT(first.out, Catch::Contains(n + " "));
    admitted += count(r, "admitted");
  }
  CHECK(admitted >= names.size() * 3);
  auto gates = run_in(dir, bin("otm-validate") + " --store-gates '" + live.string() + "'");
  INFO(gates.out << gates.err);
  CHECK(gates.rc == 0);
  // And the store's own checker: records/index.json is current after every
  // trace's batch.
  CHECK_FALSE(fs::exists(live / "records" / "index.journal"));
  CHECK_STORE_CHECKER_PASSES_IF_HERE(live);

  // Nothing changed: no stage reruns, nothing is admitted, no file of a
  // workspace or of the live store is rewritten.
  std::vector<fs::path> roots{live};
  for (const auto &n : names) roots.push_back(scratch / n);
  auto before = mtimes(roots);
  auto index_before = io::read_file(live / "records" / "index.json");
  auto again = run_in(dir, make);
  INFO(again.out << again.err);
  CHECK(again.rc != 0); // the broken trace still fails
  CHECK(traces_that_ran_a_stage(again.out) == std::set<std::string>{});
  CHECK(mtimes(roots) == before);
  CHECK(io::read_file(live / "records" / "index.json") == index_before);
  for (const auto &[name, r] : report_rows(scratch / "archive-report.jsonl"))
    if (name != kBroken) CHECK_FALSE(ran(r));

  // A new commit in one trace reruns that trace alone.
  const std::string git = "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t "
                          "GIT_AUTHOR_EMAIL=t@t.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t.invalid git";
  io::write_file_atomic(traces / touched / "notes" / "archive.md", "a note added after the first archive run\n");
  REQUIRE(
      run_in(traces / touched, git + " add notes/archive.md && " + git + " commit -qm 'notes: after the archive'").rc ==
      0);
  auto third = run_in(dir, make);
  INFO(third.out << third.err);
  CHECK(third.rc != 0);
  CHECK(traces_that_ran_a_stage(third.out) == std::set<std::string>{touched});
  auto after = report_rows(scratch / "archive-report.jsonl");
  for (const auto &n : names) CHECK(ran(after.at(n)) == (n == touched));
  // Its admission ran the store gates on the live store again, and they passed.
  CHECK(after.at(touched).string_or("status") == "ok");
  CHECK(count(after.at(touched), "gate_failures") == 0);
  fs::remove_all(dir);
}

// A changed trace whose records are all live already (its own earlier
// admissions) is refused whole by the store-overlap gate and stages nothing:
// that is a success with nothing to admit ("nothing new"), not a failure at
// score. One small trace into an empty live store: cheap, no real store.
TEST_CASE("archive mode: a rerun whose records are all live already is 'nothing new', not failed",
          "[archive][pipeline][make]") {
  OTM_MAKE_OR_SKIP();
  auto dir = fresh_temp_dir("archive-nothing-new");
  auto traces = dir / "traces", scratch = dir / "scratch", live = dir / "live";
  io::write_file_atomic(live / "records" / "index.json",
                        "{\n \"schema\": \"clean-1.3\",\n \"count\": 0,\n \"records\": []\n}\n");
  tracegen::TraceOptions o;
  o.op = "rmsnorm", o.dsl = tracegen::Dsl::Triton, o.versions = 14, o.seed = 971, o.number = 971;
  auto trace = tracegen::generate_trace(traces, o).dir;
  auto name = trace.filename().string();
  std::string make = "make --no-print-directory -f '" + source_dir() + "/Makefile.pipeline' OTM_BIN='" + bin_dir() +
                     "' OTM_SCRATCH='" + scratch.string() + "' TRACES_DIR='" + traces.string() + "' LIVE='" +
                     live.string() + "' archive";
  auto first = run_in(dir, make);
  INFO(first.out << first.err);
  REQUIRE(first.rc == 0);
  auto row = report_rows(scratch / "archive-report.jsonl").at(name);
  REQUIRE(count(row, "admitted") >= 1);

  const std::string git = "GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t "
                          "GIT_AUTHOR_EMAIL=t@t.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t.invalid git";
  io::write_file_atomic(trace / "notes" / "later.md", "a note added after the first archive run\n");
  REQUIRE(run_in(trace, git + " add notes/later.md && " + git + " commit -qm 'notes: later'").rc == 0);
  auto index_before = io::read_file(live / "records" / "index.json");
  auto again = run_in(dir, make);
  INFO(again.out << again.err);
  CHECK(again.rc == 0);
  CHECK_THAT(again.out, Catch::Contains(name + ": otm: nothing new: 0 records staged"));
  CHECK_THAT(again.out, !Catch::Contains("FAILED"));
  row = report_rows(scratch / "archive-report.jsonl").at(name);
  CHECK(row.string_or("status") == "ok");
  CHECK(row.string_or("outcome") == "nothing new");
  CHECK(ran(row));
  CHECK(count(row, "staged") == 0);
  CHECK(count(row, "packets_refused") >= 1);
  CHECK(io::read_file(live / "records" / "index.json") == index_before);
  fs::remove_all(dir);
}
