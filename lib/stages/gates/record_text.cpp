#include "gates/record_text.hpp"

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

std::string record_id_or(const json::Value &record, std::string_view fallback) {
  const auto *s = record.get("id").as_string();
  return s ? *s : std::string(fallback);
}

} // namespace otm::gates
