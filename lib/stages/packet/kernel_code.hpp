// The code a packet carries (spec packets.md §4): a version's change to
// The trace's kernel file (TraceMeta::kernel_file) as a unified diff, or a whole reference kernel, read from the
// trace's git objects through libgit2 (never the git binary).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "code/source_lexer.hpp"
#include "git/repository.hpp"
#include "trace/trace_files.hpp"
#include "workspace/segment.hpp"
#include "json/value.hpp"

namespace otm::packet {

// The commits of a trace grouped by version key (subject `v<N>:` lower-cased),
// oldest first; computed once per packet run.
class VersionCommits {
public:
  explicit VersionCommits(const git::Repository &repo);
  // The commits of `version`, oldest first (empty when none).
  const std::vector<git::Commit> &of(const std::string &version) const;
  // The version a commit belongs to (its subject's `v<N>:`), "" when none.
  std::string version_of(const std::string &sha) const;

private:
  std::vector<std::pair<std::string, std::vector<git::Commit>>> by_version_;
  std::unordered_map<std::string, std::size_t> version_index_; // key -> by_version_ position
  std::unordered_map<std::string, std::string> version_of_sha_;
};

// Which range a packet's diff holds (docs/differences.md, "Packets").
enum class DiffRange {
  MeasuredAgainst, // strategy: from the version its gain is measured against to its last commit
  Attempt,         // anti-strategy: to the version's latest commit that changes executable code
  VersionChange,   // from the parent of the version's first commit to its last commit (or latest change)
};

// A diff's text with its lines lexed (code::lex_diff), which point into it:
// lexed once, for the executable-line test and then for the scrubber.
struct LexedDiff {
  std::string text;
  std::vector<code::DiffLine> lines;
  explicit LexedDiff(std::string t) : text(std::move(t)), lines(code::lex_diff(text)) {}
  LexedDiff(const LexedDiff &) = delete; // `lines` point into this `text`
  LexedDiff &operator=(const LexedDiff &) = delete;
};

struct KernelDiff {
  std::string base;   // commit the diff starts from ("" for a root commit)
  std::string target; // commit the diff ends at
  std::string text;   // unified diff of the kernel file, as `git diff base..target -- <file>`; may be empty
  DiffRange range = DiffRange::VersionChange;
  // `text` changes a line that runs (code/inert_changes.hpp, judged against
  // the kernel file at `target`): not only comments, docstrings, version stamps,
  // assignments nothing reads or new functions nothing calls.
  bool executable = false;
  std::shared_ptr<const LexedDiff> lexed;   // `text`, lexed
  std::shared_ptr<const std::string> after; // the kernel file at `target` ("" when absent)
};

// kernel-file diffs already computed in this run, by (base, target): a pair
// several segments share (a version's dead end and its pitfall, a strategy
// and the segment measured against it) is diffed once. Safe to share
// between threads.
class DiffCache {
public:
  struct Entry {
    std::shared_ptr<const LexedDiff> lexed;
    std::shared_ptr<const std::string> after;
    bool executable = false;
  };
  std::optional<Entry> find(const std::string &base, const std::string &target) const;
  void put(const std::string &base, const std::string &target, Entry e);

private:
  mutable std::mutex m_;
  std::map<std::pair<std::string, std::string>, Entry> entries_;
};

// `kernel_file` (TraceMeta::kernel_file) from `base` ("" for none) to
// `target`, through the cache (one cache per trace: one kernel file).
KernelDiff diff_between(const git::Repository &repo, const std::string &kernel_file, const std::string &base,
                        const std::string &target, DiffRange range, DiffCache *cache = nullptr);

// A version's own change: from the code it was made on to its last commit;
// nullopt when the version has no commit. The code it was made on is
// `made_on` (the last kept step's commit before it) when known, else the
// parent of its first commit: in a trace whose reverted attempts leave
// their code committed, that parent is a failed attempt, and a kept step
// that only restores the best code and edits a comment would read as
// changing what the attempt changed.
std::optional<KernelDiff> own_change(const git::Repository &repo, const std::string &kernel_file,
                                     const VersionCommits &commits, const std::string &version,
                                     DiffCache *cache = nullptr, const std::string &made_on = {});

// The change a record's code shows, nullopt without a commit.
//  - A strategy whose segment names `measured_against.sha` (the ladder's
//    best-so-far before it): that commit to the version's last commit, even
//    when the kernel file did not change (the range is still recorded).
//  - Otherwise the whole version change, from the first parent of the
//    version's FIRST commit (for an anti-strategy: from `made_on`, the
//    last kept step's commit, the code the attempt was made on, when
//    given, else from the best-so-far `measured_against.sha`; a kept step
//    that set no new best lies between the two, and its lines are not the
//    attempt's): for an anti-strategy, to the version's latest
//    commit whose code differs from that base in a line that runs (the
//    failed attempt, never a restoration that differs only by a constant
//    nothing reads), else to the latest commit that
//    changed the kernel file at all; for other segments, to the last commit, or
//    when that leaves the kernel file as it was, to the latest that changed it.
std::optional<KernelDiff> version_diff(const git::Repository &repo, const std::string &kernel_file,
                                       const VersionCommits &commits, const workspace::Segment &segment,
                                       DiffCache *cache = nullptr, const std::string &made_on = {});

// Where a reference kernel's code is read: the kernel file at the segment's
// commit, the code the run measured, whenever that commit holds it (a
// milestone's versions/kernel_<ver>.py snapshot only marks the milestone:
// round 12 found a snapshot that was the version before's code, byte for
// byte); else the snapshot from the HEAD commit, falling back to the
// working tree only when HEAD does not track it. Shared by the packet
// stage and otm-explain.
struct ReferenceSource {
  std::string path;   // the kernel file or the snapshot's path
  std::string commit; // the commit it is read at; empty for the working tree
};
ReferenceSource reference_source(const git::Repository &repo, const std::string &kernel_file,
                                 const workspace::Segment &segment);

// A reference kernel's code, read from reference_source. Empty when absent.
// The working tree is read under the trace reading policy.
std::string reference_kernel(const git::Repository &repo, const std::string &kernel_file,
                             const trace::TraceFiles &files, const workspace::Segment &segment);

} // namespace otm::packet
