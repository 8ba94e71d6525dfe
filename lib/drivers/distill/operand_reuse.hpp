// A cause saying an operand is loaded once and reused across rows, checked
// against the kernel after the change (round 19, H20: "reuses the weight
// vector across rows" for ROWS_PER_BLOCK 1 -> 2, while the row loop still
// loads `w + c` for every row). The `operand_reuse` section says which
// words make that claim and which pointers each operand goes by:
//   "operand_reuse": {
//     "claims": ["reuses? (?:the )?weights? (?:vector )?across (?:the )?rows", ...],
//     "through_cache": ["L[12]", ...],  // reuse through a cache: the per-row load is that reuse
//     "operands": [{"words": ["weight", "gamma"], "pointers": ["w", "w_ptr", "gamma_ptr"]}, ...]
//   }
// Such a cause is contradicted when the kernel reads one of the operand's
// pointers inside its loop over rows (code::pointer_read_in_row_loop).
//
//   auto rule = OperandReuseRule::from_json(config.data().get("operand_reuse"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code_after)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class OperandReuseRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static OperandReuseRule from_json(const json::Value &section, std::string_view where);
  // `code_after`: the kernel file after the change.
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code_after) const;

private:
  struct Operand {
    std::shared_ptr<const text::Regex> words;
    std::vector<std::string> pointers;
  };
  std::shared_ptr<const text::Regex> claims_, through_cache_;
  std::vector<Operand> operands_;
};

} // namespace otm::distill
