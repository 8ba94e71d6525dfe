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
// Its `pass_removal_claims` say a change removed a pass ("Remove a full
// pass over memory"); such a cause is contradicted when the change's
// running lines of a Python kernel take out none of the `memory_ops`
// (loads, stores, launches, host tensor ops): kit 48's U17 and kit 46's
// S13, each a rearrangement of scale arithmetic that kept every load. A
// change that takes one out may have made a pass smaller, not removed it,
// and is not judged. A C kernel's loads are plain indexing, so its
// `c_memory_ops` count any subscript, launch or host tensor op: only a
// change whose removed lines hold none, a pure arithmetic rewrite (kit
// 50's W05), is judged.
//
//   auto rule = SinglePassRule::from_json(config.data().get("single_pass_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, code)) ...   // why: the reason, for the ledger
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "diff/diff_reading.hpp"
#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::distill {

class SinglePassRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static SinglePassRule from_json(const json::Value &section, std::string_view where);
  // `code`: the kernel file the cause is about (a change's after it).
  std::optional<std::string> contradiction(const std::string &mechanism, std::string_view code) const;
  // `diff`: the change's reading; `python`: whether its kernel is Python
  // (`memory_ops`), else C (`c_memory_ops`).
  std::optional<std::string> pass_removal_contradiction(const std::string &mechanism, const diff::DiffReading &diff,
                                                        bool python) const;

private:
  std::shared_ptr<const text::Regex> claims_, pass_removal_claims_, memory_ops_, c_memory_ops_;
};

} // namespace otm::distill
