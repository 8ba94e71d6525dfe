// File system access with the guarantees the pipeline relies on: reads name
// the file in their errors; writes are atomic (temp file in the same
// directory, then rename), so a failed or killed stage never leaves a
// half-written output that a later stage would trust. How hard a write is
// flushed to the disk depends on what the file is (FileClass; the policy and
// what survives a crash or a power loss: docs/durability.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error/error.hpp"

namespace otm::io {

// A file that cannot be read or written; the message names it.
class IoError : public Error {
public:
  explicit IoError(const std::string &message) : Error(ErrorKind::Io, message) {}
};

// A file a user named (a configuration override, a denylist, a schema, a
// record): it must be a regular file (a FIFO or a device is refused at once,
// never waited on) of at most `max_bytes`. Throws IoError naming the file.
inline constexpr std::size_t kMaxNamedFileBytes = std::size_t(1) << 30;
std::string read_file(const std::filesystem::path &path, std::size_t max_bytes = kMaxNamedFileBytes);

// Bounds on a stage's input stream (a JSONL file or pipe, stdin), so
// /dev/zero or a runaway pipe ends in a message instead of an exhausted
// memory (data/otm-config.json `limits`). Every reader of such a stream goes
// through read_input / read_stdin, which enforce them, and must pass them:
// there is no default, so a reader cannot be added without its bounds
// (config::Limits::input_bounds() makes them from the configuration).
struct InputBounds {
  std::size_t max_bytes;      // limits.max_input_bytes
  std::size_t max_line_bytes; // limits.max_line_bytes
};
// Reads all of standard input, within `bounds`.
std::string read_stdin(const InputBounds &bounds);
// "-" reads stdin, anything else the file, which may also be a pipe (a
// directory or a device is refused); within `bounds`.
std::string read_input(const std::string &path_or_dash, const InputBounds &bounds);

// What a file is, which decides how it is written (docs/durability.md).
enum class FileClass {
  // Reproducible from the trace and the configuration: the workspace
  // (work/, packets/, stamps), reports, the staging README, generated
  // benchmark stores. Atomic, not flushed per file: a stage that wrote
  // scratch files flushes them once, at its end (sync_file_system).
  Scratch,
  // Staged records and the staging index: an agent's work, reviewed by a
  // person; not reproducible once written. Atomic and flushed.
  Staging,
  // The live store. Atomic and flushed.
  Live,
};

// Whether writes of `cls` are flushed (file before the rename, directory
// after it) before the write returns.
bool flushed_per_file(FileClass cls);

// Atomically replaces `path` with `content`, creating parent directories.
// Staging and Live files are fsynced before the rename and their directory
// after it, so the new content survives a power loss once this returns.
// The default is the durable class: a caller must say a file is scratch.
void write_file_atomic(const std::filesystem::path &path, std::string_view content, FileClass cls = FileClass::Live);

// write_file_atomic unless `path` already holds exactly `content` (then
// nothing is written and its time stamps stay). For outputs rebuilt in bulk
// whose staleness is not judged by their own time stamps (packets/): a
// rerun that changes nothing creates no inode, and ext4 then has none of
// the thousands of freed ones to step over on the next run.
// Returns whether it wrote.
bool write_file_if_changed(const std::filesystem::path &path, std::string_view content,
                           FileClass cls = FileClass::Live);

// Like write_file_atomic, but never replaces an existing file: returns false
// (writing nothing) when `path` already exists.
bool write_file_atomic_new(const std::filesystem::path &path, std::string_view content,
                           FileClass cls = FileClass::Live);

// Files written all or nothing, for a stage whose outputs are one set (a
// stage's packets, a draft run's records and ledger): add() writes each to a
// temporary sibling, flushed as its class says; commit() renames them all
// into place, which needs no space, so a full disk or a failure half-way
// through leaves the old set, never part of a new one. An uncommitted batch
// removes its temporaries when destroyed.
class WriteBatch {
public:
  WriteBatch() = default;
  ~WriteBatch();
  WriteBatch(const WriteBatch &) = delete;
  WriteBatch &operator=(const WriteBatch &) = delete;
  void add(const std::filesystem::path &path, std::string_view content, FileClass cls = FileClass::Live);
  // add() unless `path` already holds exactly `content` (as
  // write_file_if_changed); returns whether it was added.
  bool add_if_changed(const std::filesystem::path &path, std::string_view content, FileClass cls = FileClass::Live);
  void commit();
  std::size_t size() const { return pending_.size(); }

private:
  std::vector<std::pair<std::string, std::filesystem::path>> pending_; // temporary, target
  bool durable_ = false;
};

// The end of a stage that wrote scratch files: one flush (syncfs) of the
// file system holding `path`, so everything the stage wrote survives a
// power loss once it reports success. One call instead of a flush per file.
void sync_file_system(const std::filesystem::path &path);

// fsync of a directory, making renames and creations inside it durable.
void fsync_directory(const std::filesystem::path &dir);

// Writes to stdout for "-", atomically to the file otherwise.
void write_output(const std::string &path_or_dash, std::string_view content, FileClass cls = FileClass::Live);

// Writes all of `content` to `fd` (retrying short writes and EINTR); throws
// IoError naming `path`.
void write_all(int fd, std::string_view content, const std::filesystem::path &path);
// The whole of `name` (relative to directory descriptor `dir_fd`, or to
// the working directory with AT_FDCWD; a final symbolic link is not
// followed), or nullopt when it is not a regular file of `expected` bytes
// (SIZE_MAX: any size) or cannot be read whole: a question about what is on
// disk, not an error.
std::optional<std::string> read_regular_at(int dir_fd, const char *name, std::size_t expected = SIZE_MAX);
bool is_regular_file(const std::filesystem::path &path);
bool is_directory(const std::filesystem::path &path);

// Immediate entries of a directory, sorted by name (code-point order); empty
// when the directory is missing.
std::vector<std::filesystem::path> list_dir(const std::filesystem::path &dir);

// "~" and "~/..." expanded from $HOME.
std::filesystem::path expand_user(std::string_view path);

} // namespace otm::io
