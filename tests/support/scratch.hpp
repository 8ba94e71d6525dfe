// Scratch directories for tests: one way to make them, so every test's
// temporary files are named alike (otm-<tag>-XXXXXX under the system temp
// directory) and never collide between parallel test processes.
#pragma once

#include <filesystem>
#include <string>

namespace otm::testsupport {

// A fresh, empty directory, unique per call (mkdtemp); left behind, for a
// failing test's inputs to be looked at.
std::filesystem::path fresh_temp_dir(const std::string &tag);

// A fresh directory removed, with everything in it, when this goes out of
// scope.
class TempDir {
public:
  explicit TempDir(const std::string &tag = "test");
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

// Writes `text` to `p`, creating its directories.
void write_text(const std::filesystem::path &p, const std::string &text);

} // namespace otm::testsupport
