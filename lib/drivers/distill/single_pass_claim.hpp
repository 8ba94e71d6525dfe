// A cause saying the data is read once ("logits are touched once", "a
// single pass over the row", "streams each element once"), checked against
// the kernel it is about (code::pointer_read_in_two_passes): kit 38's Q08
// credited streaming loads to logits "touched once" while its own snippet
// held the `// second pass` loop re-reading them. The `single_pass_claims`
// section says which words make the claim:
//   "single_pass_claims": {"claims": ["(?:touched|read|loaded|streamed) (?:only )?once", ...]}
// Such a cause is contradicted when the kernel reads one pointer in two
// loops neither of which holds the other; a kernel this reader cannot read
// decides nothing.
//
//   auto rule = SinglePassRule::from_json(config.data().get("single_pass_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class SinglePassRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static SinglePassRule from_json(const json::Value &section, std::string_view where);
  // `code`: the kernel file the cause is about (a change's after it).
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code) const;

private:
  std::shared_ptr<const text::Regex> claims_;
};

} // namespace otm::distill
