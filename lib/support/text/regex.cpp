#include "text/regex.hpp"

#include <pcre2.h>

#include <algorithm>

#include "text/utf8.hpp"

namespace otm::text {

struct Regex::Impl {
  pcre2_code *code = nullptr;
  uint32_t capture_count = 0;
  bool jit = false; // JIT-compiled: PCRE2 then skips the UTF check (MATCH_INVALID_UTF)
  ~Impl() {
    if (code) pcre2_code_free(code);
  }
};

namespace {

// One match-data buffer per thread, grown to the largest capture count seen:
// pcre2_match_data_create_from_pattern per call was a malloc and a free per
// match.
pcre2_match_data *thread_match_data(uint32_t pairs) {
  struct Holder {
    pcre2_match_data *md = nullptr;
    uint32_t pairs = 0;
    ~Holder() {
      if (md) pcre2_match_data_free(md);
    }
  };
  thread_local Holder h;
  if (!h.md || h.pairs < pairs) {
    if (h.md) pcre2_match_data_free(h.md);
    h.pairs = std::max<uint32_t>(pairs, 16);
    h.md = pcre2_match_data_create(h.pairs, nullptr);
    if (!h.md) throw RegexError(ErrorKind::Refused, "cannot allocate regex match data");
  }
  return h.md;
}

} // namespace

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
    throw RegexError(ErrorKind::UnreadableInput, "bad regular expression /" + pattern_ + "/ at offset " +
                                                     std::to_string(offset) + ": " +
                                                     reinterpret_cast<const char *>(msg));
  }
  pcre2_pattern_info(impl_->code, PCRE2_INFO_CAPTURECOUNT, &impl_->capture_count);
  // JIT is an optimisation only; without it the interpreter gives the same answers.
  impl_->jit = pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE) == 0;
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

bool Regex::matches(std::string_view subject, std::size_t start, Anchor anchor, bool valid_utf) const {
  pcre2_match_data *md = thread_match_data(impl_->capture_count + 1);
  uint32_t opts = 0;
  if (anchor != Anchor::None) opts |= PCRE2_ANCHORED;
  if (anchor == Anchor::Both) opts |= PCRE2_ENDANCHORED;
  // The interpreter re-validates the whole subject on every call; a caller
  // that checked it once says so. (JIT code with MATCH_INVALID_UTF checks
  // nothing either way.)
  if (valid_utf && !impl_->jit) opts |= PCRE2_NO_UTF_CHECK;
  int rc = match_bounded(impl_->code, subject, start, opts, md);
  if (rc < 0) {
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(rc, msg, sizeof msg);
    throw RegexError(ErrorKind::Refused, "matching /" + std::string(prefix_code_points(pattern_, 80)) + "/ against " +
                                             std::to_string(subject.size()) +
                                             " bytes of text failed: " + reinterpret_cast<const char *>(msg));
  }
  return true;
}

bool Regex::contains(std::string_view subject) const { return matches(subject, 0, Anchor::None, false); }

bool Regex::run_into(std::string_view subject, std::size_t start, Anchor anchor, bool valid_utf, Match &m) const {
  if (!matches(subject, start, anchor, valid_utf)) return false;
  const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(thread_match_data(impl_->capture_count + 1));
  m.groups.assign(impl_->capture_count + 1, std::nullopt);
  for (uint32_t i = 0; i <= impl_->capture_count; ++i) {
    if (ov[2 * i] == PCRE2_UNSET) continue;
    m.groups[i] = subject.substr(ov[2 * i], ov[2 * i + 1] - ov[2 * i]);
  }
  m.begin = ov[0];
  m.end = ov[1];
  return true;
}

std::optional<Match> Regex::run(std::string_view subject, std::size_t start, Anchor anchor) const {
  Match m;
  if (!run_into(subject, start, anchor, false, m)) return std::nullopt;
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

void Regex::for_each_match(std::string_view subject, const std::function<void(const Match &)> &fn) const {
  bool valid = impl_->jit || is_valid_utf8(subject);
  Match m;
  std::size_t pos = 0;
  while (pos <= subject.size()) {
    if (!run_into(subject, pos, Anchor::None, valid, m)) break;
    std::size_t b = m.begin, e = m.end;
    fn(m);
    if (e == b) {
      if (e >= subject.size()) break;
      pos = next_char(subject, e);
    } else {
      pos = e;
    }
  }
}

std::vector<Match> Regex::find_all(std::string_view subject) const {
  std::vector<Match> out;
  for_each_match(subject, [&](const Match &m) { out.push_back(m); });
  return out;
}

namespace {
// re.sub's loop: the text between matches copied, `put` appends each
// match's replacement.
std::string substitute(const Regex &re, std::string_view subject,
                       const std::function<void(const Match &, std::string &)> &put) {
  std::string out;
  std::size_t last = 0;
  bool any = false;
  re.for_each_match(subject, [&](const Match &m) {
    if (!any) out.reserve(subject.size());
    any = true;
    out.append(subject.substr(last, m.begin - last));
    put(m, out);
    last = m.end;
  });
  if (!any) return std::string(subject);
  out.append(subject.substr(last));
  return out;
}
} // namespace

std::string Regex::replace(std::string_view subject, const std::function<std::string(const Match &)> &fn) const {
  return substitute(*this, subject, [&](const Match &m, std::string &out) { out += fn(m); });
}

std::string Regex::replace(std::string_view subject, std::string_view replacement) const {
  return substitute(*this, subject, [&](const Match &, std::string &out) { out.append(replacement); });
}

std::pair<std::string_view, std::optional<std::string_view>> Regex::split_once(std::string_view subject) const {
  auto m = search(subject);
  if (!m) return {subject, std::nullopt};
  return {subject.substr(0, m->begin), subject.substr(m->end)};
}

} // namespace otm::text
