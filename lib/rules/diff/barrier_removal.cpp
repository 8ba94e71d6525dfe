#include "diff/barrier_removal.hpp"

#include "levers/term_vocabulary.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"

namespace otm::diff {

BarrierRemovalRule BarrierRemovalRule::from_json(const json::Value &section, std::string_view where) {
  BarrierRemovalRule r;
  const auto section_name = levers::rule_section(section, where, "barrier_removal");
  if (!section_name) return r;
  r.barriers_ = levers::whole_token_regex_at(section, "barriers", false, *section_name);
  r.replaced_by_ = levers::whole_token_regex_at(section, "replaced_by", false, *section_name);
  return r;
}

std::optional<std::string> BarrierRemovalRule::removed_barrier(std::string_view diff) const {
  if (!barriers_) return std::nullopt;
  std::size_t removed = 0, added = 0;
  std::string first;
  for (auto line : text::split_lines(diff)) {
    if (line.empty() || line.starts_with("---") || line.starts_with("+++")) continue;
    const char side = line.front();
    if (side != '-' && side != '+') continue;
    const auto code = text::strip(line.substr(1));
    if (code.starts_with("#") || code.starts_with("//")) continue;
    if (side == '+' && replaced_by_ && replaced_by_->contains(code)) return std::nullopt;
    auto m = barriers_->search(code);
    if (!m) continue;
    if (side == '-') {
      if (first.empty()) first = std::string(code);
      ++removed;
    } else {
      ++added;
    }
  }
  if (removed <= added) return std::nullopt;
  return first;
}

std::string BarrierRemovalRule::why_unestablished(const std::string &barrier_line) {
  return "removes a barrier (`" + barrier_line +
         "`): a correctness check that passed once does not show the race it may open is absent";
}

} // namespace otm::diff
