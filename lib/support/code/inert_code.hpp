// Which lines of a source run for nothing: the statements that only assign a
// name no live line reads (`_TUNE_ID = 826245`, a config dict nothing looks
// up), and the functions nothing calls. A change confined to such lines, to
// comments, docstrings, blank lines or version stamps changes nothing that
// runs (issue 25: "dead code is not a change"). So is a compiler hint that
// restates what the compiler already derives: `cols = tl.max_contiguous(
// tl.multiple_of(cols, 8), 8)` on a `cols` bound to `tl.arange(0, N)`, whose
// contiguity is N and whose start 0 divides anything; such a hint can only
// weaken what is known, never widen a load (round 9: hints on an arange
// credited with 128-bit loads). A hint value below 8 (not the arange's own
// length) does weaken it: it narrows a 2-byte load below 16 bytes (round
// 11), so it runs. A Gluon shared- or tensor-memory buffer
// (`allocate_shared_memory`) that is only stored into (`buf.store(x)`,
// `buf.index(i).store(x)`) and never loaded, passed or sliced into a name
// is unread, and its stores run for nothing (round 10: a double buffer
// written every row and never read). So is the body of a C++ branch no
// compilation takes (code/untaken_branches.hpp: `if constexpr (V == 8)` in
// a template instantiated with 4 and 1). The one rule: the packet
// builder (where a dead-end's attempt ends), the drafter (what a strategy may
// claim and quote) and the substance gate all ask it.
//
// The reading is syntactic and conservative (a name counts as read wherever
// it occurs as an identifier in code, attribute and keyword positions
// included, in Python and in embedded C/CUDA/PTX source alike), so it may call
// dead code live, never live code dead, with two stated exceptions a caller
// opts into:
//   * a function counts as uncalled only when the caller says it is new
//     (`new_functions`): an old top-level function nothing in the file calls
//     may be the entry point a harness imports. A Python `def` or a CUDA
//     `__device__` function (in a string or a C-family file) may be named;
//   * a name a module reads through strings (`getattr(m, "X")`) is not seen.
//
// Usage:
//   auto inert = code::find_inert_code(after_text, code::Language::Python, {"_loader_partition"});
//   inert.is_inert(line)          // 0-based line of after_text
//   inert.unread_names            // ["_TUNE_ID"]
//   inert.uncalled_functions      // ["_loader_partition"]
//   inert.restated_hints          // ["cols"]
#pragma once

#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::code {

// How every message names a restated hint's reason (the drafter's
// refusals, the substance gate, the quality report): one wording.
inline constexpr const char *kRestatedHintReason = "what the compiler already knows of an arange from 0";

struct InertCode {
  enum class Why { Live, NotCode, UnreadName, UncalledFunction, RestatedHint, UntakenBranch };
  std::vector<Why> lines;                      // per line of the source
  std::vector<std::string> owner;              // per line: the unread name, uncalled function or untaken condition
  std::vector<std::string> unread_names;       // defined, never read by a live line, in first-definition order
  std::vector<std::string> uncalled_functions; // new functions no live line names
  std::vector<std::string> restated_hints;     // names re-bound to a hint on their own arange from 0
  std::set<std::string> live_names;            // every name a live line reads
  bool is_inert(std::size_t line) const { return line >= lines.size() || lines[line] != Why::Live; }
};

// The names a source's inert lines belong to, by why, each once in line
// order, with how many lines each why covers: over the lines `keep(line,
// why)` selects (the quality report: the snippet's changed lines; a
// reference kernel: what a reader would copy). One reading for every
// message that names dead code.
struct InertOwners {
  std::vector<std::string> unread, uncalled, restated, untaken;
  std::size_t unread_lines = 0, uncalled_lines = 0, restated_lines = 0, untaken_lines = 0;
};
// `Inert`: InertCode, or InertChanges (inert_changes.hpp) over a diff's lines.
template <typename Inert, typename Keep>
InertOwners inert_owners(const Inert &inert, const std::vector<std::size_t> &lines, Keep keep) {
  InertOwners out;
  auto add = [](std::vector<std::string> &to, const std::string &name) {
    if (!name.empty() && std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
  };
  for (auto i : lines) {
    if (i >= inert.lines.size() || !keep(i, inert.lines[i])) continue;
    switch (inert.lines[i]) {
    case InertCode::Why::UnreadName: ++out.unread_lines, add(out.unread, inert.owner[i]); break;
    case InertCode::Why::UncalledFunction: ++out.uncalled_lines, add(out.uncalled, inert.owner[i]); break;
    case InertCode::Why::RestatedHint: ++out.restated_lines, add(out.restated, inert.owner[i]); break;
    case InertCode::Why::UntakenBranch: ++out.untaken_lines, add(out.untaken, inert.owner[i]); break;
    default: break;
    }
  }
  return out;
}

// `new_functions`: names of functions the caller knows to be new (defined on
// added lines of a diff); only these can be found uncalled.
InertCode find_inert_code(std::string_view source, Language language, const std::set<std::string> &new_functions = {});

// The name a line of code defines when it is a plain assignment statement
// (`X = 1`, `X: tl.constexpr = 4`, `a, b = f()` gives `a`), a `#define X`, or
// a C declaration with an initialiser (`constexpr int X = 4;`); empty
// otherwise. `code` is the line without comments or strings; the caller
// says whether the line starts a statement (a Python line inside brackets
// is a keyword argument, not an assignment).
std::vector<std::string> names_defined_by(std::string_view code, bool starts_statement);

} // namespace otm::code
