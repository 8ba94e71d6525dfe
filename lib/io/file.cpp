#include "io/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>

namespace otm::io {
namespace fs = std::filesystem;

// POSIX reads into a buffer sized by fstat: ingest reads thousands of
// small step records, and stream buffering doubled the copying.
std::string read_file(const fs::path &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  struct stat st {};
  std::string out;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      std::string msg = path.string();
      msg.append(": read error (").append(std::strerror(err)).append(")");
      throw IoError(msg);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string read_stdin() {
  std::ostringstream ss;
  ss << std::cin.rdbuf();
  return ss.str();
}

std::string read_input(const std::string &path_or_dash) {
  return path_or_dash == "-" ? read_stdin() : read_file(path_or_dash);
}

namespace {
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
} // namespace

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

bool write_file_if_changed(const fs::path &path, std::string_view content, FileClass cls) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0) {
    struct stat st {};
    bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) == content.size();
    if (same) {
      std::string have(content.size(), '\0');
      std::size_t got = 0;
      while (got < have.size()) {
        ssize_t n = ::read(fd, have.data() + got, have.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      same = got == have.size() && have == content;
    }
    ::close(fd);
    if (same) return false;
  }
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
