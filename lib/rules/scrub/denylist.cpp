#include "scrub/denylist.hpp"

#include <algorithm>

#include "io/file.hpp"
#include "text/utf8.hpp"

namespace otm::scrub {

namespace {

// Backslash-escapes every ASCII character that is not alphanumeric, so a
// term is matched literally (PCRE2 treats an escaped non-alphanumeric as
// itself); non-ASCII bytes are copied as they are.
std::string escape(const std::string &term) {
  std::string out;
  for (char c : term) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && !std::isalnum(u)) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

} // namespace

Denylist Denylist::from_terms(std::vector<std::string> terms) {
  Denylist d;
  for (auto &t : terms) {
    auto s = std::string(text::strip(t));
    if (!s.empty()) d.terms_.push_back(std::move(s));
  }
  std::stable_sort(d.terms_.begin(), d.terms_.end(), [](const std::string &a, const std::string &b) {
    return text::code_points(a) > text::code_points(b);
  });
  if (d.terms_.empty()) return d;
  std::string pattern = "(?i)(?:";
  for (std::size_t i = 0; i < d.terms_.size(); ++i) {
    if (i) pattern += "|";
    pattern += escape(d.terms_[i]);
  }
  pattern += ")";
  d.regex_ = std::make_shared<text::Regex>(pattern);
  return d;
}

Denylist Denylist::load(const std::filesystem::path &file) {
  std::string content;
  try {
    content = text::replace_invalid_utf8(io::read_file(file));
  } catch (const io::IoError &e) {
    // A denylist that silently reads as empty lets every private term
    // through: refuse the run instead (exit 2).
    throw io::IoError(std::string(e.what()) +
                      "; the private denylist (--denylist / ATREX_WIKI_DENYLIST) must be a readable file: fix the "
                      "path or unset it");
  }
  std::vector<std::string> terms;
  std::size_t pos = 0;
  while (pos <= content.size()) {
    auto nl = content.find('\n', pos);
    std::string_view line(content.data() + pos, (nl == std::string::npos ? content.size() : nl) - pos);
    auto trimmed = text::strip(line);
    if (!trimmed.empty() && trimmed.front() != '#') terms.emplace_back(trimmed);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return from_terms(std::move(terms));
}

std::string Denylist::redact(std::string_view text) const {
  if (!regex_) return std::string(text);
  return regex_->replace(text, kPrivateIdentifier);
}

void Denylist::redact_strings(json::Value &v) const {
  if (!regex_) return;
  if (const auto *s = v.as_string()) {
    v = json::Value(redact(*s));
  } else if (auto *a = v.as_array()) {
    for (auto &e : *a) redact_strings(e);
  } else if (auto *o = v.as_object()) {
    for (auto &[key, child] : *o) redact_strings(child);
  }
}

Denylist Denylist::from_setting(const std::optional<std::string> &path) {
  if (!path || path->empty()) return {};
  return load(io::expand_user(*path));
}

} // namespace otm::scrub
