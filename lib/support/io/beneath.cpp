#include "io/beneath.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>

#include "io/file.hpp"

namespace otm::io {

namespace {

constexpr int kMaxLinks = 40; // as the kernel's own limit on a path walk

Refusal from_errno(int err) {
  switch (err) {
  case ENOENT:
  case ENOTDIR: return Refusal::Missing;
  case EXDEV: return Refusal::OutsideRoot;
  default: return Refusal::Unreadable;
  }
}

const char *type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a plain file";
}

long openat2_call(int dirfd, const char *path, int flags) {
  open_how how{};
  how.flags = static_cast<unsigned long long>(flags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return ::syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

std::deque<std::string> components(const std::string &rel) {
  std::deque<std::string> out;
  std::size_t pos = 0;
  while (pos <= rel.size()) {
    auto slash = rel.find('/', pos);
    std::string c = rel.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
    if (!c.empty() && c != ".") out.push_back(std::move(c));
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return out;
}

std::string describe(Refusal r, const std::string &what, int err) {
  switch (r) {
  case Refusal::None: return "readable";
  case Refusal::Missing: return "missing";
  case Refusal::OutsideRoot: return "a symbolic link or path leading out of " + what;
  case Refusal::NotRegular: return "not a regular file";
  case Refusal::NotDirectory: return "not a directory";
  case Refusal::TooLarge: return "too large";
  case Refusal::Unreadable: return std::string("unreadable (") + std::strerror(err) + ")";
  }
  return "unreadable";
}

} // namespace

Beneath::Beneath(const std::filesystem::path &root, std::string what, Method method)
    : root_(root), what_(std::move(what)) {
  root_fd_.fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd_.fd < 0) throw IoError(root.string() + ": cannot open directory (" + std::strerror(errno) + ")");
  if (method == Method::Auto) {
    // Containers' seccomp filters answer an unknown system call with ENOSYS
    // or EPERM; either means the walk.
    long fd = openat2_call(root_fd_.fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      ::close(static_cast<int>(fd));
      openat2_ = true;
    }
  }
}

Beneath::~Beneath() = default;
Beneath::Beneath(Beneath &&) noexcept = default;
Beneath &Beneath::operator=(Beneath &&) noexcept = default;

int Beneath::open_beneath(const std::string &rel, int flags, Refusal &refusal) const {
  // openat2 refuses O_PATH with any flag but O_DIRECTORY, O_NOFOLLOW and
  // O_CLOEXEC (EINVAL).
  flags |= O_CLOEXEC | ((flags & O_PATH) ? 0 : O_NOCTTY);
  if (!openat2_) return walk(rel, flags, refusal);
  std::string path = rel.empty() ? std::string(".") : rel;
  if (path.front() == '/') {
    refusal = Refusal::OutsideRoot;
    return -1;
  }
  long fd;
  do {
    fd = openat2_call(root_fd_.fd, path.c_str(), flags);
  } while (fd < 0 && (errno == EINTR || errno == EAGAIN));
  if (fd < 0) {
    refusal = from_errno(errno);
    return -1;
  }
  refusal = Refusal::None;
  return static_cast<int>(fd);
}

// The portable resolution: one component at a time from the root, never
// letting the kernel follow a link; a link's target is spliced into the
// remaining components and judged by the same rule (absolute, or ".."
// above the root: outside).
int Beneath::walk(const std::string &rel, int flags, Refusal &refusal) const {
  if (!rel.empty() && rel.front() == '/') {
    refusal = Refusal::OutsideRoot;
    return -1;
  }
  std::deque<std::string> pending = components(rel);
  std::vector<UniqueFd> dirs;
  dirs.emplace_back(::fcntl(root_fd_.fd, F_DUPFD_CLOEXEC, 0));
  int links = 0;
  if (pending.empty()) {
    int fd = ::openat(root_fd_.fd, ".", flags);
    refusal = fd < 0 ? from_errno(errno) : Refusal::None;
    return fd;
  }
  while (!pending.empty()) {
    std::string c = std::move(pending.front());
    pending.pop_front();
    if (c == "..") {
      if (dirs.size() == 1) {
        refusal = Refusal::OutsideRoot;
        return -1;
      }
      dirs.pop_back();
      if (pending.empty()) {
        int fd = ::openat(dirs.back().fd, ".", flags);
        refusal = fd < 0 ? from_errno(errno) : Refusal::None;
        return fd;
      }
      continue;
    }
    int cur = dirs.back().fd;
    struct stat st {};
    if (::fstatat(cur, c.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      refusal = from_errno(errno);
      return -1;
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxLinks) {
        refusal = Refusal::Unreadable;
        return -1;
      }
      std::string target(static_cast<std::size_t>(std::max<off_t>(st.st_size, 0)) + 256, '\0');
      ssize_t n = ::readlinkat(cur, c.c_str(), target.data(), target.size());
      if (n < 0) {
        refusal = from_errno(errno);
        return -1;
      }
      target.resize(static_cast<std::size_t>(n));
      if (target.empty() || target.front() == '/') {
        refusal = Refusal::OutsideRoot;
        return -1;
      }
      auto parts = components(target);
      pending.insert(pending.begin(), parts.begin(), parts.end());
      if (pending.empty()) { // a link to "." names the directory it is in
        int fd = ::openat(cur, ".", flags);
        refusal = fd < 0 ? from_errno(errno) : Refusal::None;
        return fd;
      }
      continue;
    }
    if (pending.empty()) {
      int fd;
      do {
        fd = ::openat(cur, c.c_str(), flags | O_NOFOLLOW);
      } while (fd < 0 && errno == EINTR);
      // ELOOP here: the entry became a link after fstatat.
      refusal = fd < 0 ? from_errno(errno) : Refusal::None;
      return fd;
    }
    if (!S_ISDIR(st.st_mode)) {
      refusal = Refusal::Missing;
      return -1;
    }
    int next = ::openat(cur, c.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) {
      refusal = from_errno(errno);
      return -1;
    }
    dirs.emplace_back(next);
  }
  refusal = Refusal::Missing;
  return -1;
}

Refusal Beneath::probe_file(const std::string &rel) const {
  Refusal r;
  UniqueFd fd(open_beneath(rel, O_PATH, r));
  if (fd.fd < 0) return r;
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) return Refusal::Unreadable;
  return S_ISREG(st.st_mode) ? Refusal::None : Refusal::NotRegular;
}

bool Beneath::is_directory(const std::string &rel) const {
  Refusal r;
  UniqueFd fd(open_beneath(rel, O_PATH | O_DIRECTORY, r));
  return fd.fd >= 0;
}

OpenFile::~OpenFile() = default;
OpenFile::OpenFile(OpenFile &&) noexcept = default;
OpenFile &OpenFile::operator=(OpenFile &&) noexcept = default;

std::size_t OpenFile::read_at(std::size_t offset, char *buf, std::size_t n) {
  if (!*this) return 0;
  ssize_t r;
  do r = ::pread(fd_.fd, buf, n, static_cast<off_t>(offset));
  while (r < 0 && errno == EINTR);
  if (r < 0) {
    refusal = Refusal::Unreadable;
    why = std::string("read error (") + std::strerror(errno) + ")";
    return 0;
  }
  auto got = static_cast<std::size_t>(r);
  if (offset + got > bound) { // grew while being read
    refusal = Refusal::TooLarge;
    why = "more than " + std::to_string(bound) + " bytes (the limit)";
    return 0;
  }
  return got;
}

OpenFile Beneath::open(const std::string &rel, std::size_t max_bytes) const {
  OpenFile out;
  out.bound = max_bytes;
  // First a handle that opens nothing (O_PATH: no FIFO wait, no device
  // side effect), judged by fstat; then the read handle, which must be the
  // same file.
  UniqueFd probe(open_beneath(rel, O_PATH, out.refusal));
  if (probe.fd < 0) {
    out.why = describe(out.refusal, what_, errno);
    return out;
  }
  struct stat st {};
  if (::fstat(probe.fd, &st) != 0) {
    out.refusal = Refusal::Unreadable;
    out.why = std::string("cannot stat (") + std::strerror(errno) + ")";
    return out;
  }
  if (!S_ISREG(st.st_mode)) {
    out.refusal = Refusal::NotRegular;
    out.why = std::string(type_name(st.st_mode)) + ", not a regular file";
    return out;
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    out.refusal = Refusal::TooLarge;
    out.why = std::to_string(st.st_size) + " bytes, over the limit of " + std::to_string(max_bytes);
    return out;
  }
  UniqueFd fd(open_beneath(rel, O_RDONLY | O_NONBLOCK, out.refusal));
  struct stat again {};
  if (fd.fd < 0 || ::fstat(fd.fd, &again) != 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
    out.refusal = Refusal::Unreadable;
    out.why = fd.fd < 0 ? std::string("cannot open (") + std::strerror(errno) + ")" : "changed while being read";
    return out;
  }
  out.refusal = Refusal::None;
  out.size = static_cast<std::size_t>(st.st_size);
  out.fd_ = std::move(fd);
  return out;
}

FileRead Beneath::read(const std::string &rel, std::size_t max_bytes) const {
  FileRead out;
  OpenFile f = open(rel, max_bytes);
  if (!f) {
    out.refusal = f.refusal;
    out.why = std::move(f.why);
    return out;
  }
  out.content.reserve(f.size);
  // To the end, whatever the size said: a file that grew is refused past
  // the bound.
  char buf[65536];
  while (std::size_t n = f.read_at(out.content.size(), buf, sizeof buf)) out.content.append(buf, n);
  if (!f) {
    out.refusal = f.refusal;
    out.why = std::move(f.why);
    out.content.clear();
    return out;
  }
  out.refusal = Refusal::None;
  return out;
}

DirList Beneath::list(const std::string &rel) const {
  DirList out;
  UniqueFd fd(open_beneath(rel, O_RDONLY | O_DIRECTORY | O_NONBLOCK, out.refusal));
  if (fd.fd < 0) {
    int err = errno;
    // O_DIRECTORY on a file (or FIFO) fails as a missing path would.
    if (out.refusal == Refusal::Missing) {
      Refusal what = probe_file(rel);
      if (what == Refusal::None || what == Refusal::NotRegular) {
        out.refusal = Refusal::NotDirectory;
        out.why = "not a directory";
        return out;
      }
    }
    out.why = describe(out.refusal, what_, err);
    return out;
  }
  DIR *d = ::fdopendir(fd.fd);
  if (!d) {
    out.refusal = Refusal::Unreadable;
    out.why = std::string("cannot list (") + std::strerror(errno) + ")";
    return out;
  }
  fd.release(); // owned by the DIR now
  while (dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    unsigned char t = e->d_type;
    if (t == DT_UNKNOWN) {
      struct stat st {};
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        t = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_FIFO;
    }
    EntryType type = t == DT_REG   ? EntryType::Regular
                     : t == DT_DIR ? EntryType::Directory
                     : t == DT_LNK ? EntryType::Symlink
                                   : EntryType::Other;
    out.entries.push_back({std::move(name), type});
  }
  ::closedir(d);
  std::sort(out.entries.begin(), out.entries.end(),
            [](const DirEntry &a, const DirEntry &b) { return a.name < b.name; });
  out.refusal = Refusal::None;
  return out;
}

} // namespace otm::io
