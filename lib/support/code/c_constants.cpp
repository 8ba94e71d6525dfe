#include "code/c_constants.hpp"

#include <set>

#include "code/python_expr.hpp"
#include "text/regex.hpp"

namespace otm::code {

std::string python_of_c(const std::string &c) {
  static const text::Regex suffix(R"(\b(\d+)[uUlL]+\b)");
  static const text::Regex static_cast_of(R"(\bstatic_cast\s*<[^<>]*>\s*\()");
  static const text::Regex integral_cast(
      R"(\(\s*(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|long|long\s+long|size_t|int64_t|int32_t|uint32_t|uint64_t|unsigned)\s*\))");
  static const text::Regex std_prefix(R"(\bstd\s*::\s*(?=(?:min|max)\b))");
  static const text::Regex divide(R"(/)");
  static const text::Regex logical_not(R"(!(?!=))");
  std::string s = suffix.replace(c, [](const text::Match &m) { return std::string(m[1]); });
  s = static_cast_of.replace(s, "(");
  s = integral_cast.replace(s, "");
  s = std_prefix.replace(s, "");
  s = divide.replace(s, "//");
  for (auto [from, to] : {std::pair<std::string_view, std::string_view>{"&&", " and "}, {"||", " or "}})
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return logical_not.replace(s, " not ");
}

std::optional<long long> evaluate_c_integer(std::string_view expression, const CConstants &constants) {
  Bindings names;
  for (const auto &[name, value] : constants) names.emplace(name, std::to_string(value));
  static const text::Regex boolean(R"(\b(true|false)\b)");
  static const text::Regex integer(R"(^-?\d{1,18}$)");
  const std::string c = boolean.replace(std::string(expression),
                                        [](const text::Match &m) { return std::string(m[1] == "true" ? "1" : "0"); });
  auto value = eval_python(python_of_c(c), names);
  if (!value || !integer.contains(*value)) return std::nullopt;
  return std::stoll(*value);
}

CConstants c_integer_constants(std::string_view c_code) {
  static const text::Regex declared(
      R"(\b(?:static\s+)?(?:inline\s+)?(?:constexpr|const)\s+(?:const\s+)?(?:int|unsigned|unsigned\s+int|long|)"
      R"(long\s+long|bool|size_t|u?int(?:32|64)_t|auto)\s+([A-Za-z_]\w*)\s*=\s*([^;{}]+);)");
  static const text::Regex define(R"((?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]*?)[ \t]*$)");
  struct Definition {
    std::string name, expression;
  };
  std::vector<Definition> definitions;
  declared.for_each_match(c_code, [&](const text::Match &m) {
    definitions.push_back({std::string(m[1]), std::string(m[2])});
  });
  define.for_each_match(c_code, [&](const text::Match &m) {
    definitions.push_back({std::string(m[1]), std::string(m[2])});
  });
  CConstants out;
  std::set<std::string, std::less<>> conflicting;
  // Each pass evaluates what the values found so far allow; a definition
  // read before the one it uses is evaluated in a later pass.
  for (std::size_t pass = 0; pass <= definitions.size(); ++pass) {
    bool grew = false;
    for (const auto &d : definitions) {
      if (conflicting.count(d.name)) continue;
      auto v = evaluate_c_integer(d.expression, out);
      if (!v) continue;
      auto [it, fresh] = out.emplace(d.name, *v);
      if (fresh)
        grew = true;
      else if (it->second != *v)
        conflicting.insert(d.name);
    }
    if (!grew) break;
  }
  // A name some definition gives a value this reading cannot find (a local
  // `const int n = x.size(0)` beside a global `n`) has no one value.
  for (const auto &d : definitions)
    if (!evaluate_c_integer(d.expression, out)) conflicting.insert(d.name);
  for (const auto &n : conflicting) out.erase(n);
  return out;
}

} // namespace otm::code
