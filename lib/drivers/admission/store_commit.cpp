#include "admission/store_commit.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "admission/batch_log.hpp"
#include "admission/index_journal_writer.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/index_journal.hpp"
#include "store/pending_commit.hpp"
#include "text/sha256.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {

// Creates the missing directories above `file` and flushes each new one's
// entry into its parent, so a new scope survives a power loss with the
// record in it.
void make_parents_durable(const fs::path &file) {
  std::vector<fs::path> missing;
  for (fs::path d = file.parent_path(); !d.empty() && !io::is_directory(d); d = d.parent_path()) missing.push_back(d);
  if (missing.empty()) return;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw io::IoError(file.parent_path().string() + ": cannot create directory (" + ec.message() + ")");
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) io::fsync_directory(it->parent_path());
}

void remove_durably(const fs::path &p) {
  if (::unlink(p.c_str()) != 0 && errno != ENOENT)
    throw io::IoError(p.string() + ": cannot remove (" + std::strerror(errno) + ")");
  io::fsync_directory(p.parent_path());
}

// A symbolic link (or special file) on the way to a file the commit writes
// could redirect the write out of the store.
void refuse_links(const fs::path &records, const fs::path &relpath) {
  fs::path p = records;
  auto check = [](const fs::path &q) {
    std::error_code ec;
    auto st = fs::symlink_status(q, ec);
    if (ec || !fs::exists(st)) return;
    if (fs::is_symlink(st))
      throw io::IoError(q.string() + ": the live store contains a symbolic link; refusing to write through it "
                                     "(replace it with a real directory or file)");
    if (!fs::is_directory(st) && !fs::is_regular_file(st))
      throw io::IoError(q.string() + ": not a regular file or directory; refusing to write it in the store");
  };
  check(p);
  for (const auto &part : relpath) check(p /= part);
}

// Store generations of the directory-swapping commit (otm before 0.2).
constexpr const char *kOldGenerationPrefix = ".otm-records-";

} // namespace

void StoreCommit::write(const fs::path &relpath, std::string content) {
  auto name = relpath.lexically_normal().generic_string();
  if (name == workspace::kIndexFileName || name == workspace::kJournalFileName)
    throw io::IoError("internal: the index changes only through upsert_index_entry (the journal)");
  // Validated now, so a bad path is refused before anything is written.
  record::inside(workspace::records_dir(root_), relpath);
  refuse_links(workspace::records_dir(root_), relpath);
  writes_.emplace_back(relpath, std::move(content));
}

void StoreCommit::upsert_index_entry(json::Value entry, std::string summary) {
  refuse_links(workspace::records_dir(root_), workspace::kJournalFileName);
  entry_ = std::move(entry);
  summary_ = std::move(summary);
}

void StoreCommit::commit() {
  if (writes_.empty() && !entry_) return;
  const fs::path records = workspace::records_dir(root_);
  // In a batch nothing is flushed per record: the batch's log makes it
  // undoable and the batch flushes once (batch_log.hpp).
  const io::FileClass cls = batch_ ? io::FileClass::Scratch : io::FileClass::Live;
  auto place = [&](const fs::path &target, const std::string &content) {
    if (batch_) {
      if (io::is_regular_file(target))
        batch_->keep_old(workspace::store_relpath(target.lexically_relative(records)), io::read_file(target));
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
      if (ec) throw io::IoError(target.parent_path().string() + ": cannot create directory (" + ec.message() + ")");
    } else {
      make_parents_durable(target);
    }
    io::write_file_atomic(target, content, cls);
  };
  changed_.clear();
  if (!entry_) {
    if (writes_.size() != 1)
      throw io::IoError("internal: a commit of several record files must change the index (its commit point)");
    auto target = record::inside(records, writes_[0].first);
    place(target, writes_[0].second);
    changed_.push_back(workspace::store_relpath(writes_[0].first));
    writes_.clear();
    return;
  }
  store::Journal journal = journal_without_torn_tail(root_, limits_);
  auto line = store::journal_line(*entry_, summary_);
  store::PendingCommit pending;
  pending.journal_offset = journal.valid_end;
  pending.journal_line_sha256 = line.sha256;
  for (const auto &[rel, content] : writes_) {
    auto target = record::inside(records, rel);
    std::optional<std::string> old;
    if (io::is_regular_file(target)) old = io::read_file(target);
    pending.files.push_back({workspace::store_relpath(rel), text::sha256_hex(content), std::move(old)});
  }
  // An index change alone needs no description: a torn line is cut.
  if (!writes_.empty())
    io::write_file_atomic(store::pending_commit_file(root_), json::to_line(store::to_json(pending)) + "\n", cls);
  for (const auto &[rel, content] : writes_) {
    place(record::inside(records, rel), content);
    changed_.push_back(workspace::store_relpath(rel));
  }
  append_journal_line(root_, journal.valid_end, line.text, !batch_);
  changed_.push_back(workspace::kJournalRelpath);
  if (!writes_.empty()) {
    if (batch_)
      ::unlink(store::pending_commit_file(root_).c_str());
    else
      remove_durably(store::pending_commit_file(root_));
  }
  writes_.clear();
  entry_.reset();
  if (!batch_ && journal.lines.size() + 1 >= limits_.max_journal_entries && compact_index(root_, limits_))
    changed_.push_back(workspace::kIndexRelpath);
}

void recover_interrupted_commit(const fs::path &root, const config::Limits &limits) {
  if (auto pending = store::read_pending_commit(root)) {
    if (!store::reached_commit_point(root, *pending)) {
      // pending_view names exactly the files already replaced.
      for (const auto &[relpath, old] : store::pending_view(root)) {
        auto target = record::inside(root, relpath);
        if (old)
          io::write_file_atomic(target, *old, io::FileClass::Live);
        else
          remove_durably(target);
      }
      if (pending->journal_offset) truncate_journal(root, *pending->journal_offset);
    }
    remove_durably(store::pending_commit_file(root));
  }
  journal_without_torn_tail(root, limits);
  // The temporary file of a description whose writer died before renaming it.
  for (const auto &entry : io::list_dir(root))
    if (entry.filename().string().starts_with(".otm-commit.tmp.")) ::unlink(entry.c_str());
  for (const auto &entry : io::list_dir(root))
    if (entry.filename().string().starts_with(kOldGenerationPrefix)) {
      std::error_code ec;
      fs::remove_all(entry, ec);
      if (ec) throw io::IoError(entry.string() + ": cannot remove an old store generation (" + ec.message() + ")");
    }
  recover_batch(root);
}

} // namespace otm::admission
