#include "io/directory_publish.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>

#include "io/file.hpp"

namespace otm::io {
namespace fs = std::filesystem;

namespace {

std::string why() { return std::strerror(errno); }

// "<dir>.publish-": the prefix of a staging sibling, before "<pid>-XXXXXX".
std::string staging_prefix(const fs::path &dir) { return "." + dir.filename().string() + ".publish-"; }

// The process's umask, without changing it (umask(2) cannot be read
// without setting it, which would race with another thread's creations).
std::optional<mode_t> read_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("Umask:")) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return std::nullopt;
}
mode_t process_umask() { return read_umask().value_or(022); }

// Whether a file created with mode 0644 gets 0644: then no fchmod per file
// (6,870 system calls for the packets). Read once: otm never changes its
// umask. Unknown (no /proc): every file is fchmod-ed.
bool creation_keeps_0644() {
  static const bool keeps = [] {
    auto m = read_umask();
    return m && (*m & 0644) == 0;
  }();
  return keeps;
}

void write_at(int dir_fd, const std::string &name, std::string_view content, const fs::path &shown) {
  int fd = ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) throw IoError(shown.string() + ": cannot create (" + why() + ")");
  try {
    write_all(fd, content, shown);
    // As write_file_atomic's files: 0644 whatever the umask.
    if (!creation_keeps_0644() && ::fchmod(fd, 0644) != 0)
      throw IoError(shown.string() + ": cannot set its mode (" + why() + ")");
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) throw IoError(shown.string() + ": write failed (" + why() + ")");
}

// Removes staging siblings left by a publish whose process is gone (killed
// half-way); a live process's are left alone.
void remove_leftovers(const fs::path &parent, const std::string &prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

} // namespace

DirectoryPublish::DirectoryPublish(fs::path dir) : dir_(std::move(dir)) {
  dir_ = dir_.lexically_normal();
  if (dir_.filename().empty()) dir_ = dir_.parent_path();
  std::error_code ec;
  if (fs::is_symlink(dir_, ec)) {
    fs::path target = fs::canonical(dir_, ec);
    if (!ec) dir_ = target;
  }
  if (dir_.empty() || dir_.filename() == "." || dir_.filename() == "..")
    throw IoError(dir_.string() + ": cannot publish a directory by this name");
  fs::path parent = dir_.parent_path().empty() ? fs::path(".") : dir_.parent_path();
  remove_leftovers(parent, staging_prefix(dir_));
  current_fd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (current_fd_ < 0) {
    if (errno == ENOENT) return;
    throw IoError(dir_.string() + ": cannot open directory (" + why() + ")");
  }
  int list_fd = ::dup(current_fd_);
  DIR *d = list_fd < 0 ? nullptr : ::fdopendir(list_fd);
  if (!d) {
    if (list_fd >= 0) ::close(list_fd);
    throw IoError(dir_.string() + ": cannot list directory (" + why() + ")");
  }
  while (const dirent *e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    bool regular = e->d_type == DT_REG;
    if (e->d_type == DT_UNKNOWN) {
      struct stat st {};
      regular = ::fstatat(current_fd_, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
    }
    types_.emplace(name, regular);
    current_.push_back(std::move(name));
  }
  ::closedir(d);
  std::sort(current_.begin(), current_.end());
}

DirectoryPublish::~DirectoryPublish() {
  if (current_fd_ >= 0) ::close(current_fd_);
  if (staging_fd_ >= 0) ::close(staging_fd_);
  if (!staging_.empty() && !published_) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
}

void DirectoryPublish::stage() {
  if (staging_fd_ >= 0) return;
  fs::path parent = dir_.parent_path().empty() ? fs::path(".") : dir_.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw IoError(parent.string() + ": cannot create directory (" + ec.message() + ")");
  std::string tmpl = (parent / (staging_prefix(dir_) + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw IoError(dir_.string() + ": cannot create its new set (" + why() + ")");
  staging_ = tmpl;
  // The new set keeps the current directory's mode (a fresh one gets the
  // mode create_directories would give it).
  struct stat st {};
  mode_t mode = current_fd_ >= 0 && ::fstat(current_fd_, &st) == 0 ? st.st_mode & 07777 : 0777 & ~process_umask();
  staging_fd_ = ::open(staging_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (staging_fd_ < 0 || ::fchmod(staging_fd_, mode) != 0)
    throw IoError(staging_.string() + ": cannot open the new set (" + why() + ")");
  for (const auto &name : pending_) place(name);
  pending_.clear();
}

// Links current file `name` into the staging directory (copies it where
// the file system has no hard links), or queues it until that exists.
void DirectoryPublish::place(const std::string &name) {
  if (staging_fd_ < 0) {
    pending_.push_back(name);
    return;
  }
  if (::linkat(current_fd_, name.c_str(), staging_fd_, name.c_str(), 0) == 0) return;
  int err = errno;
  if (err != EXDEV && err != EPERM && err != EMLINK && err != ENOTSUP && err != EOPNOTSUPP)
    throw IoError((dir_ / name).string() + ": cannot carry into the new set (" + std::strerror(err) + ")");
  auto bytes = read_regular_at(current_fd_, name.c_str(), SIZE_MAX);
  if (!bytes) throw IoError((dir_ / name).string() + ": cannot read to carry into the new set");
  write_at(staging_fd_, name, *bytes, dir_ / name);
}

bool DirectoryPublish::add(const std::string &name, std::string_view content) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos)
    throw IoError(dir_.string() + ": '" + name + "' is not a file name");
  {
    std::lock_guard lock(mu_);
    if (published_) throw IoError((dir_ / name).string() + ": added after the set was published");
    // Taken now (as carried over), so the same name from another thread is
    // refused while this one is compared and written.
    if (!taken_.emplace(name, false).second) throw IoError((dir_ / name).string() + ": given twice in one set");
  }
  auto type = types_.find(name);
  if (type != types_.end() && type->second) {
    auto have = read_regular_at(current_fd_, name.c_str(), content.size());
    if (have && *have == content) {
      std::lock_guard lock(mu_);
      place(name);
      return false;
    }
  }
  int fd;
  {
    std::lock_guard lock(mu_);
    stage();
    taken_[name] = true;
    written_ = true;
    fd = staging_fd_;
  }
  write_at(fd, name, content, dir_ / name);
  return true;
}

void DirectoryPublish::keep(const std::string &name) {
  auto type = types_.find(name);
  if (type == types_.end()) throw IoError((dir_ / name).string() + ": no such entry to keep");
  std::lock_guard lock(mu_);
  if (!taken_.emplace(name, false).second) throw IoError((dir_ / name).string() + ": given twice in one set");
  if (type->second)
    place(name);
  else
    moved_.push_back(name);
}

bool DirectoryPublish::given(const std::string &name) const {
  std::lock_guard lock(mu_);
  return taken_.count(name) > 0;
}

bool DirectoryPublish::changed() const {
  if (written_ || current_fd_ < 0) return true;
  for (const auto &name : current_)
    if (!taken_.count(name)) return true;
  return false;
}

bool DirectoryPublish::commit() {
  if (published_ || !changed()) return false;
  stage();
  // Entries that cannot be linked (directories, links, devices) move in
  // last, just before the exchange.
  for (std::size_t i = 0; i < moved_.size(); ++i) {
    if (::renameat(current_fd_, moved_[i].c_str(), staging_fd_, moved_[i].c_str()) == 0) continue;
    int err = errno;
    for (std::size_t j = 0; j < i; ++j) ::renameat(staging_fd_, moved_[j].c_str(), current_fd_, moved_[j].c_str());
    throw IoError((dir_ / moved_[i]).string() + ": cannot carry into the new set (" + std::strerror(err) + ")");
  }
  ::close(staging_fd_);
  staging_fd_ = -1;
  if (current_fd_ < 0) {
    if (::rename(staging_.c_str(), dir_.c_str()) != 0)
      throw IoError(dir_.string() + ": cannot publish (" + why() + ")");
    published_ = true;
    return true;
  }
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
    int err = errno;
    if (err != EINVAL && err != ENOSYS && err != ENOTSUP)
      throw IoError(dir_.string() + ": cannot publish (" + std::strerror(err) + ")");
    // A file system without the exchange: two renames, with a moment
    // between them when the directory is missing (never a mixture).
    fs::path old = staging_.string() + ".old";
    if (::rename(dir_.c_str(), old.c_str()) != 0) throw IoError(dir_.string() + ": cannot publish (" + why() + ")");
    if (::rename(staging_.c_str(), dir_.c_str()) != 0) {
      err = errno;
      ::rename(old.c_str(), dir_.c_str());
      throw IoError(dir_.string() + ": cannot publish (" + std::strerror(err) + ")");
    }
    staging_ = old;
  }
  published_ = true;
  // staging_ now names the old set; its files that the new set links live on.
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
  return true;
}

} // namespace otm::io
