#include "io/dir_stamps.hpp"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace otm::io {

namespace {

std::int64_t ns(const struct timespec &t) { return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec; }

} // namespace

std::optional<DirStamps> stamp_dir(const std::filesystem::path &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  DIR *d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return std::nullopt;
  }
  DirStamps out;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  out.inode = st.st_ino;
  while (ok) {
    errno = 0;
    const dirent *e = ::readdir(d);
    if (!e) {
      ok = errno == 0;
      break;
    }
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      ok = false;
      break;
    }
    out.entries.push_back(
        {std::move(name), std::uint64_t(st.st_ino), std::uint64_t(st.st_size), ns(st.st_mtim), ns(st.st_ctim)});
  }
  ::closedir(d);
  if (!ok) return std::nullopt;
  std::sort(out.entries.begin(), out.entries.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
  return out;
}

} // namespace otm::io
