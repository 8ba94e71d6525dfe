#include "admission/store_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file.hpp"

namespace otm::admission {

StoreLock::StoreLock(const std::filesystem::path &root, Mode mode) {
  fd_ = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0)
    throw io::IoError(root.string() + ": cannot open the live store root (" + std::strerror(errno) +
                      "); pass the directory that holds records/ with --live or RTM_LIVE");
  int op = mode == Mode::Exclusive ? LOCK_EX : LOCK_SH;
  while (::flock(fd_, op) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw io::IoError(root.string() + ": cannot lock the live store (" + std::strerror(err) + ")");
  }
}

StoreLock::~StoreLock() {
  if (fd_ >= 0) ::close(fd_); // closing the last descriptor releases the flock
}

} // namespace otm::admission
