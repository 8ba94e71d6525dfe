#include "gates/record_text.hpp"

#include "text/utf8.hpp"

namespace otm::gates {

bool is_code_key(std::string_view key) {
  return key == "snippet" || key == "dispatch_snippet" || key == "attempted_code";
}

void walk_scalars(const json::Value &v, const std::string &path, bool in_code,
                  const std::function<void(const std::string &, const json::Value &, bool)> &fn) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o)
      walk_scalars(child, path.empty() ? k : path + "." + k, in_code || is_code_key(k), fn);
  } else if (const auto *a = v.as_array()) {
    for (std::size_t i = 0; i < a->size(); ++i)
      walk_scalars((*a)[i], path + "[" + std::to_string(i) + "]", in_code, fn);
  } else {
    fn(path, v, in_code);
  }
}

std::vector<std::pair<std::string, std::string>> quoted_code(const json::Value &record) {
  std::vector<std::pair<std::string, std::string>> quotes;
  const auto &payload = record.get("payload");
  const auto &impl = payload.get("implementation");
  for (const char *k : {"snippet", "dispatch_snippet"})
    if (const auto *s = impl.get(k).as_string(); s && !text::strip(*s).empty())
      quotes.emplace_back(std::string("implementation.") + k, *s);
  const auto &attempted = payload.get("attempted_code");
  const auto *a = attempted.is_string() ? attempted.as_string() : attempted.get("snippet").as_string();
  if (a && !text::strip(*a).empty()) quotes.emplace_back("attempted_code", *a);
  return quotes;
}

std::string collapse_whitespace(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string record_id_or(const json::Value &record, std::string_view fallback) {
  const auto *s = record.get("id").as_string();
  return s ? *s : std::string(fallback);
}

} // namespace otm::gates
