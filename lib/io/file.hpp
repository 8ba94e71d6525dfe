// File system access with the guarantees the pipeline relies on: reads name
// the file in their errors; writes are atomic (temp file in the same
// directory, fsync, rename), so a failed or killed stage never leaves a
// half-written output that a later stage would trust.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace otm::io {

class IoError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

std::string read_file(const std::filesystem::path &path);
// Reads all of standard input.
std::string read_stdin();
// "-" reads stdin, anything else the file.
std::string read_input(const std::string &path_or_dash);

// Atomically replaces `path` with `content`, creating parent directories.
// The file is fsynced before the rename and its directory after it, so the
// new content survives a crash once this returns.
void write_file_atomic(const std::filesystem::path &path, std::string_view content);

// Like write_file_atomic, but never replaces an existing file: returns false
// (writing nothing) when `path` already exists.
bool write_file_atomic_new(const std::filesystem::path &path, std::string_view content);

// fsync of a directory, making renames and creations inside it durable.
void fsync_directory(const std::filesystem::path &dir);

// Writes to stdout for "-", atomically to the file otherwise.
void write_output(const std::string &path_or_dash, std::string_view content);

bool is_regular_file(const std::filesystem::path &path);
bool is_directory(const std::filesystem::path &path);

// Immediate entries of a directory, sorted by name (code-point order); empty
// when the directory is missing.
std::vector<std::filesystem::path> list_dir(const std::filesystem::path &dir);

// "~" and "~/..." expanded from $HOME.
std::filesystem::path expand_user(std::string_view path);

} // namespace otm::io
