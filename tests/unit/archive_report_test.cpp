// otm-archive-report's library, in process: a row from a workspace's files,
// a trace without a run record, and the diagnostic a failed row names.
#include <catch2/catch.hpp>

#include "example_trace.hpp"
#include "io/file.hpp"
#include "report/archive_report.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::testing;

TEST_CASE("archive report: a row counts what the per-trace pipeline wrote", "[archive][report]") {
  auto scratch = fresh_temp_dir("archive-report");
  auto ws = workspace::archive_workspace(scratch, "kernel_opt_001_x");
  io::write_file_atomic(ws.ladder_file(), R"({"version": "v1", "selection": "baseline"}
{"version": "v2", "selection": "milestone"}
{"version": "v3", "selection": "rejected"}
{"version": "v4", "selection": "final"}
)");
  auto rec = ws.root / "staging" / "records" / "strategy" / "a.json";
  io::write_file_atomic(rec, "{}");
  io::write_file_atomic(fs::path(rec.string() + ".merged"), R"({"id": "a", "merges": [{"action": "confirm"}]})");
  io::write_file_atomic(ws.root / "staging" / "records" / "anti-strategy" / "b.json", "{}");
  io::write_file_atomic(ws.root / "staging" / "records" / "index.json", "{}");
  io::write_file_atomic(ws.root / "staging" / "reports" / "001-x" / "refusals.jsonl", "{}\n{}\n");
  io::write_file_atomic(ws.admit_refused_file(), (ws.root / "staging/records/anti-strategy/b.json").string() + "\n");
  io::write_file_atomic(ws.validate_report_file(), "== store gates\n  schema  PASS\n  ids     FAIL 1 finding\n"
                                                   "GATES FAILED (1 of 2)\n");
  io::write_file_atomic(ws.archive_run_file(), "exit 0\nmilliseconds 2500\nstarted_ns 0\n");
  auto row = report::read_archive_row(scratch, "kernel_opt_001_x");
  CHECK_FALSE(row.failed);
  CHECK(row.versions == 4);
  CHECK(row.milestones == 2);
  CHECK(row.staged == 2);
  CHECK(row.packets_refused == 2);
  CHECK(row.confirmed == 1);
  CHECK(row.admitted == 0);
  CHECK(row.refused == 1);
  CHECK(row.gate_failures == 1);
  CHECK(row.seconds == Approx(2.5));
  auto table = report::archive_table({row});
  CHECK_THAT(table, Catch::Contains("kernel_opt_001_x") && Catch::Contains("total"));
  CHECK(report::archive_row_json(row).string_or("status") == "ok");
  fs::remove_all(scratch);
}

TEST_CASE("archive report: a failed trace names its diagnostic, no run record is a failure", "[archive][report]") {
  auto scratch = fresh_temp_dir("archive-report-failed");
  auto ws = workspace::archive_workspace(scratch, "t1");
  io::write_file_atomic(ws.archive_run_file(), "exit 2\nmilliseconds 10\nstarted_ns 0\n");
  io::write_file_atomic(ws.archive_log_file(), "otm: ingest\notm-ingest: trace.json: no hardware (set RTM_ARCH)\n"
                                               "make[1]: *** [x] Error 2\nlater noise\n");
  auto failed = report::read_archive_row(scratch, "t1");
  CHECK(failed.failed);
  CHECK(failed.exit_code == 2);
  CHECK(failed.failure == "otm-ingest: trace.json: no hardware (set RTM_ARCH)");
  auto missing = report::read_archive_row(scratch, "never-ran");
  CHECK(missing.failed);
  CHECK_THAT(missing.failure, Catch::Contains("no run record"));
  CHECK_THAT(report::archive_table({failed, missing}),
             Catch::Contains("2 failed") && Catch::Contains("t1: FAILED: otm-ingest"));
  fs::remove_all(scratch);
}

TEST_CASE("archive report: a trace restaged with nothing left to stage reads 'nothing new', not failed",
          "[archive][report]") {
  auto scratch = fresh_temp_dir("archive-report-nothing-new");
  auto ws = workspace::archive_workspace(scratch, "t1");
  // What the pipeline leaves when every packet was refused (already live):
  // an empty staging index, the refusals, the admitted stamp of this run.
  io::write_file_atomic(ws.root / "staging" / "records" / "index.json", R"({"count": 0, "records": []})");
  io::write_file_atomic(ws.root / "staging" / "reports" / "001-x" / "refusals.jsonl", "{}\n{}\n{}\n");
  io::write_file_atomic(ws.validate_report_file(), "NOTHING TO VALIDATE: no records in staging: nothing to validate\n");
  io::write_file_atomic(ws.archive_run_file(), "exit 0\nmilliseconds 900\nstarted_ns 0\n");
  io::write_file_atomic(ws.admitted_stamp(), "");
  auto row = report::read_archive_row(scratch, "t1");
  CHECK_FALSE(row.failed);
  CHECK(row.ran);
  CHECK(row.staged == 0);
  CHECK(row.packets_refused == 3);
  CHECK(row.gate_failures == 0);
  CHECK(report::archive_outcome(row) == "nothing new");
  CHECK(report::archive_row_json(row).string_or("outcome") == "nothing new");
  CHECK_THAT(report::archive_table({row}),
             Catch::Contains("t1 ") && Catch::Contains("nothing new") && !Catch::Contains("FAILED"));
  fs::remove_all(scratch);
}

TEST_CASE("archive report: rows collected from runs made elsewhere (Slurm tasks), a missing one is failed",
          "[archive][report][slurm]") {
  auto dir = fresh_temp_dir("archive-report-collected");
  report::ArchiveRow made;
  made.trace = "t1", made.failed = false, made.exit_code = 0, made.versions = 12, made.milestones = 3;
  made.staged = 5, made.packets_refused = 2, made.admitted = 4, made.confirmed = 1, made.seconds = 3.25;
  made.ran = true, made.log = "/node/scratch/t1/work/archive.log";
  io::write_file_atomic(dir / "t1.jsonl", json::to_line(report::archive_row_json(made)) + "\n");
  io::write_file_atomic(dir / "t1.log", "otm: ingest\n");
  auto row = report::read_collected_row(dir, "t1");
  CHECK_FALSE(row.failed);
  CHECK(row.versions == 12);
  CHECK(row.milestones == 3);
  CHECK(row.staged == 5);
  CHECK(row.packets_refused == 2);
  CHECK(row.admitted == 4);
  CHECK(row.confirmed == 1);
  CHECK(row.seconds == Approx(3.25));
  CHECK(row.ran);
  CHECK(row.log == dir / "t1.log"); // the collected log, not the node's scratch
  CHECK(report::archive_row_json(row) == report::archive_row_json([&] {
          auto m = made;
          m.log = dir / "t1.log";
          return m;
        }()));
  auto missing = report::read_collected_row(dir, "t2");
  CHECK(missing.failed);
  CHECK_THAT(missing.failure, Catch::Contains("no result") && Catch::Contains("did not finish"));
  io::write_file_atomic(dir / "t3.jsonl", "{not json\n");
  auto broken = report::read_collected_row(dir, "t3");
  CHECK(broken.failed);
  CHECK_THAT(broken.failure, Catch::Contains("unreadable result"));
  fs::remove_all(dir);
}
