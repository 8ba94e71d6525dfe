// Which setting of which lever a text names ("num_warps 8 -> 4", "4 warps",
// "tile size=512", "hints of 2", "drop cache_modifier=\".cg\""), and the key
// under which a trace's accounts of one failed lever are one lesson (issue
// 25: one record per failed lever, not per occurrence). Shared by the
// partition stage (grouping the occurrences), the packet stage (what the
// run later kept), and the drafter (what was attempted; the backstop that
// refuses a second record of one lever).
//
//   auto s = levers::settings_in(vocabulary, "num_warps 8 -> 4 cannot hide the latency");
//   s[0].lever == "num-warps-tuning", s[0].value == "4", text.substr(s[0].begin, s[0].end - s[0].begin) == "num_warps 8
//   -> 4" levers::failed_lever_key(vocabulary, "4 warps leave too few loads in flight", "triton")
//       == levers::failed_lever_key(vocabulary, "num_warps 8→4 (reverted: ...)", "triton")
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "levers/lever_vocabulary.hpp"

namespace otm::levers {

struct LeverSetting {
  std::string lever; // the lever's id
  // The value the text states beside the mention, normalised: digits for
  // numbers and number words ("two" -> "2", "x2" -> "2"), a quoted literal
  // without its quotes (".cg"), lower case; prefixed "no " when the text
  // drops or removes it ("drop cache_modifier=\".cg\"" -> "no .cg"); "" when
  // the text states none.
  std::string value;
  std::size_t begin = 0, end = 0; // bytes of the mention and its value in the text
  // The tile axis the mention names ("K" for `BLOCK_K`, `TILE_K`, `BK`,
  // "K tile"); "" for none. Two tiles of one lever at one value (`BLOCK_K
  // = 128`, `BLOCK_M = 128`) are two settings.
  std::string axis;
};

// Every lever mention of `text` (LeverVocabulary::mentions) with the value
// stated beside it: after it ("BLOCK_SIZE=512", "num_warps 8 -> 4" (the
// last of a chain), "retuned BLOCK_SIZE to 1024", "hints of 2", "cache
// hints \".cg\""), inside it ("vec4", "ld.global.v2.b32", "two rows"), or
// before it ("4 warps", "3 stages"). In text order.
std::vector<LeverSetting> settings_in(const LeverVocabulary &vocabulary, std::string_view text);

// The tile axis a setting's mention or a code name gives it: `BLOCK_K`,
// `TILE_SIZE_K`, `BK` (upper case, as code spells them), "K tile", "K
// step" -> "K"; "" for none.
std::string tile_axis(std::string_view mention);

// Whether two settings may be of one knob: the same lever and, when both
// name a tile axis, the same axis.
inline bool same_knob(const LeverSetting &a, const LeverSetting &b) {
  return a.lever == b.lever && (a.axis.empty() || b.axis.empty() || a.axis == b.axis);
}

// Whether a setting's value is a name (a layout: "nhwc"; a quoted
// modifier) rather than a number, a boolean or a dropped setting ("no 8").
bool is_named_value(std::string_view value);

// The code name a setting's mention starts with (`BLOCK_S` in "BLOCK_S
// 1->16", `num_warps` in "num_warps=8"); "" for one that starts with its
// value ("4 warps"). Two names of one lever id (BLOCK_S, BLOCK_H) are two
// knobs.
std::string setting_name(std::string_view mention);

// A constant a text sets in the code's own name (`MAX_BLOCK_N`), with the
// value it ends at: "MAX_BLOCK_N from 4096 to 8192" -> {MAX_BLOCK_N, 8192},
// "NUM_SPLITS=16", "GROUP_M 1->8->16" -> 16. Names are as code spells a
// constant: upper-case with an underscore, or a `k` and a capital
// ("kWarps 4->2", kit 48); a lever's other forms ("4 warps") are
// settings_in's.
struct ConstantSetting {
  std::string name, value;
};
std::vector<ConstantSetting> constant_settings_in(std::string_view text);

// What a change text says was done: its first sentence (text::sentences);
// the rest is the run's reason for the lever, often its stock one, which
// may point the other way ("Moved drop APPROX_RSQRT. Cheaper reciprocal
// square root ..."). The whole text when it has no sentence break.
std::string what_a_change_did(const std::string &change);

// What a failed-lever text claims, without the clause giving its cause or
// effect ("because", "since", "so", "which", "; ", " - ", a bracket opening
// with "reverted"): the part whose settings identify the lever.
std::string_view claim_of(std::string_view text);

// Whether a change text's first sentence joins several changes with " + ",
// each a setting ("num_stages 2->3", "ROWS=4") or a switch ("enable
// TOPK_FIRST", "drop EVICT"); not arithmetic ("j + 4"). The run measured
// them as one.
bool claims_several_changes(std::string_view change_text);

// The key of a failed lever: `dsl` and the sorted "lever=value" pairs of
// the settings claim_of(text) states with a value; when it states none, the
// sorted ids of the levers it names; when it names none, `dsl` and the
// claim's normalised words (figures in brackets, verdict
// boilerplate and punctuation dropped). Texts with equal keys are one
// failed lever.
std::string failed_lever_key(const LeverVocabulary &vocabulary, std::string_view text, std::string_view dsl);

// Of a span's kept steps (change texts, oldest first), those no later step
// supersedes: a step whose first sentence only sets levers a later step
// sets again (num_stages 1->2, then 2->1), or names the same knob with
// another verb or value ("drop APPROX_RSQRT", then "enable APPROX_RSQRT"),
// is left out; a step that also says something else stays.
std::vector<std::string> without_superseded_steps(std::vector<std::string> steps, const LeverVocabulary &vocabulary);

// Whether `key` was made from stated lever values (not from the words).
bool is_lever_key(std::string_view key);

} // namespace otm::levers
