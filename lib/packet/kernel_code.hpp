// The code a packet carries (spec packets.md §4): a version's change to
// kernel.py as a unified diff, or a whole reference kernel, read from the
// trace's git objects through libgit2 (never the git binary).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "git/repository.hpp"
#include "json/value.hpp"

namespace otm::packet {

// The commits of a trace grouped by version key (subject `v<N>:` lower-cased),
// oldest first; computed once per packet run.
class VersionCommits {
public:
  explicit VersionCommits(const git::Repository &repo);
  // The commits of `version`, oldest first (empty when none).
  const std::vector<git::Commit> &of(const std::string &version) const;

private:
  std::vector<std::pair<std::string, std::vector<git::Commit>>> by_version_;
};

struct KernelDiff {
  std::string base;   // commit the diff starts from ("" for a root commit)
  std::string target; // commit the diff ends at
  std::string text;   // unified diff of kernel.py, as `git diff base..target -- kernel.py`
};

// The whole version change: from the first parent of the version's FIRST
// commit to its last commit (`sha`); when that range leaves kernel.py as it
// was (a dead-end that already restored the kernel), to the version's latest
// commit that changed it. nullopt without a commit or when nothing changed.
std::optional<KernelDiff> version_diff(const git::Repository &repo, const VersionCommits &commits,
                                       const json::Value &segment);

// A reference kernel: kernel.py at the segment's commit; a snapshot
// (versions/kernel_<ver>.py) from the HEAD commit, falling back to the
// working tree only when HEAD does not track it. Empty when absent.
std::string reference_kernel(const git::Repository &repo, const std::filesystem::path &trace,
                             const json::Value &segment);

// Whether `path` (relative to the trace) exists at HEAD or in the working tree.
bool trace_file_exists(const git::Repository &repo, const std::filesystem::path &trace, const std::string &path);

} // namespace otm::packet
