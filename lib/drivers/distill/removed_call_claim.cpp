#include "distill/removed_call_claim.hpp"

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

RemovedCallRule RemovedCallRule::from_json(const json::Value &section, std::string_view where) {
  RemovedCallRule r;
  const auto section_name = levers::rule_section(section, where, "removed_call_claims");
  if (!section_name) return r;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, *section_name);
  if (const auto &names = section.get("not_names"); !names.is_null()) {
    const auto *list = names.as_array();
    if (!list) throw Error(ErrorKind::Usage, *section_name + ".not_names must be a list of words");
    for (const auto &n : *list) {
      const auto *word = n.as_string();
      if (!word) throw Error(ErrorKind::Usage, *section_name + ".not_names must be a list of words");
      r.not_names_.insert(text::to_lower(*word));
    }
  }
  return r;
}

std::optional<std::string> RemovedCallRule::contradiction(const std::string &mechanism,
                                                          std::string_view removed) const {
  if (!claims_) return std::nullopt;
  static const text::Regex named_call(R"((\w+)\s+calls?$)");
  for (const auto &claim : claims_->find_all(mechanism)) {
    auto call = named_call.search(claim[0]);
    if (!call) continue;
    const std::string name = text::to_lower((*call)[1]);
    if (not_names_.count(name) || name.find_first_not_of("0123456789") == std::string::npos) continue;
    if (text::Regex("(?i)\\w*" + name + "\\w*").contains(removed)) continue;
    return "the cause says the change removes `" + name + "` calls (\"" + std::string(claim[0]) +
           "\"), but no line the diff removes calls it: the code before the change had none to remove";
  }
  return std::nullopt;
}

} // namespace otm::distill
