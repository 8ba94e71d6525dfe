// A batch's transaction log, <live>/.otm-batch (docs/admission.md,
// "Batches"; docs/durability.md). A batch writes its records without a
// flush per record (each record's own commit still runs, so a reader sees
// the store record by record) and flushes once, with syncfs, before it
// folds the journal into records/index.json; the fold is the batch's
// commit point. So that a power loss before it cannot leave half a batch,
// the batch first writes (flushed) this log: the journal's length and the
// record files the batch may create (each record's derived path, and
// whether a file was there already); before a confirm replaces a record
// file, its old bytes are appended (flushed); before the new index is
// written, its SHA-256. The next writer (recover_batch) finds a log left
// behind: if records/index.json is the one the log names, the batch was
// folded and only the journal and the log go; otherwise the whole batch is
// rolled back — replaced files put back, created files removed, the
// journal cut to its length before the batch — and the store is as it was
// before the batch, whatever reached the disk.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace otm::admission {

class BatchLog {
public:
  // Under the exclusive lock, before the batch writes anything: `new_files`
  // are the paths (relative to the live root) its records would be
  // inserted at. Writes and flushes the log.
  BatchLog(std::filesystem::path root, const std::vector<std::string> &new_files);
  // A record file (relative to the live root) the batch is about to
  // replace: its current bytes, flushed into the log first.
  void keep_old(const std::string &relpath, const std::string &bytes);
  // The index about to be written (its SHA-256), flushed into the log.
  void folding(const std::string &index_text);
  // The batch is done (folded, or nothing written): the log goes.
  void finish();
  static std::filesystem::path file(const std::filesystem::path &root);
  static constexpr const char *kFileName = ".otm-batch";

private:
  void append(const std::string &line);
  std::filesystem::path root_;
};

// Resolves a batch log left behind (see above), under the exclusive lock,
// after any record's own interrupted commit was resolved. Throws
// io::IoError for a log that names a file a batch never writes.
void recover_batch(const std::filesystem::path &root);

} // namespace otm::admission
