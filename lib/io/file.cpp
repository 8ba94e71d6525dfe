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

std::string read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError(path.string() + ": read error");
  return ss.str();
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
