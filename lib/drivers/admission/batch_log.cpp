#include "admission/batch_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "admission/index_journal_writer.hpp"
#include "io/file.hpp"
#include "store/index_journal.hpp"
#include "store/pending_commit.hpp"
#include "text/sha256.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

fs::path BatchLog::file(const fs::path &root) { return root / kFileName; }

BatchLog::BatchLog(fs::path root, const std::vector<std::string> &new_files) : root_(std::move(root)) {
  store::Journal journal = journal_without_torn_tail(root_, {});
  json::Value files = json::Value::array();
  for (const auto &rel : new_files) {
    json::Value f = json::Value::object();
    f.set("path", rel);
    f.set("existed", io::is_regular_file(root_ / rel));
    files.push_back(std::move(f));
  }
  json::Value head = json::Value::object();
  head.set("journal_length", static_cast<long long>(journal.valid_end));
  head.set("new_files", files);
  io::write_file_atomic(file(root_), json::to_line(head) + "\n", io::FileClass::Live);
}

void BatchLog::append(const std::string &line) {
  fs::path p = file(root_);
  int fd = ::open(p.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) throw io::IoError(p.string() + ": cannot open the batch log (" + std::strerror(errno) + ")");
  try {
    io::write_all(fd, line, p);
  } catch (...) {
    ::close(fd);
    throw;
  }
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) throw io::IoError(p.string() + ": cannot flush the batch log (" + std::strerror(errno) + ")");
}

void BatchLog::keep_old(const std::string &relpath, const std::string &bytes) {
  json::Value v = json::Value::object();
  v.set("old_path", relpath);
  v.set("old_bytes", bytes);
  append(json::to_line(v) + "\n");
}

void BatchLog::folding(const std::string &index_text) {
  json::Value v = json::Value::object();
  v.set("index_sha256", text::sha256_hex(index_text));
  append(json::to_line(v) + "\n");
}

void BatchLog::finish() {
  if (::unlink(file(root_).c_str()) == 0) io::fsync_directory(root_);
}

namespace {
std::optional<std::string> sha_of_index(const fs::path &root) {
  fs::path p = workspace::index_file(root);
  if (!io::is_regular_file(p)) return std::nullopt;
  return text::sha256_hex(io::read_file(p));
}
} // namespace

void recover_batch(const fs::path &root) {
  fs::path p = BatchLog::file(root);
  if (!io::is_regular_file(p)) return;
  std::string text = io::read_file(p);
  std::vector<json::Value> lines;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break; // a torn append: never acted on (flushed before the act)
    try {
      lines.push_back(json::parse(std::string_view(text).substr(at, nl - at), p.string()));
    } catch (const json::ParseError &) {
      if (nl + 1 != text.size())
        throw io::IoError(p.string() + ": damaged (a line that is not the last does not parse); check the store and "
                                       "remove the file");
    }
    at = nl + 1;
  }
  auto refuse = [&](const std::string &rel, const std::string &why) {
    throw io::IoError(p.string() + ": names '" + rel + "' (" + why +
                      "), which no batch writes: not a batch log otm wrote; nothing was done. Check the store, then "
                      "remove the file");
  };
  if (lines.empty() || !lines[0].get("journal_length").as_int()) {
    // Written atomically: an empty or headless log is damage.
    throw io::IoError(p.string() + ": not a batch log; check the store, then remove the file");
  }
  std::string folded;
  for (const auto &l : lines)
    if (auto s = l.get("index_sha256").as_string()) folded = *s;
  if (!folded.empty() && sha_of_index(root) == folded) {
    // The fold was the commit point and it happened: only the journal (its
    // entries are in the index) and the log remain.
    fs::path j = store::journal_file(root);
    if (::unlink(j.c_str()) == 0) io::fsync_directory(j.parent_path());
    if (::unlink(p.c_str()) == 0) io::fsync_directory(root);
    return;
  }
  // Rolled back whole, the files the log names checked as a commit's are.
  for (std::size_t i = lines.size(); i-- > 1;) {
    const auto &l = lines[i];
    auto rel = l.get("old_path").as_string();
    auto bytes = l.get("old_bytes").as_string();
    if (!rel || !bytes) continue;
    if (auto why = store::unsafe_pending_path(root, *rel); !why.empty()) refuse(*rel, why);
    io::write_file_atomic(root / *rel, *bytes, io::FileClass::Live);
  }
  if (const auto *files = lines[0].get("new_files").as_array())
    for (const auto &f : *files) {
      std::string rel = f.string_or("path");
      if (auto why = store::unsafe_pending_path(root, rel); !why.empty()) refuse(rel, why);
      if (const bool *existed = f.get("existed").as_bool(); !existed || *existed) continue;
      fs::path target = root / rel;
      if (::unlink(target.c_str()) == 0) io::fsync_directory(target.parent_path());
    }
  auto length = static_cast<std::uint64_t>(*lines[0].get("journal_length").as_int());
  if (length == 0) {
    fs::path j = store::journal_file(root);
    if (::unlink(j.c_str()) == 0) io::fsync_directory(j.parent_path());
  } else {
    truncate_journal(root, length);
  }
  if (::unlink(p.c_str()) == 0) io::fsync_directory(root);
}

} // namespace otm::admission
