// What archive mode (`make -f Makefile.pipeline archive`, otm-slurm-archive)
// takes for a trace, in one place: a real directory directly under
// TRACES_DIR that holds `.git`. A directory's name there is written by
// whoever made the archive, so it is data that must never run: make splits
// words at spaces, reads `;`, `:`, `%`, `$`, `#`, `=` as its own syntax, and a
// recipe hands what it expands to the shell. A name holding anything but
// the few characters both carry as a plain word is refused, for that trace
// alone; a symbolic link is not a directory under TRACES_DIR (it may lead
// anywhere) and is skipped. Both are reported, never dropped silently.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace otm::trace {

enum class ArchiveEntryKind {
  Trace,   // a directory holding .git whose name make and the shell carry as data
  Refused, // such a directory whose name they cannot carry: not run, reported failed
  Skipped, // a symbolic link to a directory holding .git: not a trace of the archive
};

struct ArchiveEntry {
  std::string name; // the directory entry's name, raw bytes (text::escape_controls to show it)
  ArchiveEntryKind kind = ArchiveEntryKind::Trace;
  std::string reason; // why it is refused or skipped; empty for a trace
};

// Why `name` cannot be a trace's name in archive mode ("" when it can): it
// may hold only ASCII letters, digits, '.', '_', '+' and '-', and may not
// begin with '-' (an option) or '.' (hidden, never listed).
std::string uncarriable_name_reason(std::string_view name);

// The entries of `traces_dir` archive mode reports on, in byte order of
// their names: its traces, the ones it refuses and the links it skips.
// Names beginning with '.' and directories without .git are not traces and
// not listed. Throws an Error (UnreadableInput) naming `traces_dir` when it
// is not a readable directory.
std::vector<ArchiveEntry> list_archive(const std::filesystem::path &traces_dir);

// The one-line diagnostic of a refused or skipped entry: "<name, escaped>:
// refused: ..." / "<name>: skipped: ...".
std::string archive_entry_message(const ArchiveEntry &entry);

} // namespace otm::trace
