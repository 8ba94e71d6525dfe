// Issue 27: what archive mode takes for a trace (trace/archive_listing), in
// process. A name is data: only names make and the shell carry as plain
// words are listed, the others refused by name; a symbolic link is skipped;
// the report's rows of both are valid UTF-8 whatever the name's bytes.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "example_trace.hpp"
#include "io/file.hpp"
#include "report/archive_report.hpp"
#include "text/printable.hpp"
#include "text/utf8.hpp"
#include "trace/archive_listing.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::testing;

namespace {

// A directory `name` under `dir` holding .git (a trace, as far as listing goes).
void make_trace_dir(const fs::path &dir, const std::string &name) {
  fs::create_directories(dir / name / ".git");
  io::write_file_atomic(dir / name / ".git" / "HEAD", "ref: refs/heads/main\n");
}

} // namespace

TEST_CASE("archive names: only plain words are carried", "[archive][security]") {
  for (const char *ok : {"kernel_opt_001_softmax", "a-b", "a.b", "v1+2", "X9"}) {
    INFO(ok);
    CHECK(trace::uncarriable_name_reason(ok).empty());
  }
  for (const char *bad :
       {"t$(touch PWNED)", "t`x`",     "a b", "t;x",     "t%x", "t:x", "t'q",  "t\"q", "t&&x", "t|x",
        "t\n${IFS}x",      "\xff\xfe", "-rf", ".hidden", "a=b", "a#b", "a\\b", "a*b",  "~x",   "\xc3\xb1"}) {
    INFO(text::escape_controls(bad));
    CHECK_FALSE(trace::uncarriable_name_reason(bad).empty());
  }
  CHECK_THAT(trace::uncarriable_name_reason("a b"), Catch::Contains("a space"));
  CHECK_THAT(trace::uncarriable_name_reason("t;x"), Catch::Contains("';'"));
  CHECK_THAT(trace::uncarriable_name_reason("\xff\xfe"), Catch::Contains("\\xff"));
}

TEST_CASE("archive listing: traces, refused names and skipped links", "[archive][security]") {
  auto dir = fresh_temp_dir("archive-listing");
  auto traces = dir / "traces";
  make_trace_dir(traces, "kernel_opt_001_good");
  make_trace_dir(traces, "t$(touch${IFS}PWNED)");
  make_trace_dir(traces, "\xff\xfe");
  make_trace_dir(traces, ".hidden");
  fs::create_directories(traces / "no-git-here");
  make_trace_dir(dir / "elsewhere", "kernel_opt_002_outside");
  fs::create_symlink(dir / "elsewhere" / "kernel_opt_002_outside", traces / "kernel_opt_002_linked");
  fs::create_symlink(dir / "elsewhere", traces / "a-link-to-no-trace");
  io::write_file_atomic(traces / "a-file", "not a trace\n");

  auto entries = trace::list_archive(traces);
  std::vector<std::string> got;
  for (const auto &e : entries)
    got.push_back(std::string(e.kind == trace::ArchiveEntryKind::Trace     ? "trace "
                              : e.kind == trace::ArchiveEntryKind::Refused ? "refused "
                                                                           : "skipped ") +
                  text::escape_controls(e.name));
  CHECK(got == std::vector<std::string>{"trace kernel_opt_001_good", "skipped kernel_opt_002_linked",
                                        "refused t$(touch${IFS}PWNED)", "refused \\xff\\xfe"});
  for (const auto &e : entries)
    if (e.kind != trace::ArchiveEntryKind::Trace) {
      auto message = trace::archive_entry_message(e);
      CHECK(text::is_valid_utf8(message));
      CHECK(message.find('\xff') == std::string::npos);
    }

  // The report's rows of the entries not run: valid UTF-8, refused rows fail.
  std::string jsonl;
  bool failed = false;
  for (const auto &e : entries)
    if (e.kind != trace::ArchiveEntryKind::Trace) {
      auto row = report::not_run_row(e);
      failed = failed || row.failed;
      jsonl += json::to_line(report::archive_row_json(row)) + "\n";
    }
  CHECK(failed);
  CHECK(text::is_valid_utf8(jsonl));
  CHECK_THAT(jsonl, Catch::Contains(R"("trace": "\\xff\\xfe", "status": "refused")"));
  CHECK_THAT(jsonl, Catch::Contains(R"("trace": "kernel_opt_002_linked", "status": "skipped")"));
  auto skipped = report::not_run_row(entries[1]);
  CHECK_FALSE(skipped.failed);
  CHECK(report::archive_outcome(skipped) == "skipped");
  fs::remove_all(dir);
}

TEST_CASE("archive listing: a TRACES_DIR that is no directory is an error naming it", "[archive][security]") {
  auto dir = fresh_temp_dir("archive-listing-missing");
  CHECK_THROWS_WITH(trace::list_archive(dir / "nope"), Catch::Contains("nope"));
  fs::remove_all(dir);
}

TEST_CASE("control characters are escaped, valid UTF-8 kept", "[text][security]") {
  using text::escape_controls;
  CHECK(escape_controls("plain ascii, tabs\tand spaces") == "plain ascii, tabs\tand spaces");
  CHECK(escape_controls("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(escape_controls(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(escape_controls("a\nb") == "a\\x0ab");
  CHECK(escape_controls("a\nb", text::Newlines::Keep) == "a\nb");
  CHECK(escape_controls("del\x7f") == "del\\x7f");
  CHECK(escape_controls("\xc3\xb1"
                        "and\xc3\xba") == "\xc3\xb1"
                                          "and\xc3\xba"); // ñandú
  CHECK(escape_controls("\xe6\xb3\xa8") == "\xe6\xb3\xa8");
  CHECK(escape_controls("\xc2\x9b"
                        "31m") == "\\xc2\\x9b31m"); // C1 CSI
  CHECK(escape_controls("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_controls("\xe6\xb3") == "\\xe6\\xb3"); // cut short
  CHECK(escape_controls("\xc3(") == "\\xc3(");
  CHECK(escape_controls("\xed\xa0\x80") == "\\xed\\xa0\\x80"); // a surrogate
  // In pieces: a sequence split between two writes is held, not broken.
  text::ControlEscaper e(text::Newlines::Keep);
  std::string out;
  e.feed("x\xe6", out);
  e.feed("\xb3\xa8\x1b\n", out);
  e.finish(out);
  CHECK(out == "x\xe6\xb3\xa8\\x1b\n");
}
