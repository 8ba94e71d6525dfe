// Which changed lines of a unified diff change what runs, judged against the
// whole file after the change (code/inert_code.hpp): a '+' line is inert
// when the file after the change holds it in a comment, docstring, blank
// line, version stamp, an assignment nothing reads, a new function nothing
// calls or a hint restating what the compiler knows; a '-' line when it is no code, or only assigns names that no live
// line of the file after the change reads. Without the file after the change
// only the lexer's line kinds decide (the old rule).
//
// Usage:
//   auto lexed = code::lex_diff(diff);
//   auto inert = code::inert_changes(lexed, after_text);   // after_text: the file at the diff's '+' side
//   inert.runs(i)          // line i of `lexed` is a change that runs
//   inert.running          // how many changed lines run
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "code/inert_code.hpp"
#include "code/source_lexer.hpp"

namespace otm::code {

struct InertChanges {
  std::vector<InertCode::Why> lines; // per line of the lexed diff (Live for lines that are no change)
  std::vector<std::string> owner;    // per line: the unread name or uncalled function, else empty
  std::size_t running = 0;           // changed lines that run
  std::size_t inert_code = 0;        // changed code lines that run for nothing (unread names, uncalled functions,
                                     // restated hints)
  std::vector<std::string> unread_names, uncalled_functions, restated_hints;
  bool runs(std::size_t i) const;
};

// `after`: the diff's file after the change (the '+' side), or nullopt when
// unknown. The diff holds one file (a multi-file diff is judged by its
// first file's text).
InertChanges inert_changes(const std::vector<DiffLine> &diff, std::optional<std::string_view> after);

} // namespace otm::code
