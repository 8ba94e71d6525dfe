#include "diff/function_swap.hpp"

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"

namespace otm::diff {

FunctionSwapRule FunctionSwapRule::from_json(const json::Value &section, std::string_view where) {
  FunctionSwapRule r;
  const auto section_name = levers::rule_section(section, where, "function_swap");
  if (!section_name) return r;
  const auto *families = section.get("families").as_object();
  if (!families || families->empty())
    throw Error(ErrorKind::Usage, *section_name + ": \"families\" must be a non-empty object of pattern lists");
  for (const auto &[name, forms] : *families) {
    (void)forms;
    r.families_.emplace_back(
        name, levers::whole_token_regex_at(section.get("families"), name.c_str(), true, *section_name + ".families"));
  }
  return r;
}

namespace {

// A diff line's code: its comment cut off (`//`, or `#` after code in
// Python; a line that is only a comment or a preprocessor line other than
// `#define` holds none).
std::string_view code_of(std::string_view line) {
  auto code = text::strip(line);
  if (code.starts_with("//") || (code.starts_with("#") && !code.starts_with("#define"))) return {};
  if (auto at = code.find("//"); at != std::string_view::npos) code = code.substr(0, at);
  if (auto at = code.find(" #"); at != std::string_view::npos) code = code.substr(0, at);
  return code;
}

} // namespace

std::optional<FunctionSwap> FunctionSwapRule::swapped(std::string_view diff) const {
  if (families_.empty()) return std::nullopt;
  std::vector<bool> removed(families_.size()), added(families_.size());
  for (auto line : text::split_lines(diff)) {
    if (line.empty() || line.starts_with("---") || line.starts_with("+++")) continue;
    const char side = line.front();
    if (side != '-' && side != '+') continue;
    const auto code = code_of(line.substr(1));
    if (code.empty()) continue;
    for (std::size_t i = 0; i < families_.size(); ++i)
      if (families_[i].second->contains(code)) (side == '-' ? removed : added)[i] = true;
  }
  for (std::size_t f = 0; f < families_.size(); ++f) {
    if (!removed[f] || added[f]) continue;
    for (std::size_t g = 0; g < families_.size(); ++g)
      if (g != f && added[g] && !removed[g]) return FunctionSwap{families_[f].first, families_[g].first};
  }
  return std::nullopt;
}

std::string FunctionSwapRule::why_not_the_lever(const FunctionSwap &swap) {
  return "the attempt's code replaces " + swap.from + " with " + swap.to +
         ": it changed the function the kernel computes, so what the run measured is that change, not the lever's";
}

} // namespace otm::diff
