// A unified diff read for what it changes, as the drafter and the quality
// report (report/record_signals.hpp) need it: its hunks, which changed
// lines run (the shared lexer decides: code::LineKind Code, never a
// comment, docstring, blank line or version stamp), the text of those lines
// without their comments, the names a change text shares with them, and the
// functions the diff adds that nothing calls.
//
// Usage:
//   auto d = read_diff(packet.code, packet.code_after);  // the file after the change, when the packet has it
//   d.running_lines()                  // 0: the diff changes nothing that runs
//   named_in(d, change_text)           // the names of the change text the diff's running changes hold
//   d.dead_definitions                 // `_loader_partition`: defined on added lines, referenced nowhere
//
// It knows no record: a change text is any prose that names what a diff
// changes. It is a rule, not support machinery, because which comment
// lines a snippet leaves out is the scrubber's rule (its replacement
// phrases); it lived in lib/drivers/distill/ until the quality report, a
// stage, needed it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"

namespace otm::diff {

struct ChangedLine {
  std::size_t line = 0; // index into DiffReading::lines
  std::string code;     // the line's source without its comments (code and string spans)
  // What this line changes: for a '-' line paired with a '+' line (the
  // i-th of a removed run with the i-th of the added run after it), the
  // tokens between their common prefix and suffix, widened to whole dotted
  // names, after the name that owns them (`BlockedLayout` in
  // `BlockedLayout([4], ...)` -> `([2], ...)`, `num_warps` in
  // `num_warps=4` -> `=8`, `UNROLL` in `#define UNROLL 2` -> `1`); for an
  // unpaired line, all of `code`.
  std::string changed;
  std::string owner;   // the name that owns `changed` (`num_warps`, `UNROLL`), or empty
  std::string defines; // the name the line defines or assigns (`#define X`, `X: T = v`), or empty
  // The code of the lines after it in its hunk, on its side of the diff,
  // that read a name its `for` target binds (`for _m, _n in [(32, 64), ...]:` feeds
  // `triton.Config({'BM': _m, 'BN': _n})`): a lever those lines set is
  // changed by this line (kit 61, J01: an autotune list's tiles). Empty
  // when it is no `for` or nothing there reads its targets.
  std::string feeds;
  bool added = false;
  // Runs for nothing (code/inert_changes.hpp): an assignment of a name no
  // live line reads, a function the diff adds and nothing calls, or (judged
  // against the whole file) a line that is not code after all.
  bool dead = false;
  // The same code, whitespace aside, is on the other side of the diff too
  // (a removed line added back elsewhere, or re-indented under a new loop):
  // the line moved, it changes nothing it names (kit 28, Q24: a persistent
  // rewrite re-indenting the GROUP_M swizzle, read as a GROUP_M change).
  bool moved = false;
};

struct HunkReading {
  std::size_t header = 0;                   // index of the "@@" line
  std::size_t body_begin = 0, body_end = 0; // [begin, end) of its body lines
  std::size_t first_change = 0;             // index of its first changed line
  std::size_t changed = 0;                  // every '-'/'+' line, whatever it holds
  std::vector<ChangedLine> running;         // changed executable lines, dead ones included
  std::size_t running_lines() const;        // those that are not dead
};

struct DiffReading {
  std::vector<std::string_view> lines; // the diff's lines, without newlines (views into the diff)
  // Per line: a comment (or a docstring line without its quotes), a context
  // line, or a changed line that runs for nothing, that holds a phrase the
  // scrubber wrote for a version id or a denied name: never quoted
  // (scrub::holds_replacement_phrase).
  std::vector<bool> scrubbed_comment;
  std::vector<HunkReading> hunks;
  // Python functions defined on added lines that no other line of the diff
  // (or, with the file after the change, of that file) names and no removed
  // line defined: new code nothing calls.
  std::vector<std::string> dead_definitions;
  // Names the changed lines assign that no live line of the file after the
  // change reads (`_TUNE_ID`); empty without that file.
  std::vector<std::string> unread_names;
  // Names the changed lines re-bind to a compiler hint on their own arange
  // from 0 (`cols = tl.multiple_of(cols, 8)`), which restates what the
  // compiler knows (code/inert_code.hpp); empty without that file.
  std::vector<std::string> restated_hints;
  std::size_t running_lines() const; // changed executable lines that are not dead, whole diff
};

// `diff` (and `after`) must outlive the result (lines are views into it).
// `after`: the diff's file after the change, which decides what the changed
// lines read and call; without it only the diff's own lines do.
DiffReading read_diff(std::string_view diff, std::optional<std::string_view> after = std::nullopt);

// A name of a change text ("num_warps", "BLOCK_SIZE", "tl.reduce", ".cs",
// "ld.global.nc.v4.f32", "persistent"): `strong` when it can only be an
// identifier, a literal or a mnemonic (it holds `_`, `.` or a digit, or two
// capitals); otherwise a plain word of at least four letters.
struct ChangeName {
  std::string text;
  bool strong = false;
};
std::vector<ChangeName> names_of(std::string_view change_text);

// Whether `code` (a line without comments) holds `name` as a whole token.
bool holds_name(std::string_view code, std::string_view name);

// The names of `change_text` that some running (not dead) changed line of
// the diff holds, in the change text's order.
std::vector<ChangeName> named_in(const DiffReading &diff, std::string_view change_text);

// Whether the diff changes `name` itself rather than only carrying it on a
// changed line: some running (not dead) line
//   * owns its changed part by that name (`num_warps=4` -> `=8`), or
//     defines it (`#define UNROLL 2`, `UNROLL: tl.constexpr = 2`,
//     `constexpr int THREADS = 128;`), or assigns it within the changed
//     part (`BLOCK_SIZE=1024` among a launch's keywords); or
//   * the changed parts hold it on one side only: the diff introduces it
//     (a new `__shfl_xor_sync` call) or drops it.
// A name the changed parts hold on both sides as an operand (`THREADS / 2`
// rewritten as `THREADS / 32`), or that only sits beside the edit
// (`[num_warps]` beside the edited `[4]`), is passed through, not changed.
bool changes_name(const DiffReading &diff, std::string_view name);

// Whether a matched term is one code name (a single strong name:
// `num_warps`, `BlockedLayout`, `ld.global.nc`), which the diff must then
// change for the term to describe the change, rather than prose or a
// phrase ("warps per row", "vectorised", "BLOCK_SIZE 64 -> 128").
bool is_code_name(std::string_view term);

// A DSL's own API (`tl.exp`, `gl.arange`, `torch.empty`): any rewrite
// brings some in and takes some out, whatever lever it pulls, so such a
// name never identifies one.
bool is_language_call(std::string_view name);

} // namespace otm::diff
