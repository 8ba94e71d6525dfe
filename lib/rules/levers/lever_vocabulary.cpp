#include "levers/lever_vocabulary.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "text/utf8.hpp"

namespace otm::levers {

LeverVocabulary LeverVocabulary::from_json(const json::Value &section, std::string_view where) {
  const std::string here = std::string(where) + ": levers";
  const auto *obj = section.as_object();
  if (!obj) throw Error(ErrorKind::Usage, here + " must be an object of lever -> {prose, code}");
  LeverVocabulary v;
  for (const auto &[id, lever] : *obj) {
    if (id.empty() || !lever.is_object())
      throw Error(ErrorKind::Usage, here + ": '" + id + "' must be an object with \"prose\" and optional \"code\"");
    v.prose_.add(id, lever.get("prose"), here + ".prose");
    v.ids_.push_back(id);
    for (auto [key, set] : {std::pair{"acts_on_a_loop", &v.loop_levers_}, std::pair{"on_or_off", &v.on_or_off_levers_},
                            std::pair{"reads_each_input_once", &v.read_once_levers_},
                            std::pair{"named_settings_are_alternatives", &v.alternative_levers_}}) {
      const auto &flag = lever.get(key);
      if (!flag.is_null() && !flag.is_bool())
        throw Error(ErrorKind::Usage, here + ": '" + id + "'." + key + " must be true or false");
      if (flag.truthy()) set->insert(id);
    }
    if (const auto &scales = lever.get("value_scales"); !scales.is_null()) {
      const auto *list = scales.as_array();
      if (!list)
        throw Error(ErrorKind::Usage, here + ": '" + id + "'.value_scales must be a list of positive integers");
      for (const auto &f : *list) {
        auto n = f.as_int();
        if (!n || *n <= 0)
          throw Error(ErrorKind::Usage, here + ": '" + id + "'.value_scales must be a list of positive integers");
        v.scales_[id].push_back(*n);
      }
    }
    if (const auto &option = lever.get("compiler_option"); !option.is_null())
      v.options_.emplace(id, CompilerOption::from_json(option, here + ": '" + id + "'.compiler_option"));
    const auto &code = lever.get("code");
    if (code.is_null()) continue;
    const auto *by_dsl = code.as_object();
    if (!by_dsl)
      throw Error(ErrorKind::Usage, here + ": '" + id + "'.code must be an object of DSL (or \"any\") -> patterns");
    Code c;
    for (const auto &[dsl, patterns] : *by_dsl) {
      auto re = whole_token_regex(patterns, false, here + ": '" + id + "'.code." + dsl);
      if (dsl == "any")
        c.any = std::move(re);
      else
        c.by_dsl.emplace(text::to_lower(dsl), std::move(re));
    }
    v.code_.emplace(id, std::move(c));
  }
  return v;
}

LeverVocabulary LeverVocabulary::from_config(const config::Config &config) {
  return from_json(config.data().get("levers"), config.source_name());
}

const LeverVocabulary &LeverVocabulary::defaults() {
  static const LeverVocabulary v = from_config(config::Config::defaults());
  return v;
}

std::vector<TermVocabulary::Hit> LeverVocabulary::mentions(std::string_view text) const {
  auto hits = prose_.hits_in(text);
  std::vector<TermVocabulary::Hit> out;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    bool inside = false;
    for (std::size_t j = 0; j < hits.size() && !inside; ++j) {
      if (i == j || hits[i].tag == hits[j].tag) continue;
      bool contained = hits[j].begin <= hits[i].begin && hits[i].end <= hits[j].end;
      bool longer = hits[j].end - hits[j].begin > hits[i].end - hits[i].begin;
      inside = contained && longer;
    }
    if (!inside) out.push_back(hits[i]);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.begin < b.begin; });
  return out;
}

std::vector<std::string> LeverVocabulary::named_in(std::string_view text) const {
  auto hits = mentions(text);
  std::vector<std::string> out;
  for (const auto &id : ids_)
    for (const auto &h : hits)
      if (h.tag == id) {
        out.push_back(id);
        break;
      }
  return out;
}

std::string_view claim_part(std::string_view change_text) {
  static const text::Regex cause(
      R"((?i)(?:[\s,]+(?:so that|so|because|since|due to|thanks to|which|thereby|in order to|)"
      R"(to (?:cut|reduce|hide|avoid|remove|keep|let|make|give|halve|lower|raise|increase|overlap|amortis|amortiz)\w*)\b|)"
      R"(\s+[\x{2014}\x{2013}-]{1,2}\s+|;|:\s))");
  auto m = cause.search(change_text);
  return m ? change_text.substr(0, m->begin) : change_text;
}

std::vector<std::string> LeverVocabulary::claimed_in(std::string_view change_text) const {
  return named_in(claim_part(change_text));
}

bool LeverVocabulary::checkable(const std::string &lever, std::string_view dsl) const {
  auto it = code_.find(lever);
  if (it == code_.end()) return false;
  return it->second.any || it->second.by_dsl.count(text::to_lower(dsl));
}

bool LeverVocabulary::in_code(const std::string &lever, std::string_view code, std::string_view dsl) const {
  auto it = code_.find(lever);
  if (it == code_.end()) return false;
  if (it->second.any && it->second.any->contains(code)) return true;
  auto d = it->second.by_dsl.find(text::to_lower(dsl));
  return d != it->second.by_dsl.end() && d->second->contains(code);
}

std::vector<std::string> LeverVocabulary::code_forms_in(const std::string &lever, std::string_view code,
                                                        std::string_view dsl) const {
  std::vector<std::string> out;
  auto it = code_.find(lever);
  if (it == code_.end()) return out;
  auto add = [&](const std::shared_ptr<const text::Regex> &r) {
    if (r)
      for (const auto &m : r->find_all(code)) out.emplace_back(m[0]);
  };
  add(it->second.any);
  if (auto d = it->second.by_dsl.find(text::to_lower(dsl)); d != it->second.by_dsl.end()) add(d->second);
  return out;
}

std::vector<std::string> LeverVocabulary::levers_in_code(std::string_view code, std::string_view dsl) const {
  std::vector<std::string> out;
  for (const auto &id : ids_)
    if (in_code(id, code, dsl)) out.push_back(id);
  return out;
}

} // namespace otm::levers
