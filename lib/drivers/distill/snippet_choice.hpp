// Which lines of the sibling file a drafted record quotes (spec distill.md
// §3 rule 2, §4.3). Both rules only select whole lines of the file, never
// edit them, so the snippet is verbatim by construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::distill {

// Strategy: the hunk of a unified diff that carries the change. Rule: the
// hunk with the most changed lines ('-'/'+') that are neither blank nor
// comment-only; ties go to the earliest hunk. The snippet is that hunk's
// body without its "@@" header. A hunk longer than kMaxSnippetLines is cut
// to a window starting kContextLines before its first changed line.
inline constexpr std::size_t kMaxSnippetLines = 60;
inline constexpr std::size_t kContextLines = 3;

struct DiffSnippet {
  std::string text;
  std::size_t changed_lines = 0; // substantive '-'/'+' lines in the chosen hunk
  std::size_t hunks = 0;         // hunks in the whole diff
};
std::optional<DiffSnippet> choose_diff_hunk(std::string_view diff);

// Reference kernel: the entry-point function of a Python kernel file.
// Rule: among functions carrying a JIT/kernel decorator (a decorator line
// whose name contains "jit" or "kernel"), the one whose name is used most
// often outside its own definition (the one the rest calls or launches);
// ties go to the earliest. The snippet is its decorator lines, its def and
// its body (up to the next non-blank line indented no deeper than the
// def), trailing blank lines dropped. Files with no decorated function
// have no entry point.
struct EntryFunction {
  std::string name;
  std::string text;
};
std::optional<EntryFunction> choose_entry_function(std::string_view source);

} // namespace otm::distill
