#include "partition/pitfall.hpp"

#include "text/utf8.hpp"

namespace otm::partition {

namespace {

std::string trimmed(const json::Value &v) {
  if (const auto *s = v.as_string()) return std::string(text::strip(*s));
  if (v.is_null()) return {};
  return std::string(text::strip(v.python_str()));
}

} // namespace

json::Value normalise_pitfall(const json::Value &entry) {
  if (!entry.is_object()) return entry;
  bool newer = false;
  for (const char *k : {"error_type", "error_message", "root_cause", "fix_applied", "lesson"})
    if (entry.contains(k)) newer = true;
  if (!newer) return entry;
  json::Value out = entry;
  auto fill = [&](const char *key, std::string value) {
    if (trimmed(entry.get(key)).empty() && !value.empty()) out.set(key, value);
  };
  std::string pitfall = trimmed(entry.get("error_message"));
  if (pitfall.empty()) pitfall = trimmed(entry.get("error_type"));
  std::string explanation = trimmed(entry.get("root_cause"));
  std::string lesson = trimmed(entry.get("lesson"));
  if (!lesson.empty() && explanation.find(lesson) == std::string::npos)
    explanation = explanation.empty() ? lesson : std::string(text::rstrip_chars(explanation, ". ")) + ". " + lesson;
  fill("pitfall", pitfall);
  fill("explanation", explanation);
  fill("fix", trimmed(entry.get("fix_applied")));
  return out;
}

PitfallText pitfall_text(const json::Value &entry) {
  PitfallText out;
  if (!entry.is_object()) {
    out.text = trimmed(entry);
    return out;
  }
  out.text = trimmed(entry.get("pitfall"));
  std::string detail = trimmed(entry.get("explanation"));
  if (!detail.empty() && out.text.find(detail) == std::string::npos) {
    std::string joined = std::string(text::rstrip_chars(out.text, ".")) + ". " + detail;
    out.text = std::string(text::strip_chars(joined, ". "));
  }
  std::string fix = trimmed(entry.get("fix"));
  if (!fix.empty()) out.fix = fix;
  return out;
}

} // namespace otm::partition
