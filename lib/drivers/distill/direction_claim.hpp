// A cause that says which way a setting moved, checked against the way the
// change moved it (kit 32, U29: "Wider N tiles raise arithmetic intensity
// per A-tile load" as the mechanism of BLOCK_N 256->128, the run's stock
// reason for the earlier widening). The `direction_claims` section says,
// per lever, which words say it grew or shrank and what they are said of:
//   "direction_claims": {
//     "block-size-tuning": {"up": ["wider", "larger"], "down": ["narrower", "smaller"],
//                           "subjects": ["(?:[A-Z]|KV) tiles?", "block sizes?"]},
//     "num-warps-tuning": {"up": ["more"], "down": ["fewer"], "subjects": ["warps?"]}
//   }
// A mechanism states a direction where an up or down word stands right
// before a subject, one word allowed between ("wider N tiles", "more
// warps"). It is contradicted when the change text states that lever's
// setting from one number to another (`BLOCK_N 256->128`) and every such
// setting moved the other way. A change that states no numbers decides
// nothing.
//
//   auto rule = DirectionClaimRule::from_json(config.data().get("direction_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, change, vocabulary)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "levers/lever_vocabulary.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class DirectionClaimRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static DirectionClaimRule from_json(const json::Value &section, std::string_view where);
  // `change`: the run's change text, whose lever settings
  // (levers::settings_in) say which way each lever moved.
  std::optional<std::string> contradiction(const std::string &mechanism, const std::string &change,
                                           const levers::LeverVocabulary &vocabulary) const;
  // The same against the moves a diff makes (a failed attempt's account
  // seldom states its numbers: kit 57, N03, "the wider N tile spills the
  // fp32 accumulator" for `TILE_N = 256` -> `64`).
  struct Move {
    std::string lever, shown; // "TILE_N 256 -> 64"
    int way = 0;              // 1 up, -1 down
  };
  std::optional<std::string> contradiction(const std::string &mechanism, const std::vector<Move> &moves) const;

private:
  struct Lever {
    std::string id;
    std::shared_ptr<const text::Regex> up, down; // "<up word> [word] <subject>"
  };
  std::vector<Lever> levers_;
};

} // namespace otm::distill
