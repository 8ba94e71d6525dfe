// A live-store commit under way (docs/admission.md, "All or nothing"). The
// writer describes the commit in <root>/.otm-commit before it touches
// records/: the record files it will replace, with their old bytes (none
// for a new file) and the hash of each new file, and the index line it
// appends last to records/index.journal (the journal's length before it and
// the line's hash; store/index_journal.hpp). The file disappears when the
// commit is done. Until the journal holds that line, a reader takes the
// store as it was (pending_view): the files already replaced read as their
// old bytes, new files as absent. So the index and the record files never
// disagree, whenever the writer stops; the next writer rolls a commit that
// did not reach its commit point back for good.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json/value.hpp"

namespace otm::store {

namespace fs = std::filesystem;

struct PendingFile {
  std::string relpath;                  // relative to the store root ("records/...")
  std::string new_sha256;               // of the bytes being written
  std::optional<std::string> old_bytes; // nullopt: the file did not exist
};

struct PendingCommit {
  std::vector<PendingFile> files; // record files, written before the index
  // The commit point: the journal line appended at journal_offset (the
  // journal's length before the commit) whose payload hashes to
  // journal_line_sha256.
  std::optional<std::uint64_t> journal_offset;
  std::string journal_line_sha256;
  // Of a description written by otm before the journal: the SHA-256 of the
  // new records/index.json, then the commit point.
  std::string index_sha256;
};

fs::path pending_commit_file(const fs::path &root);

json::Value to_json(const PendingCommit &c);
// The pending commit of `root`, if any. Throws io::IoError when the file
// exists but cannot be read as one (it is written atomically, so that is
// damage, not a torn write), or names a file a commit never writes
// (unsafe_pending_path): neither a reader nor the recovery acts on it.
std::optional<PendingCommit> read_pending_commit(const fs::path &root);

// Why `relpath` (of a description) is not a file a commit writes, "" when
// it is: a plain relative path under records/ (not its journal) or
// conflicts/, through no symbolic link or non-directory, naming a regular
// file or nothing.
std::string unsafe_pending_path(const fs::path &root, const std::string &relpath);

// What a reader must take instead of the files on disk: relpath -> the old
// bytes (nullopt: the file must read as absent). Empty when there is no
// pending commit or it reached its commit point.
std::map<std::string, std::optional<std::string>> pending_view(const fs::path &root);

// True when `c` reached its commit point.
bool reached_commit_point(const fs::path &root, const PendingCommit &c);

} // namespace otm::store
