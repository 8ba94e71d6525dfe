#include "distill/constructs_changed.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "text/code_list.hpp"
#include "text/regex.hpp"

namespace otm::distill {

std::string constructs_changed(const diff::DiffReading &diff, const levers::LeverVocabulary &vocabulary,
                               std::string_view dsl) {
  // More than this on a side is a rewrite, not a construct swapped.
  constexpr std::size_t kMaxNamed = 3;
  // A plain word (`other`) names no construct, nor does a constant's name
  // (`THREADS`, `GQA`): a setting, or a string key.
  static const text::Regex plain_word(R"(^(?:[a-z]+|[A-Z][A-Z0-9_]*)$)");
  std::string added, removed;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running)
      if (!c.dead) (c.added ? added : removed) += c.code + "\n";
  // Each side's forms in first-seen order.
  auto forms_of = [&](const std::string &code) {
    std::vector<std::string> out;
    for (const auto &lever : vocabulary.ids())
      for (auto &f : vocabulary.code_forms_in(lever, code, dsl))
        if (!plain_word.match(f) && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(std::move(f));
    // `exp2` within `tl.exp2` is one construct.
    std::vector<std::string> whole;
    for (const auto &f : out)
      if (std::none_of(out.begin(), out.end(),
                       [&](const std::string &g) { return g != f && g.find(f) != std::string::npos; }))
        whole.push_back(f);
    return whole;
  };
  const auto in = forms_of(added), out = forms_of(removed);
  auto only = [](const std::vector<std::string> &side, const std::vector<std::string> &other) {
    std::vector<std::string> r;
    for (const auto &f : side)
      if (std::find(other.begin(), other.end(), f) == other.end()) r.push_back(f);
    return r;
  };
  const auto adds = only(in, out), drops = only(out, in);
  if ((adds.empty() && drops.empty()) || adds.size() > kMaxNamed || drops.size() > kMaxNamed) return {};
  std::string said = " In the code, the change ";
  if (!adds.empty()) said += "adds " + text::quoted_code_list(adds);
  if (!drops.empty()) said += std::string(adds.empty() ? "" : " and ") + "drops " + text::quoted_code_list(drops);
  return said + ".";
}

} // namespace otm::distill
