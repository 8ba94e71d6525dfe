#include "scratch.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace otm::testsupport {

namespace fs = std::filesystem;

fs::path fresh_temp_dir(const std::string &tag) {
  std::string tmpl = (fs::temp_directory_path() / ("otm-" + tag + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
  return tmpl;
}

TempDir::TempDir(const std::string &tag) : path_(fresh_temp_dir(tag)) {}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_text(const fs::path &p, const std::string &text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
}

} // namespace otm::testsupport
