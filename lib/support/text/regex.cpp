#include "text/regex.hpp"

#include <pcre2.h>

namespace otm::text {

struct Regex::Impl {
  pcre2_code *code = nullptr;
  ~Impl() {
    if (code) pcre2_code_free(code);
  }
};

Regex::Regex(std::string_view pattern) : pattern_(pattern), impl_(std::make_unique<Impl>()) {
  int err = 0;
  PCRE2_SIZE offset = 0;
  pcre2_compile_context *ctx = pcre2_compile_context_create(nullptr);
  pcre2_set_newline(ctx, PCRE2_NEWLINE_LF);
  impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern_.data()), pattern_.size(),
                              PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &err, &offset, ctx);
  pcre2_compile_context_free(ctx);
  if (!impl_->code) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(err, msg, sizeof msg);
    throw RegexError("bad regular expression /" + pattern_ + "/ at offset " + std::to_string(offset) + ": " +
                     reinterpret_cast<const char *>(msg));
  }
  // JIT is an optimisation only; without it the interpreter gives the same answers.
  pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE);
}

Regex::~Regex() = default;
Regex::Regex(Regex &&) noexcept = default;
Regex &Regex::operator=(Regex &&) noexcept = default;

std::optional<Match> Regex::run(std::string_view subject, std::size_t start, Anchor anchor) const {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  uint32_t opts = 0;
  if (anchor != Anchor::None) opts |= PCRE2_ANCHORED;
  if (anchor == Anchor::Both) opts |= PCRE2_ENDANCHORED;
  int rc =
      pcre2_match(impl_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start, opts, md, nullptr);
  if (rc < 0) {
    pcre2_match_data_free(md);
    if (rc == PCRE2_ERROR_NOMATCH) return std::nullopt;
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    throw RegexError("matching /" + pattern_ + "/ failed: " + reinterpret_cast<const char *>(msg));
  }
  uint32_t count = pcre2_get_ovector_count(md);
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
  Match m;
  uint32_t capture_count = 0;
  pcre2_pattern_info(impl_->code, PCRE2_INFO_CAPTURECOUNT, &capture_count);
  m.groups.resize(capture_count + 1);
  for (uint32_t i = 0; i < count && i <= capture_count; ++i) {
    if (ov[2 * i] == PCRE2_UNSET) continue;
    m.groups[i] = subject.substr(ov[2 * i], ov[2 * i + 1] - ov[2 * i]);
  }
  m.begin = ov[0];
  m.end = ov[1];
  pcre2_match_data_free(md);
  return m;
}

std::optional<Match> Regex::search(std::string_view subject, std::size_t start) const {
  return run(subject, start, Anchor::None);
}
std::optional<Match> Regex::match(std::string_view subject) const { return run(subject, 0, Anchor::Start); }
std::optional<Match> Regex::fullmatch(std::string_view subject) const { return run(subject, 0, Anchor::Both); }

namespace {
// Advances one UTF-8 code point (an empty match must not split a character).
std::size_t next_char(std::string_view s, std::size_t i) {
  ++i;
  while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}
} // namespace

std::vector<Match> Regex::find_all(std::string_view subject) const {
  std::vector<Match> out;
  std::size_t pos = 0;
  while (pos <= subject.size()) {
    auto m = search(subject, pos);
    if (!m) break;
    std::size_t b = m->begin, e = m->end;
    out.push_back(std::move(*m));
    if (e == b) {
      if (e >= subject.size()) break;
      pos = next_char(subject, e);
    } else {
      pos = e;
    }
  }
  return out;
}

std::string Regex::replace(std::string_view subject, const std::function<std::string(const Match &)> &fn) const {
  std::string out;
  std::size_t last = 0;
  for (const auto &m : find_all(subject)) {
    out.append(subject.substr(last, m.begin - last));
    out += fn(m);
    last = m.end;
  }
  out.append(subject.substr(last));
  return out;
}

std::string Regex::replace(std::string_view subject, std::string_view replacement) const {
  std::string r(replacement);
  return replace(subject, [&](const Match &) { return r; });
}

std::pair<std::string_view, std::optional<std::string_view>> Regex::split_once(std::string_view subject) const {
  auto m = search(subject);
  if (!m) return {subject, std::nullopt};
  return {subject.substr(0, m->begin), subject.substr(m->end)};
}

} // namespace otm::text
