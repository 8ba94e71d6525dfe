// A whole regular file mapped read-only (mmap), for readers that look up a
// few lines of a large derived file without reading all of it.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace otm::io {

class MappedFile {
public:
  // The file at `path`, or nullopt when it is missing, not a regular file or
  // cannot be mapped (the caller then rebuilds or reads it another way).
  static std::optional<MappedFile> open(const std::filesystem::path &path);
  MappedFile(MappedFile &&other) noexcept;
  MappedFile &operator=(MappedFile &&other) noexcept;
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;
  ~MappedFile();

  std::string_view bytes() const { return {static_cast<const char *>(data_), size_}; }

private:
  MappedFile(void *data, std::size_t size) : data_(data), size_(size) {}
  void *data_ = nullptr;
  std::size_t size_ = 0;
};

} // namespace otm::io
