// Where every stage reads and writes: the scratch workspace and the staging
// store (spec README §3). The one place these paths are spelled.
#pragma once

#include <filesystem>
#include <string>

namespace otm::workspace {

namespace fs = std::filesystem;

struct Workspace {
  fs::path root; // $RTM_WORKSPACE, default /tmp/opt-trace-mining/<slug>
  fs::path work_dir() const { return root / "work"; }
  fs::path versions_file() const { return work_dir() / "versions.jsonl"; }
  fs::path profiles_file() const { return work_dir() / "profiles.jsonl"; }
  fs::path meta_file() const { return work_dir() / "meta.json"; }
  fs::path ladder_file() const { return work_dir() / "ladder.jsonl"; }
  fs::path segments_file() const { return work_dir() / "segments.jsonl"; }
  fs::path packets_dir() const { return root / "packets"; }
  // Written by Makefile.pipeline's recipes under these same names: the
  // saved otm-validate report, the admission's refusals (one staged record
  // file a line), the live store's gate findings after admission, the stamps
  // directory with the trace slug and the admission stamp.
  fs::path validate_report_file() const { return work_dir() / "validate.txt"; }
  fs::path admit_refused_file() const { return work_dir() / "admit-refused.txt"; }
  fs::path live_gates_file() const { return work_dir() / "live-gates.jsonl"; }
  fs::path stamps_dir() const { return root / ".stamps"; }
  fs::path admitted_stamp() const { return stamps_dir() / "admitted"; }
  // Archive mode (`make archive`): the trace's run record (its exit status
  // and duration, `key value` lines) and the output of its per-trace make.
  fs::path archive_run_file() const { return work_dir() / "archive-run.txt"; }
  fs::path archive_log_file() const { return work_dir() / "archive.log"; }
};

struct StagingStore {
  fs::path root; // $RTM_STORE, default ./kernel_wiki/staging
  fs::path records_dir() const { return root / "records"; }
  fs::path index_file() const { return records_dir() / "index.json"; }
  fs::path reports_dir(const std::string &slug) const { return root / "reports" / slug; }
  fs::path readme_file() const { return root / "README.md"; }
};

// Archive mode: each trace's workspace is <scratch>/<trace directory name>,
// as Makefile.pipeline's default WORKSPACE; the run's report sits at the
// scratch root, beside the workspaces it summarises.
inline Workspace archive_workspace(const fs::path &scratch, const std::string &trace_dir_name) {
  return Workspace{scratch / trace_dir_name};
}
inline fs::path archive_report_file(const fs::path &scratch) { return scratch / "archive-report.jsonl"; }

// Default workspace root for a trace slug ("unset" when no trace).
fs::path default_workspace(const std::string &slug);
// Default staging store: ./kernel_wiki/staging, made absolute.
fs::path default_store();

} // namespace otm::workspace
