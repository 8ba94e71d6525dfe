#include "levers/compiler_option.hpp"

#include "error/error.hpp"
#include "text/utf8.hpp"

namespace otm::levers {

namespace {

std::shared_ptr<const text::Regex> regex_at(const json::Value &v, const std::string &where) {
  const auto *s = v.as_string();
  if (!s || s->empty()) throw Error(ErrorKind::Usage, where + " must be a non-empty pattern");
  try {
    return std::make_shared<const text::Regex>(*s);
  } catch (const std::exception &e) {
    throw Error(ErrorKind::Usage, where + ": " + e.what());
  }
}

} // namespace

CompilerOption CompilerOption::from_json(const json::Value &option, const std::string &where) {
  CompilerOption o;
  const auto *name = option.get("name").as_string();
  if (!option.is_object() || !name || name->empty())
    throw Error(ErrorKind::Usage, where + " must be an object with a non-empty \"name\"");
  o.name_ = *name;
  const auto *acts = option.get("acts_only_when").as_object();
  if (!acts || !option.get("unused_because").is_object())
    throw Error(ErrorKind::Usage, where + " needs \"acts_only_when\" and \"unused_because\" objects keyed by DSL");
  for (const auto &[dsl, patterns] : *acts) {
    const auto *list = patterns.as_array();
    if (!list) throw Error(ErrorKind::Usage, where + ".acts_only_when." + dsl + " must be a list of patterns");
    auto &res = o.acts_only_when_[text::to_lower(dsl)];
    for (const auto &p : *list) res.push_back(regex_at(p, where + ".acts_only_when." + dsl));
    const auto *reason = option.get("unused_because").get(dsl).as_string();
    if (!reason || reason->empty())
      throw Error(ErrorKind::Usage, where + ".unused_because." + dsl + " must say why the option goes unused");
    o.unused_because_[text::to_lower(dsl)] = *reason;
  }
  o.said_unused_ = regex_at(option.get("said_unused"), where + ".said_unused");
  return o;
}

std::optional<std::string> CompilerOption::unused_because(std::string_view dsl, std::string_view device_code) const {
  auto it = acts_only_when_.find(text::to_lower(dsl));
  if (it == acts_only_when_.end()) return std::nullopt;
  for (const auto &re : it->second)
    if (re->contains(device_code)) return std::nullopt;
  return unused_because_.at(it->first);
}

bool CompilerOption::said_unused(std::string_view text) const { return said_unused_->contains(text); }

} // namespace otm::levers
