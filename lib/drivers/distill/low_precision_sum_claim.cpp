#include "distill/low_precision_sum_claim.hpp"

#include <algorithm>
#include <cctype>

#include "code/accumulators.hpp"
#include "code/loop_bounds.hpp"
#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "text/code_list.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

LowPrecisionSumRule LowPrecisionSumRule::from_json(const json::Value &section, std::string_view where) {
  LowPrecisionSumRule r;
  const auto section_name = levers::rule_section(section, where, "low_precision_sums");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.long_sums_ = levers::whole_token_regex_at(section, "long_sums", true, here);
  if (const auto &n = section.get("short_sum_terms"); !n.is_null()) {
    if (!n.as_int() || *n.as_int() < 1)
      throw Error(ErrorKind::Usage, here + ": \"short_sum_terms\" must be a positive integer");
    r.short_sum_terms_ = *n.as_int();
  }
  return r;
}

std::optional<std::string> LowPrecisionSumRule::contradiction(const std::string &mechanism,
                                                              std::string_view code) const {
  if (!claims_ || code.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const auto sums = code::running_sums(code);
  if (sums.empty() || std::any_of(sums.begin(), sums.end(), [](const code::RunningSum &s) {
        return s.precision != code::RunningSum::Precision::Fp32;
      }))
    return std::nullopt;
  std::vector<std::string> names;
  for (const auto &s : sums) names.push_back(s.name);
  return "the cause says the sums are kept in low precision (\"" + std::string((*claim)[0]) +
         "\"), but every running sum of the kernel stays fp32 (" + text::quoted_code_list(names) +
         "): what the change rounds is what goes into them, not the sums";
}

std::optional<std::string> LowPrecisionSumRule::short_sum_contradiction(const std::string &mechanism,
                                                                        std::string_view code,
                                                                        const json::Value &fixed_axes) const {
  if (!long_sums_ || short_sum_terms_ == 0 || code.empty()) return std::nullopt;
  auto claim = long_sums_->search(mechanism);
  if (!claim) return std::nullopt;
  // A bound's value: a literal, or a fixed axis the name spells in any case.
  auto value_of = [&](const std::string &bound) -> std::optional<long long> {
    if (std::isdigit(static_cast<unsigned char>(bound.front()))) return std::stoll(bound);
    if (const auto *axes = fixed_axes.as_object())
      for (const auto &[axis, v] : *axes)
        if (text::folded(axis) == text::folded(bound) && v.as_int()) return *v.as_int();
    return std::nullopt;
  };
  const auto sums = code::running_sums(code);
  if (sums.empty()) return std::nullopt;
  std::string bounds;
  long long most = 0;
  for (const auto &s : sums) {
    auto bound = code::enclosing_loop_bound(code, s.line);
    if (!bound || bound->size() > 64) return std::nullopt;
    auto n = value_of(*bound);
    if (!n || *n > short_sum_terms_) return std::nullopt;
    most = std::max(most, *n);
    bounds += (bounds.empty() ? "`" : ", `") + s.name + "` over `" + *bound + "`";
  }
  return "the cause says the sum is long (\"" + std::string((*claim)[0]) +
         "\"), but every running sum of the kernel adds at most " + std::to_string(most) + " terms in its loop (" +
         bounds + "): what fails is the rounding, not the length";
}

} // namespace otm::distill
