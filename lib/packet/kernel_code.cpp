#include "packet/kernel_code.hpp"

#include "io/file.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::packet {

namespace {

// The version prefix of a commit subject (trace-format.md §2.1).
std::optional<std::string> version_key(const std::string &subject) {
  static const text::Regex prefix(R"((?i)^(v\d+)\s*:)");
  auto m = prefix.search(subject);
  if (!m) return std::nullopt;
  return text::to_lower((*m)[1]);
}

} // namespace

VersionCommits::VersionCommits(const git::Repository &repo) {
  for (auto &c : repo.commits_oldest_first()) {
    auto key = version_key(c.subject);
    if (!key) continue;
    auto it = std::find_if(by_version_.begin(), by_version_.end(), [&](auto &p) { return p.first == *key; });
    if (it == by_version_.end()) {
      by_version_.emplace_back(*key, std::vector<git::Commit>{});
      it = by_version_.end() - 1;
    }
    it->second.push_back(std::move(c));
  }
}

const std::vector<git::Commit> &VersionCommits::of(const std::string &version) const {
  static const std::vector<git::Commit> none;
  for (const auto &[key, commits] : by_version_)
    if (key == version) return commits;
  return none;
}

std::optional<KernelDiff> version_diff(const git::Repository &repo, const VersionCommits &commits,
                                       const json::Value &segment) {
  const auto *sha = segment.get("sha").as_string();
  if (!sha || sha->empty()) return std::nullopt;
  const auto &mine = commits.of(segment.string_or("version"));
  // The base: the parent of the version's first commit (a re-committed
  // version shows its whole change, not only its amendment).
  std::string base = segment.string_or("parent");
  std::vector<std::string> targets{*sha};
  auto last = std::find_if(mine.begin(), mine.end(), [&](auto &c) { return c.sha == *sha; });
  if (last != mine.end()) {
    base = mine.front().parents.empty() ? "" : mine.front().parents.front();
    for (auto it = std::make_reverse_iterator(last); it != mine.rend(); ++it) targets.push_back(it->sha);
  }
  auto base_blob = base.empty() ? std::nullopt : repo.blob_id(base, "kernel.py");
  for (const auto &target : targets) {
    if (repo.blob_id(target, "kernel.py") == base_blob) continue;
    KernelDiff d{base, target, repo.diff_path(base, target, "kernel.py")};
    if (text::strip(d.text).empty()) continue;
    return d;
  }
  return std::nullopt;
}

bool trace_file_exists(const git::Repository &repo, const std::filesystem::path &trace, const std::string &path) {
  if (auto head = repo.head(); head && repo.blob_id(*head, path)) return true;
  return io::is_regular_file(trace / path);
}

std::string reference_kernel(const git::Repository &repo, const std::filesystem::path &trace,
                             const json::Value &segment) {
  std::string file = segment.string_or("kernel_file", "kernel.py");
  const auto *sha = segment.get("sha").as_string();
  if (file == "kernel.py" && sha && !sha->empty()) return repo.read_at(*sha, file).value_or("");
  if (auto head = repo.head())
    if (auto content = repo.read_at(*head, file)) return *content;
  if (!io::is_regular_file(trace / file)) return {};
  return text::replace_invalid_utf8(io::read_file(trace / file));
}

} // namespace otm::packet
