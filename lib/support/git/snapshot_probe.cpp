#include "git/snapshot_probe.hpp"

#include <memory>

#include "io/file.hpp"

namespace otm::git {

bool trace_file_exists(const Repository &repo, const std::filesystem::path &trace, const std::string &path) {
  if (auto head = repo.head(); head && repo.blob_id(*head, path)) return true;
  return io::is_regular_file(trace / path);
}

std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace) {
  if (!trace) return [](const std::string &) { return false; };
  auto repo = std::make_shared<Repository>(Repository::open(*trace));
  auto root = *trace;
  return [repo, root](const std::string &path) { return trace_file_exists(*repo, root, path); };
}

} // namespace otm::git
