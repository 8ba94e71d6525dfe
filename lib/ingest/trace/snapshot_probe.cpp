#include "trace/snapshot_probe.hpp"

#include <memory>

namespace otm::trace {

bool trace_file_exists(const git::Repository &repo, const TraceFiles &files, const std::string &path) {
  if (auto head = repo.head(); head && repo.blob_id(*head, path)) return true;
  return files.is_file(path);
}

std::function<bool(const std::string &)> snapshot_probe(const std::optional<std::filesystem::path> &trace,
                                                        const config::Limits &limits) {
  if (!trace) return [](const std::string &) { return false; };
  auto repo = std::make_shared<git::Repository>(git::Repository::open(*trace));
  auto files = std::make_shared<TraceFiles>(*trace, limits);
  return [repo, files](const std::string &path) { return trace_file_exists(*repo, *files, path); };
}

} // namespace otm::trace
