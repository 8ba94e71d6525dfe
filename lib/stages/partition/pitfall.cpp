#include "partition/pitfall.hpp"

#include "text/utf8.hpp"
#include "trace/step_record.hpp"

namespace otm::partition {

namespace {

std::string trimmed(const json::Value &v) {
  if (const auto *s = v.as_string()) return std::string(text::strip(*s));
  if (v.is_null()) return {};
  return std::string(text::strip(v.python_str()));
}

} // namespace

PitfallText pitfall_text(const json::Value &raw) {
  json::Value entry = trace::normalise_pitfall(raw);
  PitfallText out;
  if (!entry.is_object()) {
    out.text = trimmed(entry);
    out.claim = out.text;
    return out;
  }
  out.text = trimmed(entry.get("pitfall"));
  out.claim = out.text;
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
