#include "scrub/scrubber.hpp"

#include <cctype>

#include "record/leak_shapes.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::scrub {

namespace {

// `needle`: a literal every match of the rule contains. A field without it
// cannot match, so the pass (a scan and a copy of the field) is skipped;
// the output is the same by construction (replace returns its input
// unchanged when nothing matches).
struct Rule {
  text::Regex regex;
  const char *replacement;
  const char *needle;
};

bool may_match(std::string_view t, const char *needle) { return t.find(needle) != std::string_view::npos; }

// §1 step 4. The git-command rule takes the command and its option/revision
// tokens only (or a whole backticked span), not the rest of the line, so
// "git log --oneline shows the revert" keeps "shows the revert".
const std::vector<Rule> &trace_rules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> r;
    r.push_back({text::Regex(R"(`\s*git\s+(?:log|show|diff|blame)\b[^`\n]*`)"), "the history", "git"});
    r.push_back(
        {text::Regex(
             R"(\bgit\s+(?:log|show|diff|blame)\b(?:[ \t]+(?:--(?:[ \t]+[\w*-]*[./][\w./*-]*)+|-[\w=.:/-]*|[0-9a-f]{7,40}(?:\.\.\.?[0-9a-f]{7,40})?\b|HEAD[~^\d]*|[\w./-]+\.\.\.?[\w./-]+))*)"),
         "the history", "git"});
    r.push_back({text::Regex(R"(\bprofiles?/[\w./*-]+)"), "the profile", "profile"});
    r.push_back({text::Regex(R"(\bmemory/[vV]?\d+[\w.-]*\.json\b)"), "the step record", "memory/"});
    r.push_back(
        {text::Regex(R"(\bversions/kernel_[vV]\d+\.(?:py|cu|cuh|hip|cpp)\b)"), "that snapshot", "versions/kernel_"});
    r.push_back({text::Regex(R"(\bkernel_[vV]\d+\.py\b)"), "that snapshot", "kernel_"});
    r.push_back({text::Regex(R"(\b(?:kernel|reference|test_kernel|bench)\.py\b)"), "the kernel source", ".py"});
    r.push_back({text::Regex(R"(\b(?:definition|solution|workload)\.jsonl?\b)"), "the trace metadata", ".json"});
    r.push_back({text::Regex(R"(\bkernel_opt_\d+_[\w-]+)"), "this operator", "kernel_opt_"});
    return r;
  }();
  return rules;
}

// §1 step 5, longest forms first: a re-measurement, a bracketed id or list,
// a list; then single ids (record::version_ids, the shared rule).
const text::Regex &remeasurement() {
  static const text::Regex r(R"(\b[vV]\d+_(?:rerun\d*|baseline|base)\b)");
  return r;
}
const text::Regex &bracketed_ids() {
  static const text::Regex r(R"(\((?:from\s+|see\s+|cf\.?\s+|per\s+)?[vV]\d+(?:\s*[,/&]\s*[vV]\d+)*\))");
  return r;
}
const text::Regex &id_list() {
  static const text::Regex r(R"(\b[vV]\d+(?:\s*(?:[,/&]|and|vs\.?)\s*[vV]\d+)+\b)");
  return r;
}

const text::Regex &leading_version() {
  static const text::Regex r(R"(^\s*[vV]\d+\w*\s*[:\-\x{2013}\x{2014}]\s*)");
  return r;
}

std::string capitalised(std::string s, bool upper) {
  if (upper && !s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

} // namespace

// The words for the ids of one match: "this step" when they all name the
// scrubbed text's own version, else "an earlier step" / "earlier steps";
// an upper-case `V` keeps its capital.
std::string Scrubber::version_phrase(std::string_view ids, bool plural) const {
  used_state_ = true;
  bool upper = !ids.empty() && ids.front() == 'V', self = !this_version_.empty(), any_self = false;
  for (const auto &m : record::version_id_regex().find_all(ids)) {
    bool mine = text::to_lower(m[0]) == text::to_lower(this_version_);
    self = self && mine;
    any_self = any_self || mine;
  }
  if (self) return capitalised("this step", upper);
  if (any_self) return capitalised("this and earlier steps", upper);
  return capitalised(plural ? "earlier steps" : "an earlier step", upper);
}

bool holds_replacement_phrase(std::string_view text) {
  static const text::Regex phrases(std::string(R"((?i)\b(?:this(?: and earlier)? steps?|an earlier (?:step|state)|)") +
                                   R"(earlier steps|)" + kPrivateIdentifier + R"()\b)");
  return phrases.contains(text);
}

std::string tidy(std::string_view input) {
  static const text::Regex repeated(R"(\ban earlier step(?:[\s,]+an earlier step)+\b)");
  static const text::Regex article(R"(\b([Tt]he|[Aa]n?|[Tt]his|[Tt]hat)\s+[Aa]n earlier step\b)");
  // Both capitalisations: the reference only rewrote the lower-case form.
  static const text::Regex head(R"(\b([Aa])n earlier step\s+(?:HEAD|head)\b)");
  static const text::Regex this_step(R"(\b([Tt]he|[Aa]n?|[Tt]his)\s+[Tt]his step\b)");
  // "shape 3f2a91bc" would read "shape shape-1"; "Shape" keeps its capital.
  static const text::Regex shape_shape(R"(\b([Ss])hape\s+shape-(\d+)\b)");
  static const text::Regex empty_brackets(R"([(\[]\s*[)\]])");
  static const text::Regex space_punct(R"(\s+([,;:]))");
  // A percent sign joins only a number ("12 %" -> "12%"); "M % 4" is kept.
  static const text::Regex space_percent(R"((?<=\d)\s+%)");
  static const text::Regex space_period(R"(\s+\.(?=\s|$))");
  static const text::Regex spaces(R"(\s{2,})");
  // A dot that starts a word (".cs stores", ".nc loads") is not debris.
  static const text::Regex leading(R"(^(?:[:;,\-\x{2013}\x{2014}\s]|\.(?!\w))+)");
  // Each pass is skipped when the text lacks a literal all its matches hold
  // (the same output: see Rule::needle).
  std::string t(input);
  if (may_match(t, "an earlier step")) t = repeated.replace(t, "earlier steps");
  if (may_match(t, "n earlier step")) {
    t = article.replace(t, [](const text::Match &m) {
      char c = m[1].empty() ? 'a' : m[1][0];
      return std::string(c >= 'A' && c <= 'Z' ? "An earlier step" : "an earlier step");
    });
  }
  if (may_match(t, "n earlier step"))
    t = head.replace(t, [](const text::Match &m) { return std::string(m[1]) + "n earlier state"; });
  if (may_match(t, "his step"))
    t = this_step.replace(t, [](const text::Match &m) { return capitalised("this step", m[1][0] <= 'Z'); });
  if (may_match(t, "shape-"))
    t = shape_shape.replace(t, [](const text::Match &m) { return std::string(m[1]) + "hape-" + std::string(m[2]); });
  if (t.find_first_of("([") != std::string::npos) t = empty_brackets.replace(t, "");
  if (t.find_first_of(",;:") != std::string::npos)
    t = space_punct.replace(t, [](const text::Match &m) { return std::string(m[1]); });
  if (may_match(t, "%")) t = space_percent.replace(t, "%");
  if (may_match(t, ".")) t = space_period.replace(t, ".");
  // Two white-space characters in a row: two ASCII spaces, or any
  // non-ASCII byte (\s with UCP takes Unicode spaces).
  auto loose = [](unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || c >= 0x80; };
  bool may_have_run = false;
  for (std::size_t i = 0; i + 1 < t.size() && !may_have_run; ++i)
    may_have_run = loose(static_cast<unsigned char>(t[i])) && loose(static_cast<unsigned char>(t[i + 1]));
  if (may_have_run) t = spaces.replace(t, " ");
  t = std::string(text::strip(t));
  return leading.replace(t, "");
}

std::string Scrubber::label(const std::string &token) {
  auto it = labels_.find(token);
  if (it != labels_.end()) return it->second;
  std::string l = "shape-" + std::to_string(labels_.size() + 1);
  labels_.emplace(token, l);
  return l;
}

std::string Scrubber::substitute(std::string_view input, bool at_text_start) {
  std::string t(input);
  if (denylist_ && denylist_->regex()) t = denylist_->regex()->replace(t, kPrivateIdentifier);
  for (const auto &shape : record::store_leak_shapes())
    if (shape.may_occur_in(t)) t = shape.regex->replace(t, shape.replacement);
  if (record::may_hold_workload_hash(t))
    t = record::workload_hash_regex().replace(t, [&](const text::Match &m) {
      used_state_ = true;
      return label(std::string(m[0]));
    });
  for (const auto &rule : trace_rules())
    if (may_match(t, rule.needle)) t = rule.regex.replace(t, rule.replacement);
  if (!record::may_hold_version_id(t)) return t; // every pass left needs a version id
  if (at_text_start) t = leading_version().replace(t, "");
  if (may_match(t, "_")) t = remeasurement().replace(t, "a re-measurement");
  // A bracket or list is rewritten only when each of its ids is one (a
  // mnemonic's `v4` in a list stays, and so does the list).
  auto all_ids = [&](const text::Match &m) {
    for (const auto &tok : record::version_id_regex().find_all(m[0]))
      if (!record::is_version_id(t, m.begin + tok.begin, m.begin + tok.end)) return false;
    return true;
  };
  t = bracketed_ids().replace(t, [&](const text::Match &m) {
    if (!all_ids(m)) return std::string(m[0]);
    auto open = m[0].find_first_of("vV");
    return "(" + version_phrase(m[0].substr(open), false) + ")";
  });
  t = id_list().replace(
      t, [&](const text::Match &m) { return all_ids(m) ? version_phrase(m[0], true) : std::string(m[0]); });
  return record::replace_version_ids(t, [&](std::string_view id) { return version_phrase(id, false); });
}

const std::string *ScrubMemo::find(bool prose, std::string_view text) const {
  const auto &m = prose ? prose_ : comment_;
  auto it = m.find(text);
  return it == m.end() ? nullptr : &it->second;
}

void ScrubMemo::put(bool prose, std::string_view text, const std::string &result) {
  auto &m = prose ? prose_ : comment_;
  if (text.size() <= kMaxText && m.size() < kMaxEntries) m.emplace(std::string(text), result);
}

// prose() or comment() through the memo: a result that depended on the text
// alone is the same for every scrubber of the denylist.
std::string Scrubber::memoised(bool prose, std::string_view text) {
  if (memo_)
    if (const auto *known = memo_->find(prose, text)) return *known;
  used_state_ = false;
  std::string out = prose ? tidy(substitute(text, true)) : substitute(text, false);
  if (memo_ && !used_state_) memo_->put(prose, text, out);
  return out;
}

std::string Scrubber::prose(std::string_view text) {
  if (text.empty()) return {};
  return memoised(true, text);
}

std::string Scrubber::comment(std::string_view text) {
  if (text.empty()) return {};
  return memoised(false, text);
}

} // namespace otm::scrub
