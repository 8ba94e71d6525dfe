#include "distill/single_pass_claim.hpp"

#include "code/repeated_passes.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

SinglePassRule SinglePassRule::from_json(const json::Value &section, std::string_view where) {
  SinglePassRule r;
  const auto section_name = levers::rule_section(section, where, "single_pass_claims");
  if (!section_name) return r;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, *section_name);
  r.pass_removal_claims_ = levers::whole_token_regex_at(section, "pass_removal_claims", true, *section_name);
  r.memory_ops_ = levers::whole_token_regex_at(section, "memory_ops", false, *section_name);
  r.c_memory_ops_ = levers::whole_token_regex_at(section, "c_memory_ops", false, *section_name);
  return r;
}

std::optional<std::string> SinglePassRule::contradiction(const std::string &mechanism, std::string_view code) const {
  if (!claims_ || code.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const auto passes = code::pointer_read_in_two_passes(code);
  if (!passes) return std::nullopt;
  return "the cause says the data is read once (\"" + std::string((*claim)[0]) +
         "\"), but the kernel after the "
         "change reads `" +
         passes->name + "` in two loops, neither inside the other (lines " + std::to_string(passes->first_line + 1) +
         " and " + std::to_string(passes->second_line + 1) + ")";
}

std::optional<std::string> SinglePassRule::pass_removal_contradiction(const std::string &mechanism,
                                                                      const diff::DiffReading &diff,
                                                                      bool python) const {
  const auto &ops = python ? memory_ops_ : c_memory_ops_;
  if (!pass_removal_claims_ || !ops) return std::nullopt;
  auto claim = pass_removal_claims_->search(mechanism);
  if (!claim) return std::nullopt;
  std::size_t removed = 0;
  for (const auto &h : diff.hunks)
    for (const auto &line : h.running)
      if (!line.dead && !line.moved && !line.added) removed += ops->find_all(line.code).size();
  // A pass can be removed by making one smaller (per-row partials summed
  // by group: kit 46's S05 and S42, useful, take out 2 and add 8): only a
  // change that takes out none at all removed none.
  if (removed > 0) return std::nullopt;
  return "the cause says the change removed a pass (\"" + std::string((*claim)[0]) +
         "\"), but its running lines take out no load, store, launch or host tensor operation: no pass over "
         "memory is gone";
}

} // namespace otm::distill
