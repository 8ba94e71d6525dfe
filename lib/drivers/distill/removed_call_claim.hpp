// A cause saying the change removes calls of a function, checked against
// the lines the diff removes (kit 59, L08: "removing two pow calls per
// element" where the kernel before the change called no pow: the bias
// corrections already came from the host). The `removed_call_claims`
// section names the phrases that claim it, each ending in "<name> call(s)",
// and the words that are no function's name:
//   "removed_call_claims": {
//     "claims": ["(?:remov|eliminat)\\w*\\s+(?:\\w+\\s+){0,2}?\\w+\\s+calls?"],
//     "not_names": ["function", "kernel"]
//   }
// Such a cause is contradicted when no removed line holds a name that
// contains the called name (`pow` in `powf`, `std::pow`, `tl.math.pow`).
//
//   auto rule = RemovedCallRule::from_json(config.data().get("removed_call_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, removed_lines)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class RemovedCallRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static RemovedCallRule from_json(const json::Value &section, std::string_view where);
  // `removed`: the lines the diff removes.
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view removed) const;

private:
  std::shared_ptr<const text::Regex> claims_;
  std::set<std::string> not_names_;
};

} // namespace otm::distill
