// Read-only access to a trace's git history through libgit2 (the product
// never runs the git binary).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "error/error.hpp"
#include "io/read_log.hpp"

namespace otm::git {

// A repository that cannot be read (not a repository, a shallow clone,
// missing objects): the input is unreadable, and the message names the fix.
class GitError : public Error {
public:
  explicit GitError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

struct Commit {
  std::string sha;                  // full hex id
  std::vector<std::string> parents; // full hex ids, in order
  std::string author_date;          // strict ISO 8601, as git's %aI
  std::string subject;              // as git's %s (first paragraph, lines joined by spaces)
  std::string body;                 // as git's %b (message after the subject paragraph)
};

class Repository {
public:
  // Opens the repository whose work tree (or bare directory) is `path`
  // itself; does not search parent directories. Throws GitError naming the
  // path when it is not a repository.
  static Repository open(const std::filesystem::path &path);
  // Another handle to the same repository, for another thread (a handle is
  // never shared between threads); it notes its reads in the same log.
  Repository reopen() const;
  const std::filesystem::path &path() const;
  ~Repository();
  Repository(Repository &&) noexcept;
  Repository &operator=(Repository &&) noexcept;

  // Full id HEAD resolves to; nullopt for a repository without commits.
  std::optional<std::string> head() const;
  // Every commit reachable from HEAD, parents before children (topological,
  // ties by commit time), oldest first. Empty when there is no HEAD.
  std::vector<Commit> commits_oldest_first() const;
  bool has_commit(const std::string &sha) const;

  // Blob id / content of `path` at `commit`; nullopt when absent there.
  std::optional<std::string> blob_id(const std::string &commit, const std::string &path) const;
  std::string blob_content(const std::string &blob_id) const;
  // Calls `fn` with the blob's bytes without copying them (valid only during
  // the call); for readers that scan thousands of blobs.
  void with_blob(const std::string &blob_id, const std::function<void(std::string_view)> &fn) const;
  std::optional<std::string> read_at(const std::string &commit, const std::string &path) const;

  // Unified diff of one path between two commits, as `git diff A..B -- path`
  // prints it (empty when unchanged). `from` may be empty for a root commit.
  // A regular file on both sides is diffed blob to blob (its two blobs
  // looked up once per handle, not the two trees); anything else (added,
  // deleted, another mode) as two trees.
  std::string diff_path(const std::string &from, const std::string &to, const std::string &path) const;
  // The same diff always through the two trees: the reference the blob path
  // is tested against (tests/unit/git_diff_test.cpp).
  std::string diff_path_via_trees(const std::string &from, const std::string &to, const std::string &path) const;

  // Notes every read from now on in `log` (null: none; it must outlive the
  // handle): HEAD, each commit and blob by id (an id fixes its content),
  // and, when a diff is printed, the configuration and the path's `diff`
  // attribute, which decide how it prints.
  void log_reads_to(io::ReadLog *log);
  // What the read a key of the log names would find now (the same value
  // when nothing it read changed), without noting it; nullopt for a key
  // this reader does not note.
  std::optional<std::string> reread(const std::string &key) const;

private:
  Repository() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace otm::git
