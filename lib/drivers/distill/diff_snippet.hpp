// Which lines of a packet's diff a strategy or anti-strategy quotes (spec
// distill.md §3 rule 2). The rule only selects whole lines of the diff,
// never edits them, so the snippet is verbatim by construction.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diff/diff_reading.hpp"

namespace otm::distill {

// A strategy's (or an anti-strategy's) snippet: the hunks of a unified diff
// that carry the change its text claims. Rule, over the hunks that change a
// line that runs (diff_reading.hpp; a hunk of comments, docstrings, blank
// lines, version stamps, assignments nothing reads or the body of a
// function nothing calls never qualifies):
//   0. when no hunk changes a claimed lever's code or a strong name of the
//      change text (prose that names the lever otherwise than the code
//      does) and the diff's running change is small (at most kQuoteAllLines
//      changed lines that run, in at most kMaxHunks hunks), all of it;
//   1. otherwise the hunk with the most running changed lines that change a
//      claimed lever's code (`on_claim`; the levers the change text names,
//      change_claims.hpp), then the most strong names of the change text
//      (`BLOCK_SIZE`, `num_warps`, `tl.reduce`, `.cs`), then the most plain
//      words of it, then the most running changed lines; ties go to the
//      earliest hunk (words of comments never count: only code is read);
//   2. then every other hunk that changes a claimed lever's code, and for
//      each strong name the diff's running changes hold that no chosen hunk
//      holds, the best hunk holding it, up to kMaxHunks in all;
//   2b. then, for a chosen hunk that only deletes (adds) running code,
//      every hunk of the same function that only adds (deletes) some: the
//      other half of a rewrite, within kMaxHunks and kMaxSnippetLines;
//   3. then every hunk that sets a name a chosen hunk's running change
//      reads, or reads a name one sets (`kSplitK = 4` for a loop over `K /
//      kSplitK`; the launch's `NUM_PROGRAMS=nprog` for a grid-stride
//      loop), while the quote stays within kMaxHunks hunks and
//      kMaxSnippetLines lines: a snippet is applied as it stands; so is a
//      hunk that changes the launch grid (`grid = (B, HKV)`, a CUDA
//      `<<<...>>>`) with one that changes lines
//      reading the program's place in it (`program_id`, `num_programs`,
//      `blockIdx`, `gridDim`), either way round; a name counts as read
//      where the code passes it as a keyword the hunk reads (`single =
//      True` for `if SINGLE_PASS:` with `SINGLE_PASS=single` in the launch);
//      so is a hunk that changes a function's body with one that changes
//      a function calling it (with `code_after`: a dequant's new output
//      order and the caller's operands re-paired to match).
// One hunk is quoted without its "@@" header; several are quoted in file
// order, each with its header. Each is quoted from kContextLines before its
// first running changed line to kContextLines after its last (a docstring,
// comment or dead change at its edge is not the change: it is left out of
// the window's context); longer than
// kMaxSnippetLines, from kContextLines before its first running line that
// changes a claimed lever or holds a name. A comment line holding a phrase
// the scrubber wrote for a version id ("see an earlier step's note") is
// left out wherever it falls: it is no part of the change and reads as an
// artefact.
inline constexpr std::size_t kMaxSnippetLines = 80;
inline constexpr std::size_t kContextLines = 3;
inline constexpr std::size_t kMaxHunks = 3;
inline constexpr std::size_t kQuoteAllLines = 8;

struct DiffSnippet {
  std::string text;
  std::size_t hunks_quoted = 0;
  std::vector<std::string> names;   // strong change-text names the quoted lines change
  bool claimed_code_quoted = false; // a quoted running line changes a claimed lever's code
};
using ClaimedLine = std::function<bool(const diff::ChangedLine &)>;
// `code_after`: the file after the change, when known (rule 3 follows a
// name into the keyword the launch passes it as).
std::optional<DiffSnippet> choose_diff_hunks(const diff::DiffReading &diff, std::string_view change_text,
                                             const ClaimedLine &on_claim = {}, std::string_view code_after = {});

} // namespace otm::distill
