#include "test_paths.hpp"

#include <cstdlib>

namespace otm::testing {

namespace {
std::string env_or(const char *name, const char *fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : std::string(fallback);
}
} // namespace

const std::string &bin_dir() {
  static const std::string dir = env_or("OTM_BIN_DIR", OTM_BIN_DIR);
  return dir;
}

const std::string &source_dir() {
  static const std::string dir(OTM_SOURCE_DIR);
  return dir;
}

std::optional<std::filesystem::path> real_store_dir() {
  std::filesystem::path dir = env_or("OTM_REAL_STORE", OTM_SHARED_DIR "/gpu-wiki");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir / "kernel_wiki" / "records", ec)) return std::nullopt;
  return dir;
}

bool real_store_required() {
  const char *set = std::getenv("OTM_REAL_STORE");
  return env_or("OTM_REQUIRE_REAL_STORE", "") == "1" || (set && *set);
}

std::string real_store_missing() {
  return "the real store is not at " + env_or("OTM_REAL_STORE", OTM_SHARED_DIR "/gpu-wiki") +
         " (no kernel_wiki/records/): set OTM_REAL_STORE to a gpu-wiki checkout to run this test";
}

std::string make_unusable() {
  for (const auto *dir : {&source_dir(), &bin_dir()})
    if (dir->find(' ') != std::string::npos)
      return "Makefile.pipeline cannot run from '" + *dir + "': make splits paths at spaces";
  return "";
}

} // namespace otm::testing
