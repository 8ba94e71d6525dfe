// Which lines of a packet's diff a strategy or anti-strategy quotes (spec
// distill.md §3 rule 2). The rule only selects whole lines of the diff,
// never edits them, so the snippet is verbatim by construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distill/diff_reading.hpp"

namespace otm::distill {

// A strategy's (or an anti-strategy's) snippet: the hunks of a unified diff
// that carry the change its text claims. Rule, over the hunks that change a
// line that runs (diff_reading.hpp; a hunk of comments, docstrings, blank
// lines or version stamps never qualifies, nor the body of a function the
// diff adds and nothing calls):
//   1. the hunk whose running changed lines hold the most strong names of the
//      change text (`BLOCK_SIZE`, `num_warps`, `tl.reduce`, `.cs`), then the
//      most plain words of it, then the most running changed lines; ties go
//      to the earliest hunk;
//   2. then, for each strong name the diff's running changes hold that no
//      chosen hunk holds, the best hunk holding it, up to kMaxHunks in all.
// One hunk is quoted without its "@@" header; several are quoted in file
// order, each with its header. Each is quoted from kContextLines before its
// first running changed line to kContextLines after its last (a docstring or
// comment change at its edge is not the change); longer than
// kMaxSnippetLines, from kContextLines before its first running line that
// holds a name.
inline constexpr std::size_t kMaxSnippetLines = 60;
inline constexpr std::size_t kContextLines = 3;
inline constexpr std::size_t kMaxHunks = 3;

struct DiffSnippet {
  std::string text;
  std::size_t hunks_quoted = 0;
  std::vector<std::string> names; // strong change-text names the quoted lines change
};
std::optional<DiffSnippet> choose_diff_hunks(const DiffReading &diff, std::string_view change_text);

} // namespace otm::distill
