// A cause saying an operand is loaded once and reused across an axis of
// the work (rows, tokens, heads), checked against the kernel after the
// change (round 19, H20: "reuses the weight vector across rows" for
// ROWS_PER_BLOCK 1 -> 2, while the row loop still loads `w + c`; kit 27,
// P11: "the cos/sin row is reused across several heads" for BLOCK_H 1 -> 4,
// while the head loop still loads `cos_ptr`). The `operand_reuse` section
// says which words make that claim, which pointers each operand goes by,
// and what a loop over each axis looks like:
//   "operand_reuse": {
//     "claims": ["reused? (?:\\w+ ){0,4}?across (?:\\w+ )?(?:rows|heads)", ...],
//     "through_cache": ["L[12]", ...],  // reuse through a cache: the per-trip load is that reuse
//     "in_registers": ["registers?", ...], // said held in registers: contradicted by a __shared__ copy
//     "operands": [{"words": ["weight", "gamma"], "pointers": ["w", "w_ptr", "gamma_ptr"]}, ...],
//     "axes": [{"name": "rows", "words": ["rows?", "tokens?"], "loop": "(?i)\\b\\w*(?:row|tok)\\w*\\b"}, ...]
//   }
// The operand is the one the claim's sentence names up to the claim; the
// axes are those the claim names, or every axis when it names none ("q
// and k share one cos/sin fetch"). Such a cause is contradicted when the
// kernel reads one of the operand's pointers inside a loop over one of
// those axes (code::pointer_read_in_axis_loop).
//
//   auto rule = OperandReuseRule::from_json(config.data().get("operand_reuse"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code_after)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "code/source_lexer.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class OperandReuseRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static OperandReuseRule from_json(const json::Value &section, std::string_view where);
  // `code_after`: the kernel file after the change.
  // `language`: the kernel file's (a kernel.py with CUDA strings, or a
  // kernel.cu).
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code_after,
                                           code::Language language = code::Language::Python) const;

private:
  // A cause saying an operand the sentence names is held in registers
  // (`in_registers`: "reuse the bias registers"), on CUDA code that fills a
  // `__shared__` array from its pointer (code::shared_stagings; kit 30 S08,
  // kit 32 U02, where the kernel reads `s_bias`).
  std::optional<std::string> held_elsewhere(const std::string &mechanism, std::string_view code_after,
                                            code::Language language) const;
  struct Operand {
    std::shared_ptr<const text::Regex> words;
    std::vector<std::string> pointers;
  };
  struct Axis {
    std::string name;                         // for the reason ("rows")
    std::shared_ptr<const text::Regex> words; // how a claim names it
    std::shared_ptr<const text::Regex> loop;  // a loop header over it
  };
  std::shared_ptr<const text::Regex> claims_, through_cache_, in_registers_;
  std::vector<Operand> operands_;
  std::vector<Axis> axes_;
};

} // namespace otm::distill
