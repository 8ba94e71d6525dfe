#include "trace/archive_listing.hpp"

#include <system_error>

#include "error/error.hpp"
#include "io/beneath.hpp"
#include "text/printable.hpp"

namespace otm::trace {

namespace fs = std::filesystem;

namespace {

bool carriable(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '+' || c == '-';
}

std::string shown_char(char c) {
  if (c == ' ') return "a space";
  auto u = static_cast<unsigned char>(c);
  if (u > 0x20 && u < 0x7F) return std::string("'") + c + "'";
  return "the byte " + text::escape_controls(std::string(1, c)) +
         (u >= 0x80 ? " (not ASCII)" : " (a control character)");
}

} // namespace

std::string uncarriable_name_reason(std::string_view name) {
  if (name.empty()) return "the name is empty";
  if (name.front() == '-') return "the name begins with '-', which a command would read as an option";
  if (name.front() == '.') return "the name begins with '.' (hidden)";
  for (char c : name)
    if (!carriable(c)) return "the name holds " + shown_char(c);
  return "";
}

std::vector<ArchiveEntry> list_archive(const fs::path &traces_dir) {
  std::vector<ArchiveEntry> out;
  io::Beneath root(traces_dir, "TRACES_DIR"); // an IoError naming it when it is no readable directory
  auto listing = root.list("");
  if (!listing)
    throw Error(ErrorKind::UnreadableInput, traces_dir.string() + ": cannot list TRACES_DIR (" + listing.why + ")");
  for (const auto &e : listing.entries) {
    if (e.name.starts_with(".")) continue;
    if (e.type == io::EntryType::Directory) {
      if (root.probe_file(e.name + "/.git") == io::Refusal::Missing) continue;
      auto why = uncarriable_name_reason(e.name);
      if (why.empty())
        out.push_back({e.name, ArchiveEntryKind::Trace, ""});
      else
        out.push_back({e.name, ArchiveEntryKind::Refused,
                       "not a name make can carry as data (" + why +
                           "); a trace's directory name may hold only ASCII letters, digits, '.', '_', '+' and "
                           "'-': rename the directory"});
    } else if (e.type == io::EntryType::Symlink) {
      // Followed only to say what it is: a link to a trace elsewhere.
      std::error_code ec;
      if (!fs::is_directory(traces_dir / e.name, ec) || !fs::exists(traces_dir / e.name / ".git", ec)) continue;
      out.push_back({e.name, ArchiveEntryKind::Skipped,
                     "a symbolic link, not a directory under TRACES_DIR (it may lead anywhere): not mined; move "
                     "or copy the trace itself into TRACES_DIR"});
    }
  }
  return out;
}

std::string archive_entry_message(const ArchiveEntry &entry) {
  const char *what = entry.kind == ArchiveEntryKind::Refused ? "refused" : "skipped";
  return text::escape_controls(entry.name) + ": " + what + ": " + entry.reason;
}

} // namespace otm::trace
