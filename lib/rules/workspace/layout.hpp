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
};

struct StagingStore {
  fs::path root; // $RTM_STORE, default ./kernel_wiki/staging
  fs::path records_dir() const { return root / "records"; }
  fs::path index_file() const { return records_dir() / "index.json"; }
  fs::path reports_dir(const std::string &slug) const { return root / "reports" / slug; }
  fs::path readme_file() const { return root / "README.md"; }
};

// Default workspace root for a trace slug ("unset" when no trace).
fs::path default_workspace(const std::string &slug);
// Default staging store: ./kernel_wiki/staging, made absolute.
fs::path default_store();

} // namespace otm::workspace
