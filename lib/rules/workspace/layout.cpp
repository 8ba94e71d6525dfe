#include "workspace/layout.hpp"

#include "config/settings.hpp"
#include "io/file.hpp"

namespace otm::workspace {

fs::path records_dir(const fs::path &store_root) { return store_root / kRecordsDirName; }

fs::path index_file(const fs::path &store_root) { return records_dir(store_root) / kIndexFileName; }

std::string store_relpath(const fs::path &below_records) {
  return (fs::path(kRecordsDirName) / below_records).generic_string();
}

std::string Workspace::packet_relpath(const fs::path &packet_file) {
  return std::string(kPacketsDirName) + "/" + packet_file.filename().string();
}

fs::path default_workspace(const std::string &slug) {
  return fs::path("/tmp/opt-trace-mining") / (slug.empty() ? std::string("unset") : slug);
}

fs::path default_store() { return fs::absolute(fs::path("kernel_wiki") / "staging"); }

fs::path resolve_dir(const fs::path &dir) {
  fs::path out = fs::absolute(io::expand_user(dir.string())).lexically_normal();
  // "dir/" normalises to "dir/" with an empty filename; drop it so the base
  // name is the directory's name.
  if (out.has_relative_path() && out.filename().empty()) out = out.parent_path();
  return out;
}

std::optional<fs::path> configured_store(const config::Settings &settings) {
  auto st = settings.get(config::Setting::Store);
  if (!st) return std::nullopt;
  return resolve_dir(*st);
}

StagingStore staging_store(const config::Settings &settings) {
  return StagingStore{configured_store(settings).value_or(default_store())};
}

std::optional<fs::path> live_root(const config::Settings &settings) {
  auto live = settings.get(config::Setting::Live);
  if (!live) return std::nullopt;
  return io::expand_user(*live);
}

} // namespace otm::workspace
