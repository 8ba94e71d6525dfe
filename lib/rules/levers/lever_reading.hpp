// Which levers a change text claims, and what a diff's running changes make
// of them (issue 25's rule: a claim must be visible in the code that runs).
// One rule for the drafter (what a strategy may claim) and the quality
// report (what a staged record's claim shows in its packet's code).
//
//   auto diff = diff::read_diff(packet_diff, code_after);
//   auto r = levers::read_levers(diff, change_text, vocabulary, dsl);
//   r.missing   // claimed, checkable for the DSL, and in no running change
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diff/diff_reading.hpp"
#include "levers/lever_vocabulary.hpp"

namespace otm::levers {

// The levers a change text claims (LeverVocabulary::claimed_in; or by their
// code set to a value before its cause clause, levers_set_in of claim_of),
// and what the diff's running changes make of them:
//   checkable  the claimed levers with code forms for the packet's DSL;
//   realised   checkable levers some running (not dead) changed line
//              changes: a code form of the lever occurs in the part of the
//              line that changed (an unpaired line: all of it);
//   missing    checkable, not realised, and no running changed line even
//              holds its code: the diff does not bear the claim out (a lever
//              whose code a changed line passes through unchanged is one the
//              claim quotes, not one it changes).
struct LeverReading {
  std::vector<std::string> claimed, checkable, realised, missing;
};
LeverReading read_levers(const diff::DiffReading &diff, std::string_view change, const LeverVocabulary &levers,
                         std::string_view dsl);

// Whether an earlier kept step of a span left anything of itself in the
// span's diff: its change text names no lever checkable in `dsl`, or the
// diff's running code changes one it names. A step whose levers the diff
// does not change was undone before the milestone (round 9: fp16
// exponentials reverted a step later, still "measured together"); the
// drafter and the quality report leave it out of the span alike.
bool left_in_diff(const diff::DiffReading &diff, std::string_view step_change, const LeverVocabulary &levers,
                  std::string_view dsl);

// The levers whose code names `text` sets to a value ("ROWS=2", "BLOCK_M ->
// 256"), not those it only mentions ("a multiple of BLOCK_N").
std::vector<std::string> levers_set_in(std::string_view text, const LeverVocabulary &vocabulary, std::string_view dsl);

// Whether a changed line changes one of `levers`' code.
bool changes_lever(const diff::ChangedLine &line, const std::vector<std::string> &levers,
                   const LeverVocabulary &vocabulary, std::string_view dsl);

} // namespace otm::levers
