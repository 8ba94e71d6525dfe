// Where every stage reads and writes: the scratch workspace and the stores,
// staging and live (spec README §3). The one place these paths are spelled
// and the store root resolved; the `literals` test
// (tests/literals/check_literals.sh) fails on a copy anywhere else.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace otm::config {
class Settings;
}

namespace otm::workspace {

namespace fs = std::filesystem;

// Every store, staging or live, holds its records under records/ and their
// index in records/index.json; a record's place below records/ is
// record::record_dir (record/store_layout.hpp).
inline constexpr char kRecordsDirName[] = "records";
inline constexpr char kIndexFileName[] = "index.json";
// The index relative to the store root: what a gate names in a finding and
// a reader opens inside the store.
inline constexpr char kIndexRelpath[] = "records/index.json";
// The live index's journal (store/index_journal.hpp): the entries upserted
// since records/index.json was last compacted; part of the index.
inline constexpr char kJournalFileName[] = "index.journal";
inline constexpr char kJournalRelpath[] = "records/index.journal";
// The keys index (store/index_keys.hpp): a derived cache, never committed.
inline constexpr char kKeysFileName[] = ".otm-index-keys";
// `records/<relpath below records/>`, "/"-separated: a record's path
// relative to the store root.
std::string store_relpath(const fs::path &below_records);
fs::path records_dir(const fs::path &store_root);
fs::path index_file(const fs::path &store_root);

inline constexpr char kPacketsDirName[] = "packets";
// A staging store's per-trace reports: reports/<slug>/.
inline constexpr char kReportsDirName[] = "reports";

struct Workspace {
  fs::path root; // $RTM_WORKSPACE, default /tmp/opt-trace-mining/<slug>
  fs::path work_dir() const { return root / "work"; }
  fs::path versions_file() const { return work_dir() / "versions.jsonl"; }
  fs::path profiles_file() const { return work_dir() / "profiles.jsonl"; }
  fs::path meta_file() const { return work_dir() / "meta.json"; }
  fs::path ladder_file() const { return work_dir() / "ladder.jsonl"; }
  fs::path segments_file() const { return work_dir() / "segments.jsonl"; }
  fs::path packets_dir() const { return root / kPacketsDirName; }
  // "packets/<file name>": how a gate names a packet file of the workspace.
  static std::string packet_relpath(const fs::path &packet_file);
  // Written by Makefile.pipeline's recipes under these same names: the
  // saved otm-validate report, the admission's refusals (one staged record
  // file a line), the live store's gate findings after admission, the stamps
  // directory with the trace slug and the admission stamp.
  fs::path validate_report_file() const { return work_dir() / "validate.txt"; }
  fs::path admit_refused_file() const { return work_dir() / "admit-refused.txt"; }
  fs::path live_gates_file() const { return work_dir() / "live-gates.jsonl"; }
  fs::path stamps_dir() const { return root / ".stamps"; }
  fs::path admitted_stamp() const { return stamps_dir() / "admitted"; }
  // otm-packet's record of its last run (packet/run_record.hpp): bookkeeping
  // beside the stamps, not a product.
  fs::path packet_run_file() const { return stamps_dir() / "packet-run.json"; }
  // Archive mode (`make archive`): the trace's run record (its exit status
  // and duration, `key value` lines) and the output of its per-trace make.
  fs::path archive_run_file() const { return work_dir() / "archive-run.txt"; }
  fs::path archive_log_file() const { return work_dir() / "archive.log"; }
};

struct StagingStore {
  // What each reports/<slug>/ may hold: the distiller's refusal ledger and
  // log, otm-recon's ladder picture and report, otm-partition's report.
  static constexpr char kRefusalsFileName[] = "refusals.jsonl";
  static constexpr char kDistillLogFileName[] = "distill-log.jsonl";
  static constexpr char kLadderPictureFileName[] = "ladder.svg";
  static constexpr char kReconReportFileName[] = "recon.md";
  static constexpr char kPartitionReportFileName[] = "partition.md";
  static constexpr char kReviewPageFileName[] = "review.html";

  fs::path root; // $RTM_STORE, default ./kernel_wiki/staging
  fs::path records_dir() const { return workspace::records_dir(root); }
  fs::path index_file() const { return workspace::index_file(root); }
  fs::path reports_root() const { return root / kReportsDirName; }
  fs::path reports_dir(const std::string &slug) const { return reports_root() / slug; }
  fs::path refusals_file(const std::string &slug) const { return reports_dir(slug) / kRefusalsFileName; }
  fs::path distill_log_file(const std::string &slug) const { return reports_dir(slug) / kDistillLogFileName; }
  fs::path ladder_picture(const std::string &slug) const { return reports_dir(slug) / kLadderPictureFileName; }
  fs::path recon_report(const std::string &slug) const { return reports_dir(slug) / kReconReportFileName; }
  fs::path partition_report(const std::string &slug) const { return reports_dir(slug) / kPartitionReportFileName; }
  // "reports/<slug>/<file>", "/"-separated: a report's path relative to the
  // store root, as the README and the review page link it.
  static std::string report_relpath(const std::string &slug, const std::string &file) {
    return std::string(kReportsDirName) + "/" + slug + "/" + file;
  }
  fs::path review_page() const { return root / kReviewPageFileName; }
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

// A directory a setting names: `~` expanded, made absolute and lexically
// normal, without a trailing "/" (so its file name is the directory's name).
fs::path resolve_dir(const fs::path &dir);
// The store --store / RTM_STORE names, resolved as above; nullopt when
// neither is set. The one place the setting is read.
std::optional<fs::path> configured_store(const config::Settings &settings);
// The staging store of a run: configured_store(), else default_store().
StagingStore staging_store(const config::Settings &settings);
// The live store a run names (--live / RTM_LIVE), `~` expanded; nullopt
// when none is set.
std::optional<fs::path> live_root(const config::Settings &settings);

} // namespace otm::workspace
