#include "text/regex.hpp"

#include <pcre2.h>

#include "text/utf8.hpp"

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

namespace {

// Matching resources of one thread: a JIT stack that grows up to 16 MiB
// (PCRE2's default is 32 KiB on the machine stack, which a 4,000-deep path
// or 12,000 repeated tokens exhaust), and for the interpreter, which the
// match falls back to when even that is too small, a heap limit of 1 GiB
// (default 20 MiB). A regex must never abort a stage on odd input.
struct MatchResources {
  pcre2_jit_stack *jit_stack = nullptr;
  pcre2_match_context *jit = nullptr;
  pcre2_match_context *interpreter = nullptr;
  MatchResources() {
    jit_stack = pcre2_jit_stack_create(32 * 1024, 16 * 1024 * 1024, nullptr);
    jit = pcre2_match_context_create(nullptr);
    if (jit && jit_stack) pcre2_jit_stack_assign(jit, nullptr, jit_stack);
    interpreter = pcre2_match_context_create(nullptr);
    if (interpreter) pcre2_set_heap_limit(interpreter, 1024 * 1024); // KiB
  }
  ~MatchResources() {
    pcre2_match_context_free(interpreter);
    pcre2_match_context_free(jit);
    pcre2_jit_stack_free(jit_stack);
  }
  MatchResources(const MatchResources &) = delete;
  MatchResources &operator=(const MatchResources &) = delete;
};

MatchResources &match_resources() {
  thread_local MatchResources r;
  return r;
}

// pcre2_match with the thread's JIT stack; on a JIT stack overflow, the
// same match by the interpreter (same answers, heap instead of stack).
int match_bounded(const pcre2_code *code, std::string_view subject, std::size_t start, uint32_t opts,
                  pcre2_match_data *md) {
  MatchResources &res = match_resources();
  auto subj = reinterpret_cast<PCRE2_SPTR>(subject.data());
  int rc = pcre2_match(code, subj, subject.size(), start, opts, md, res.jit);
  if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
    rc = pcre2_match(code, subj, subject.size(), start, opts | PCRE2_NO_JIT, md, res.interpreter);
  return rc;
}

} // namespace

Regex::~Regex() = default;
Regex::Regex(Regex &&) noexcept = default;
Regex &Regex::operator=(Regex &&) noexcept = default;

std::optional<Match> Regex::run(std::string_view subject, std::size_t start, Anchor anchor) const {
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  uint32_t opts = 0;
  if (anchor != Anchor::None) opts |= PCRE2_ANCHORED;
  if (anchor == Anchor::Both) opts |= PCRE2_ENDANCHORED;
  int rc = match_bounded(impl_->code, subject, start, opts, md);
  if (rc < 0) {
    pcre2_match_data_free(md);
    if (rc == PCRE2_ERROR_NOMATCH) return std::nullopt;
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    throw RegexError("matching /" + std::string(prefix_code_points(pattern_, 80)) + "/ against " +
                     std::to_string(subject.size()) + " bytes of text failed: " + reinterpret_cast<const char *>(msg));
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
