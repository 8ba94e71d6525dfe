// The archive name path (issue 27): a trace directory's name is data that
// must never reach make or a shell as syntax. For any names (the input,
// split at NUL bytes): a name archive mode carries holds only characters
// that are no make or shell syntax; listing a TRACES_DIR of such
// directories lists exactly the carried names as traces and refuses the
// others; every diagnostic and every report row of a name is valid UTF-8
// without a raw control character.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "report/archive_report.hpp"
#include "text/printable.hpp"
#include "text/utf8.hpp"
#include "trace/archive_listing.hpp"
#include "json/write.hpp"

namespace {

namespace fs = std::filesystem;

bool no_raw_controls(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\n') || u == 0x7F) return false;
  }
  return true;
}

// Characters make or a shell reads as syntax, or that split a word.
bool syntax_free(std::string_view name) {
  static const std::string_view syntax = " \t\n\r\v\f$`'\"\\;:%#=|&()<>*?[]{}~!,@^";
  if (name.empty() || name.front() == '-' || name.front() == '.') return false;
  for (char c : name)
    if (syntax.find(c) != std::string_view::npos || static_cast<unsigned char>(c) >= 0x80 ||
        static_cast<unsigned char>(c) < 0x20)
      return false;
  return true;
}

const fs::path &scratch() {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "otm-fuzz-archive-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    return fs::path(tmpl);
  }();
  // Removed when the run ends (registered after `dir` is built, so it runs
  // before `dir` is destroyed): a run leaves nothing in the temp directory.
  static const bool cleaned_at_exit = std::atexit([] {
                                        std::error_code ec;
                                        fs::remove_all(dir, ec);
                                      }) == 0;
  (void)cleaned_at_exit;
  return dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace otm;
  std::string_view in(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> names;
  for (std::size_t pos = 0; pos <= in.size() && names.size() < 8;) {
    auto end = in.find('\0', pos);
    if (end == std::string_view::npos) end = in.size();
    names.emplace_back(in.substr(pos, std::min<std::size_t>(end - pos, 200)));
    pos = end + 1;
  }
  for (const auto &n : names) {
    bool carried = trace::uncarriable_name_reason(n).empty();
    if (carried) FUZZ_CHECK(syntax_free(n));
  }

  // A TRACES_DIR of them (names a directory cannot have are left out).
  const fs::path traces = scratch() / "traces";
  std::error_code ec;
  fs::remove_all(traces, ec);
  fs::create_directories(traces);
  std::vector<std::string> made;
  for (const auto &n : names) {
    if (n.empty() || n == "." || n == ".." || n.find('/') != std::string::npos) continue;
    if (!fs::create_directory(traces / n, ec) || ec) continue;
    fs::create_directory(traces / n / ".git", ec);
    made.push_back(n);
  }
  auto entries = trace::list_archive(traces);
  std::size_t traced = 0;
  for (const auto &e : entries) {
    FUZZ_CHECK(std::find(made.begin(), made.end(), e.name) != made.end());
    if (e.kind == trace::ArchiveEntryKind::Trace) {
      FUZZ_CHECK(trace::uncarriable_name_reason(e.name).empty());
      FUZZ_CHECK(syntax_free(e.name));
      ++traced;
      continue;
    }
    FUZZ_CHECK(e.kind == trace::ArchiveEntryKind::Refused);
    auto message = trace::archive_entry_message(e);
    FUZZ_CHECK(text::is_valid_utf8(message) && no_raw_controls(message));
    auto row = json::to_line(report::archive_row_json(report::not_run_row(e)));
    FUZZ_CHECK(text::is_valid_utf8(row) && no_raw_controls(row));
    FUZZ_CHECK(report::not_run_row(e).failed);
  }
  std::size_t want = 0;
  for (const auto &n : made) want += !n.starts_with(".") && trace::uncarriable_name_reason(n).empty();
  FUZZ_CHECK(traced == want);
  return 0;
}
