#include "admission/index_journal_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file.hpp"
#include "store/index_journal.hpp"
#include "store/index_keys.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void fail(const fs::path &p, const std::string &what) {
  throw io::IoError(p.string() + ": cannot " + what + " (" + std::strerror(errno) + ")");
}
} // namespace

void append_journal_line(const fs::path &root, std::uint64_t offset, std::string_view line) {
  fs::path p = store::journal_file(root);
  int fd = ::open(p.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) fail(p, "open the index journal");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(p, "use the index journal");
  }
  if (static_cast<std::uint64_t>(st.st_size) != offset) {
    ::close(fd);
    throw io::IoError(p.string() + ": changed under the store's lock (" + std::to_string(st.st_size) +
                      " bytes, expected " + std::to_string(offset) + "); nothing was appended");
  }
  try {
    io::write_all(fd, line, p);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail(p, "flush the index journal");
  }
  ::close(fd);
  if (offset == 0) io::fsync_directory(p.parent_path());
}

void truncate_journal(const fs::path &root, std::uint64_t length) {
  fs::path p = store::journal_file(root);
  int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return;
    fail(p, "open the index journal");
  }
  struct stat st {};
  bool longer = ::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) > length;
  if (longer && (::ftruncate(fd, static_cast<off_t>(length)) != 0 || ::fsync(fd) != 0)) {
    ::close(fd);
    fail(p, "truncate the index journal");
  }
  ::close(fd);
}

store::Journal journal_without_torn_tail(const fs::path &root, const config::Limits &limits) {
  store::Journal j;
  try {
    j = store::read_journal(root, limits);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()));
  }
  if (j.torn_tail()) truncate_journal(root, j.valid_end);
  return j;
}

bool compact_index(const fs::path &root, const config::Limits &limits) {
  std::optional<json::Value> index;
  std::optional<store::KeysIndex> before;
  try {
    if (store::read_journal(root, limits).lines.empty()) return false;
    // The keys of the index being folded: the new keys take their summaries
    // (no record is read).
    before = store::KeysIndex::open(root, limits);
    index = store::load_index(root, limits);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before compacting");
  }
  if (!index || !index->is_object() || !index->get("records").is_array())
    throw io::IoError(workspace::index_file(root).string() +
                      ": not an index (an object with a \"records\" list); rebuild it before compacting");
  std::string text = json::to_pretty(*index);
  io::write_file_atomic(workspace::index_file(root), text, io::FileClass::Live);
  fs::path j = store::journal_file(root);
  if (::unlink(j.c_str()) != 0 && errno != ENOENT) fail(j, "remove the index journal");
  io::fsync_directory(j.parent_path());
  store::write_keys_cache(root, text, *index, *before, limits);
  return true;
}

} // namespace otm::admission
