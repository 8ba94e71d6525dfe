// A file descriptor owned by one object: closed when it goes, moved (never
// copied) from one owner to the next. The one fd owner of lib/support/io.
#pragma once

#include <unistd.h>

#include <utility>

namespace otm::io {

struct UniqueFd {
  int fd = -1;
  UniqueFd() = default;
  explicit UniqueFd(int f) : fd(f) {}
  UniqueFd(UniqueFd &&o) noexcept : fd(o.fd) { o.fd = -1; }
  UniqueFd &operator=(UniqueFd &&o) noexcept {
    std::swap(fd, o.fd);
    return *this;
  }
  UniqueFd(const UniqueFd &) = delete;
  UniqueFd &operator=(const UniqueFd &) = delete;
  ~UniqueFd() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

} // namespace otm::io
