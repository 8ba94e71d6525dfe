#include "packet/kernel_code.hpp"

#include "code/inert_changes.hpp"
#include "code/source_lexer.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/version_key.hpp"

namespace otm::packet {

VersionCommits::VersionCommits(const git::Repository &repo) {
  for (auto &c : repo.commits_oldest_first()) {
    auto prefix = trace::subject_version_prefix(c.subject);
    if (!prefix) continue;
    auto key = text::to_lower(*prefix);
    auto [it, fresh] = version_index_.emplace(key, by_version_.size());
    if (fresh) by_version_.emplace_back(key, std::vector<git::Commit>{});
    version_of_sha_.emplace(c.sha, key);
    by_version_[it->second].second.push_back(std::move(c));
  }
}

const std::vector<git::Commit> &VersionCommits::of(const std::string &version) const {
  static const std::vector<git::Commit> none;
  auto it = version_index_.find(version);
  return it == version_index_.end() ? none : by_version_[it->second].second;
}

std::string VersionCommits::version_of(const std::string &sha) const {
  auto it = version_of_sha_.find(sha);
  return it == version_of_sha_.end() ? std::string() : it->second;
}

std::optional<DiffCache::Entry> DiffCache::find(const std::string &base, const std::string &target) const {
  std::lock_guard<std::mutex> lock(m_);
  auto it = entries_.find({base, target});
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void DiffCache::put(const std::string &base, const std::string &target, Entry e) {
  std::lock_guard<std::mutex> lock(m_);
  entries_.emplace(std::make_pair(base, target), std::move(e));
}

KernelDiff diff_between(const git::Repository &repo, const std::string &kernel_file, const std::string &base,
                        const std::string &target, DiffRange range, DiffCache *cache) {
  KernelDiff d{base, target, {}, range, false, nullptr, nullptr};
  if (auto hit = cache ? cache->find(base, target) : std::nullopt) {
    d.lexed = std::move(hit->lexed);
    d.after = std::move(hit->after);
    d.text = d.lexed->text;
    d.executable = hit->executable;
    return d;
  }
  auto base_blob = base.empty() ? std::nullopt : repo.blob_id(base, kernel_file);
  if (repo.blob_id(target, kernel_file) != base_blob) d.text = repo.diff_path(base, target, kernel_file);
  if (text::strip(d.text).empty()) d.text.clear();
  d.lexed = std::make_shared<const LexedDiff>(d.text);
  d.after = std::make_shared<const std::string>(d.text.empty() ? "" : repo.read_at(target, kernel_file).value_or(""));
  d.executable =
      code::count_changes(d.lexed->lines).changes_code() &&
      code::inert_changes(d.lexed->lines, d.after->empty() ? std::nullopt : std::optional<std::string_view>(*d.after))
              .running > 0;
  if (cache) cache->put(base, target, {d.lexed, d.after, d.executable});
  return d;
}

std::optional<KernelDiff> own_change(const git::Repository &repo, const std::string &kernel_file,
                                     const VersionCommits &commits, const std::string &version, DiffCache *cache,
                                     const std::string &made_on) {
  const auto &mine = commits.of(version);
  if (mine.empty()) return std::nullopt;
  std::string base = !made_on.empty() ? made_on : mine.front().parents.empty() ? "" : mine.front().parents.front();
  return diff_between(repo, kernel_file, base, mine.back().sha, DiffRange::VersionChange, cache);
}

std::optional<KernelDiff> version_diff(const git::Repository &repo, const std::string &kernel_file,
                                       const VersionCommits &commits, const workspace::Segment &segment,
                                       DiffCache *cache, const std::string &made_on) {
  const auto &sha = segment.sha;
  if (!sha || sha->empty()) return std::nullopt;
  auto diff = [&](const std::string &base, const std::string &target, DiffRange range) {
    return diff_between(repo, kernel_file, base, target, range, cache);
  };
  bool strategy = segment.record_type == "strategy";
  const auto best = segment.measured_from().sha;
  if (strategy && best && !best->empty()) return diff(*best, *sha, DiffRange::MeasuredAgainst);

  const auto &mine = commits.of(segment.version);
  // The base: the parent of the version's first commit (a re-committed
  // version shows its whole change, not only its amendment); for a
  // failed attempt, the last kept step's code it was made on (else the
  // best-so-far's), so neither a reverted neighbour's attempt left in the
  // git parent nor a kept step since the best-so-far shows as this one's.
  std::string base = segment.parent.value_or("");
  bool anti = segment.record_type == "anti-strategy";
  const std::string *tried_on = anti && !made_on.empty() ? &made_on : best && !best->empty() ? &*best : nullptr;
  bool from_best = !strategy && tried_on;
  std::vector<std::string> targets{*sha};
  auto last = std::find_if(mine.begin(), mine.end(), [&](auto &c) { return c.sha == *sha; });
  if (last != mine.end()) {
    base = mine.front().parents.empty() ? "" : mine.front().parents.front();
    if (from_best) base = *tried_on;
    for (auto it = std::make_reverse_iterator(last); it != mine.rend(); ++it) targets.push_back(it->sha);
  }
  std::optional<KernelDiff> any;
  for (const auto &target : targets) {
    auto d = diff(base, target, anti ? DiffRange::Attempt : DiffRange::VersionChange);
    if (d.executable || (!anti && !d.text.empty())) return d;
    if (!any && !d.text.empty()) any = std::move(d);
  }
  if (any) return any;
  return diff(base, *sha, anti ? DiffRange::Attempt : DiffRange::VersionChange);
}

ReferenceSource reference_source(const git::Repository &repo, const std::string &kernel_file,
                                 const workspace::Segment &segment) {
  const auto &sha = segment.sha;
  if (sha && !sha->empty() && repo.blob_id(*sha, kernel_file)) return {kernel_file, *sha};
  // Partition names every reference kernel's file; a segment without one
  // reads the trace's kernel file.
  std::string file = segment.kernel_file.empty() ? kernel_file : segment.kernel_file;
  if (auto head = repo.head(); head && repo.blob_id(*head, file)) return {file, *head};
  return {file, ""};
}

std::string reference_kernel(const git::Repository &repo, const std::string &kernel_file,
                             const trace::TraceFiles &files, const workspace::Segment &segment) {
  auto source = reference_source(repo, kernel_file, segment);
  if (!source.commit.empty()) return repo.read_at(source.commit, source.path).value_or("");
  return files.text(source.path).value_or("");
}

} // namespace otm::packet
