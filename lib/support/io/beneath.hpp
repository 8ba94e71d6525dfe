// Reading untrusted directory trees (a trace's working tree, a store's
// records/): every path is resolved beneath one root, a symbolic link is
// followed only while it stays beneath it, only regular files are read, and
// only up to a size bound. A FIFO or a device never blocks the reader (opened
// non-blocking, refused by fstat). A file that cannot be read this way is a
// value with a kind and a reason, never an exception: the caller decides
// whether it is a skip to list or a refusal (docs/security.md).
//
// Resolution uses openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) where the
// kernel has it; elsewhere a component-by-component walk with O_NOFOLLOW
// that resolves each symbolic link itself (readlinkat) against the same
// rule, so both give the same answers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/unique_fd.hpp"

namespace otm::io {

enum class Refusal {
  None,
  Missing,     // no such file (or a dangling link)
  OutsideRoot, // an absolute link, or a link or ".." leading out of the root
  NotRegular,  // a directory, FIFO, socket or device where a file was wanted
  NotDirectory,
  TooLarge,   // larger than the bound
  Unreadable, // permission, I/O error, too many links
};

struct FileRead {
  Refusal refusal = Refusal::None;
  std::string content; // when refusal == None
  std::string why;     // the reason when refused ("a FIFO, not a regular file",
                       // "a symbolic link or path leading out of the trace")
  explicit operator bool() const { return refusal == Refusal::None; }
};

// A regular file opened beneath the root, to be read in parts (a file too
// large to hold, read a window at a time and then again where needed). It
// stays the file that was opened: a writer that replaces it by a rename
// does not change what it reads.
class OpenFile {
public:
  OpenFile() = default;
  ~OpenFile();
  OpenFile(OpenFile &&) noexcept;
  OpenFile &operator=(OpenFile &&) noexcept;
  OpenFile(const OpenFile &) = delete;
  OpenFile &operator=(const OpenFile &) = delete;

  Refusal refusal = Refusal::Unreadable;
  std::string why;       // the reason when refused
  std::size_t size = 0;  // its size when opened
  std::size_t bound = 0; // the size bound it was opened under
  explicit operator bool() const { return refusal == Refusal::None; }

  // Reads up to `n` bytes from `offset` into `buf` (one read: fewer
  // before the end only when the kernel gives fewer) and returns how many
  // (0 at the end). A read error, or bytes past `bound` (the file grew), is
  // the refusal it becomes (Unreadable, TooLarge, with its reason in `why`)
  // and reads 0.
  std::size_t read_at(std::size_t offset, char *buf, std::size_t n);

private:
  friend class Beneath;
  UniqueFd fd_;
};

enum class EntryType { Regular, Directory, Symlink, Other };
struct DirEntry {
  std::string name;
  EntryType type;
};

struct DirList {
  Refusal refusal = Refusal::None;
  std::vector<DirEntry> entries; // sorted by name (byte order); no "." or ".."
  std::string why;
  explicit operator bool() const { return refusal == Refusal::None; }
};

class Beneath {
public:
  // How paths are resolved: openat2 when the kernel has it (Auto), or
  // always the portable walk (for tests of the fallback).
  enum class Method { Auto, Walk };

  // Opens `root` (which the caller trusts: it may itself be a link). Throws
  // IoError naming it when it is not a readable directory. `what` names the
  // root in reasons ("the trace", "the store").
  explicit Beneath(const std::filesystem::path &root, std::string what = "the root", Method method = Method::Auto);
  ~Beneath();
  Beneath(Beneath &&) noexcept;
  Beneath &operator=(Beneath &&) noexcept;
  Beneath(const Beneath &) = delete;
  Beneath &operator=(const Beneath &) = delete;

  const std::filesystem::path &root() const { return root_; }

  // The regular file `rel` ("memory/v3.json"), at most `max_bytes` long.
  FileRead read(const std::string &rel, std::size_t max_bytes) const;
  // The same file opened, not read: the same refusals, by the same checks.
  OpenFile open(const std::string &rel, std::size_t max_bytes) const;
  // The directory `rel` ("" = the root itself).
  DirList list(const std::string &rel) const;
  // What `rel` resolves to without reading it: None for a regular file,
  // NotRegular for a directory etc.; Missing, OutsideRoot, ...
  Refusal probe_file(const std::string &rel) const;
  bool is_directory(const std::string &rel) const;

  // Whether openat2 is in use (false when the kernel lacks it, or Walk).
  bool uses_openat2() const { return openat2_; }

private:
  // An open descriptor for `rel` (O_PATH when `path_only`), or the refusal.
  int open_beneath(const std::string &rel, int flags, Refusal &refusal) const;
  int walk(const std::string &rel, int flags, Refusal &refusal) const;
  std::filesystem::path root_;
  std::string what_;
  UniqueFd root_fd_;
  bool openat2_ = false;
};

} // namespace otm::io
