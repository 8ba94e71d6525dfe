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

void write_file_atomic(const fs::path &path, std::string_view content) {
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string() + ": cannot create directory (" + ec.message() + ")");
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw IoError(path.string() + ": cannot create temporary file (" + std::strerror(errno) + ")");
  try {
    write_all(fd, content, path);
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0)
      throw IoError(path.string() + ": cannot flush (" + std::strerror(errno) + ")");
  } catch (...) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw IoError(path.string() + ": cannot replace (" + std::strerror(err) + ")");
  }
}

void write_output(const std::string &path_or_dash, std::string_view content) {
  if (path_or_dash == "-") {
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    std::cout.flush();
    if (!std::cout) throw IoError("<stdout>: write failed");
    return;
  }
  write_file_atomic(path_or_dash, content);
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
