// The live store's only write path (docs/admission.md, "All or nothing").
// A commit replaces a few record files — the record it admits or re-ranks —
// and upserts the record's index entry, with work proportional to those
// files, whatever the store's size:
//   1. <root>/.otm-commit describes it (store/pending_commit.hpp): each
//      record file with its old bytes and new hash, and the journal line it
//      will append (the journal's length and the line's hash); written
//      atomically and flushed;
//   2. each record file is replaced (temp file, fsync, rename, fsync of the
//      directory), new directories flushed into their parents;
//   3. one line is appended to records/index.journal and flushed: the
//      commit point (store/index_journal.hpp);
//   4. .otm-commit is removed;
//   5. when the journal has reached limits.max_journal_entries, it is
//      folded into records/index.json (compact_index).
// Until step 3 every store reader sees the store as it was; after it, the
// whole new state. A writer killed at any point leaves .otm-commit (or a
// torn journal line), which the next writer resolves under the lock before
// anything else (recover_interrupted_commit): done if the journal holds the
// line, else rolled back and the journal cut back. A commit of one file and
// no index change is a single atomic replacement and needs no record.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::admission {

class BatchLog;

class StoreCommit {
public:
  // The caller must hold the store's exclusive StoreLock.
  explicit StoreCommit(std::filesystem::path root, config::Limits limits = {})
      : root_(std::move(root)), limits_(limits) {}

  // Queues `content` for the record file `relpath`, relative to records/
  // ("strategy/nvidia/.../<id>.json"). The path is checked to stay inside
  // records/ and to pass through no symbolic link.
  void write(const std::filesystem::path &relpath, std::string content);
  // Queues the upsert of one index entry (the commit point), whose record's
  // candidate summary is `summary` (store::candidate_summary_text), kept in
  // the journal line for `match`.
  void upsert_index_entry(json::Value entry, std::string summary);

  // Inside a batch (batch_log.hpp): nothing is flushed here (the batch
  // flushes once, before its fold) and a file about to be replaced is kept
  // in the batch's log first; no compaction.
  void in_batch(BatchLog *log) { batch_ = log; }

  // Applies the queued writes (the journal line last). Does nothing when
  // nothing was queued. Throws io::IoError on failure; the store then reads
  // as it was, and the next writer rolls the attempt back.
  void commit();

  // The store's files the commit changed, relative to the root: the record
  // files, records/index.journal, and records/index.json when it compacted.
  const std::vector<std::string> &changed() const { return changed_; }

private:
  std::filesystem::path root_;
  config::Limits limits_;
  std::vector<std::pair<std::filesystem::path, std::string>> writes_;
  std::optional<json::Value> entry_;
  std::string summary_;
  std::vector<std::string> changed_;
  BatchLog *batch_ = nullptr;
};

// Resolves a commit a killed writer left (see above): rolls back one that
// did not reach its journal line and cuts a torn journal tail; removes the
// records/ generations of otm versions that committed by swapping
// directories; then resolves a batch's log left behind (batch_log.hpp).
// Call under the exclusive lock before any change.
void recover_interrupted_commit(const std::filesystem::path &root, const config::Limits &limits = {});

} // namespace otm::admission
