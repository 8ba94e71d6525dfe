#include "io/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>

#include "io/unique_fd.hpp"

namespace otm::io {
namespace fs = std::filesystem;

namespace {

const char *kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Reads fd to its end, refusing more than bounds.max_bytes or a line longer
// than bounds.max_line_bytes; `name` is what errors call the input.
std::string read_bounded(int fd, const std::string &name, const InputBounds &bounds, std::size_t reserve) {
  std::string out;
  out.reserve(std::min(reserve, bounds.max_bytes));
  char buf[65536];
  std::size_t line_len = 0, line_no = 1;
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(name + ": read error (" + std::strerror(errno) + ")");
    if (n == 0) break;
    // Line by line with memchr (a byte loop was a tenth of otm-ladder's CPU).
    for (const char *p = buf, *end = buf + n; p < end;) {
      const char *nl = static_cast<const char *>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      line_len += static_cast<std::size_t>((nl ? nl : end) - p);
      if (line_len > bounds.max_line_bytes)
        throw IoError(name + ": line " + std::to_string(line_no) + " is longer than " +
                      std::to_string(bounds.max_line_bytes) + " bytes (limits.max_line_bytes); not a JSONL input?");
      if (!nl) break;
      line_len = 0;
      ++line_no;
      p = nl + 1;
    }
    if (out.size() + static_cast<std::size_t>(n) > bounds.max_bytes)
      throw IoError(name + ": more than " + std::to_string(bounds.max_bytes) + " bytes (limits.max_input_bytes)");
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

} // namespace

// POSIX reads into a buffer sized by fstat: ingest reads thousands of
// small step records, and stream buffering doubled the copying. O_NONBLOCK
// makes opening a FIFO return at once, so fstat can refuse it.
std::string read_file(const fs::path &path, std::size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw IoError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  UniqueFd closer(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) throw IoError(path.string() + ": " + kind_of(st.st_mode) + ", not a regular file");
  if (static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw IoError(path.string() + ": " + std::to_string(st.st_size) + " bytes, over the limit of " +
                  std::to_string(max_bytes));
  InputBounds bounds{max_bytes, SIZE_MAX};
  return read_bounded(fd, path.string(), bounds, static_cast<std::size_t>(st.st_size));
}

std::string read_stdin(const InputBounds &bounds) { return read_bounded(STDIN_FILENO, "<stdin>", bounds, 0); }

std::string read_input(const std::string &path_or_dash, const InputBounds &bounds) {
  if (path_or_dash == "-") return read_stdin(bounds);
  int fd = ::open(path_or_dash.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw IoError(path_or_dash + ": cannot read (" + std::strerror(errno) + ")");
  UniqueFd closer(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError(path_or_dash + ": cannot read (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw IoError(path_or_dash + ": " + kind_of(st.st_mode) + ", not a file or a pipe");
  return read_bounded(fd, path_or_dash, bounds, S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0);
}

void write_all(int fd, std::string_view content, const fs::path &path) {
  const char *p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw IoError(path.string() + ": write failed (" + std::strerror(errno) + ")");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

bool flushed_per_file(FileClass cls) { return cls != FileClass::Scratch; }

namespace {
// Writes `content` to a fresh temporary file next to `path` (fsynced when
// `flush`) and returns its name; the caller renames it into place.
std::string write_temp_sibling(const fs::path &path, std::string_view content, bool flush) {
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string() + ": cannot create directory (" + ec.message() + ")");
  // Built with append: GCC 12 reports a false -Wrestrict on "." + string.
  std::string name(".");
  name += path.filename().string();
  name += ".tmp.XXXXXX";
  std::string tmpl = (dir / name).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw IoError(path.string() + ": cannot create temporary file (" + std::strerror(errno) + ")");
  try {
    write_all(fd, content, path);
    if (::fchmod(fd, 0644) != 0 || (flush && ::fsync(fd) != 0))
      throw IoError(path.string() + ": cannot flush (" + std::strerror(errno) + ")");
  } catch (...) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw;
  }
  ::close(fd);
  return tmpl;
}

fs::path parent_or_dot(const fs::path &path) { return path.parent_path().empty() ? fs::path(".") : path.parent_path(); }
} // namespace

void fsync_directory(const fs::path &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // A directory we may write but not read (mode -wx) cannot be opened to
  // flush; the rename inside it has still happened.
  if (fd < 0 && errno == EACCES) return;
  if (fd < 0) throw IoError(dir.string() + ": cannot open directory to flush it (" + std::strerror(errno) + ")");
  // Some file systems cannot fsync a directory (EINVAL); their renames are
  // as durable as they get, so that is not an error.
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS)
    throw IoError(dir.string() + ": cannot flush directory (" + std::strerror(err) + ")");
}

void write_file_atomic(const fs::path &path, std::string_view content, FileClass cls) {
  bool flush = flushed_per_file(cls);
  std::string tmp = write_temp_sibling(path, content, flush);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw IoError(path.string() + ": cannot replace (" + std::strerror(err) + ")");
  }
  if (flush) fsync_directory(parent_or_dot(path));
}

std::optional<std::string> read_regular_at(int dir_fd, const char *name, std::size_t expected) {
  int fd = ::openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
      (expected == SIZE_MAX || static_cast<std::size_t>(st.st_size) == expected)) {
    std::string have(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < have.size()) {
      ssize_t n = ::read(fd, have.data() + got, have.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == have.size()) out = std::move(have);
  }
  ::close(fd);
  return out;
}

namespace {
// Whether `path` is a regular file holding exactly `content`.
bool holds_exactly(const fs::path &path, std::string_view content) {
  auto have = read_regular_at(AT_FDCWD, path.c_str(), content.size());
  return have && *have == content;
}
} // namespace

bool write_file_if_changed(const fs::path &path, std::string_view content, FileClass cls) {
  if (holds_exactly(path, content)) return false;
  write_file_atomic(path, content, cls);
  return true;
}

bool write_file_atomic_new(const fs::path &path, std::string_view content, FileClass cls) {
  bool flush = flushed_per_file(cls);
  std::string tmp = write_temp_sibling(path, content, flush);
  // link(2) fails with EEXIST instead of replacing, unlike rename(2).
  int rc = ::link(tmp.c_str(), path.c_str());
  int err = errno;
  ::unlink(tmp.c_str());
  if (rc != 0) {
    if (err == EEXIST) return false;
    throw IoError(path.string() + ": cannot create (" + std::strerror(err) + ")");
  }
  if (flush) fsync_directory(parent_or_dot(path));
  return true;
}

void WriteBatch::add(const fs::path &path, std::string_view content, FileClass cls) {
  durable_ = durable_ || flushed_per_file(cls);
  pending_.emplace_back(write_temp_sibling(path, content, flushed_per_file(cls)), path);
}

bool WriteBatch::add_if_changed(const fs::path &path, std::string_view content, FileClass cls) {
  if (holds_exactly(path, content)) return false;
  add(path, content, cls);
  return true;
}

void WriteBatch::commit() {
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    const auto &[tmp, path] = pending_[i];
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      // The renames before this one are done; the rest are dropped.
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      ::unlink(tmp.c_str());
      throw IoError(path.string() + ": cannot replace (" + std::strerror(err) + ")");
    }
  }
  if (durable_) {
    std::vector<fs::path> dirs;
    for (const auto &[_, path] : pending_) dirs.push_back(parent_or_dot(path));
    std::sort(dirs.begin(), dirs.end());
    dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
    pending_.clear();
    for (const auto &d : dirs) fsync_directory(d);
  }
  pending_.clear();
}

WriteBatch::~WriteBatch() {
  for (const auto &[tmp, _] : pending_) ::unlink(tmp.c_str());
}

void sync_file_system(const fs::path &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path.string() + ": cannot open to flush its file system (" + std::strerror(errno) + ")");
  int rc = ::syncfs(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) throw IoError(path.string() + ": cannot flush its file system (" + std::strerror(err) + ")");
}

void write_output(const std::string &path_or_dash, std::string_view content, FileClass cls) {
  if (path_or_dash == "-") {
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    std::cout.flush();
    if (!std::cout) throw IoError("<stdout>: write failed");
    return;
  }
  write_file_atomic(path_or_dash, content, cls);
}

bool is_regular_file(const fs::path &path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool is_directory(const fs::path &path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::vector<fs::path> list_dir(const fs::path &dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(it->path());
  std::sort(out.begin(), out.end(),
            [](const fs::path &a, const fs::path &b) { return a.filename().string() < b.filename().string(); });
  return out;
}

fs::path expand_user(std::string_view path) {
  if (path == "~" || path.starts_with("~/")) {
    const char *home = std::getenv("HOME");
    if (home) return fs::path(home) / std::string(path.substr(path.size() > 1 ? 2 : 1));
  }
  return fs::path(std::string(path));
}

} // namespace otm::io
