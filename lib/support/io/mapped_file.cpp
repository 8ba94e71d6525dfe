#include "io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace otm::io {

std::optional<MappedFile> MappedFile::open(const std::filesystem::path &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return std::nullopt;
  }
  if (st.st_size == 0) {
    ::close(fd);
    return MappedFile(nullptr, 0);
  }
  void *p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd); // the mapping keeps the file
  if (p == MAP_FAILED) return std::nullopt;
  return MappedFile(p, static_cast<std::size_t>(st.st_size));
}

MappedFile::MappedFile(MappedFile &&o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

MappedFile &MappedFile::operator=(MappedFile &&o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(data_, size_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

} // namespace otm::io
