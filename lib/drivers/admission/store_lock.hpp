// The live store's lock: flock(2) on the store root directory itself, so
// every admission command (and any reader that wants a consistent view of
// records/ and records/index.json) is serialised without creating a file in
// the store. Writers hold it exclusively, readers shared. The kernel releases
// it when the process dies, so a killed writer never leaves the store locked.
#pragma once

#include <filesystem>

namespace otm::admission {

class StoreLock {
public:
  enum class Mode { Shared, Exclusive };
  // Blocks until the lock is held. Throws io::IoError when the root is not a
  // directory that can be opened.
  StoreLock(const std::filesystem::path &root, Mode mode);
  ~StoreLock();
  StoreLock(const StoreLock &) = delete;
  StoreLock &operator=(const StoreLock &) = delete;

private:
  int fd_ = -1;
};

} // namespace otm::admission
