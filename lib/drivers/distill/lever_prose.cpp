#include "distill/lever_prose.hpp"

#include <algorithm>
#include <cctype>

#include "record/established_fact.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

std::optional<std::string> nonblank(const std::string &s) {
  if (text::strip(s).empty()) return std::nullopt;
  return std::string(text::strip(s));
}

std::optional<std::string> nonblank(const json::Value &v) {
  const auto *s = v.as_string();
  if (!s) return std::nullopt;
  return nonblank(*s);
}

std::string lever_without_its_cause(const std::string &lever, const levers::LeverVocabulary &vocabulary) {
  static const text::Regex cause(std::string(R"((?i)[\s,;]+(?:)") + kCauseConnective + R"()\s+\S)");
  static const text::Regex verdict(
      R"((?i)\s+(?:(?:is|are|was|were)\s+(?:slower|worse|no faster|not faster|no better|not worth)|)"
      R"([+-]?\d+(?:\.\d+)?\s*%\s+(?:slower|worse|faster|better)\b|)"
      R"(gains?\s+nothing|gained\s+nothing|(?:can ?not|can't|does not|doesn't|did not|didn't)\s|)"
      R"((?:fails?|failed|hurts?|regress(?:es|ed)?|loses?|lost|spills?|spilled|exceeds?|exceeded|leaves?|)"
      R"(seriali[sz](?:es|ed)|exposes?|exposed|oversubscribes?|oversubscribed|idles?|idled|thrash(?:es|ed)?|)"
      R"(starves?|starved|evicts?|evicted|overflows?|overflowed|wastes?|wasted|breaks?|broke)\b|)"
      R"(costs? more|makes? it (?:slower|worse)|)"
      R"((?:returns?|returned|produces?|produced|gives?|gave)\s+(?:NaNs?|infs?|wrong|incorrect|garbage)\b))");
  static const text::Regex figure(std::string(R"(\s*)") + kBracketedFigure + R"(\s*$)");
  // What is left must still say what was tried: 12 characters, or fewer
  // when they set a value, name the code or name a lever with a figure
  // ("ROWS=2", "fast_expf", "bf16 math"), never a lever of prose and its
  // verdict alone ("TMA fails").
  static const text::Regex setting(R"(\b[A-Za-z_]\w*\s*=\s*\S)");
  // A name of the code ("fast_expf", "tl.exp2", "__launch_bounds__") says
  // what was tried on its own.
  static const text::Regex code_name(R"(\b[A-Za-z]\w*_\w+|\b[A-Za-z]\w*\.[A-Za-z_]\w*|__\w+__)");
  auto cut = [&vocabulary](const std::string &s, const text::Regex &re) {
    auto m = re.search(s);
    if (!m) return s;
    std::string head(text::rstrip_chars(std::string_view(s).substr(0, m->begin), " ,;:"));
    bool names = setting.contains(head) || code_name.contains(head) ||
                 (!vocabulary.named_in(head).empty() && std::any_of(head.begin(), head.end(), [](char ch) {
                   return std::isdigit(static_cast<unsigned char>(ch));
                 }));
    bool enough = text::code_points(head) >= 12 || (text::code_points(head) >= 4 && names);
    return enough ? head : s;
  };
  // "(reverted: ...)": the run's verdict and its reason, not the lever; a
  // second sentence is the account's explanation.
  static const text::Regex reverted(R"((?i)\s*\(\s*(?:reverted|dead[- ]end)\b)");
  static const text::Regex next_sentence(R"(\.\s+\S)");
  // "try software-pipeline stages 5", "re-test X", "one more attempt at X",
  // "adopt X": the lever is X (round 7: "before trying try ..."; round 11:
  // "Do not take adopt half-precision accumulation").
  static const text::Regex trying(
      R"((?i)^\s*(?:(?:re-?)?try(?:ing)?|re-?test(?:ing)?|revisit(?:ing)?|experiment(?:ed)?\s*:|(?:one more )?attempt(?:ed)? at|)"
      R"(adopt(?:ing|ed)?|enabl(?:e|ed|ing)|switch(?:ed|ing)? to|(?:changed|set|switched|moved)(?=\s+\S+\s+\S))\s+)");
  std::string out = cut(cut(cut(cut(cut(lever, reverted), next_sentence), cause), verdict), figure);
  std::string bare = trying.replace(out, "");
  return text::code_points(text::strip(bare)) >= 4 ? bare : out;
}

// The figure the run stated beside the lever, verbatim without its
// brackets ("+4.0%").
std::optional<std::string> stated_effect(const std::string &lever) {
  static const text::Regex figure(kBracketedFigure);
  auto m = figure.search(lever);
  if (!m || !m->has(1)) return std::nullopt;
  return std::string(text::strip((*m)[1]));
}

namespace {

// One lever: a sentence without `;`, a comma or ` + ` outside brackets,
// "also", or a second setting arrow ("…; also tried a split-row reduction
// and num_stages=3", "BLOCK_V 4096->8192 + num_warps 8->16").
bool one_lever_sentence(const std::string &sentence) {
  static const text::Regex also(R"((?i)\balso\b)");
  static const text::Regex arrow(R"(->|\x{2192}|=>)");
  if (also.contains(sentence) || arrow.find_all(sentence).size() > 1) return false;
  int depth = 0;
  for (std::size_t i = 0; i < sentence.size(); ++i) {
    char ch = sentence[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if ((ch == ')' || ch == ']' || ch == '}') && depth > 0) --depth;
    if (depth == 0 && (ch == ';' || ch == ',')) return false;
    if (depth == 0 && ch == '+' && i > 0 && sentence[i - 1] == ' ' && i + 1 < sentence.size() && sentence[i + 1] == ' ')
      return false;
  }
  return true;
}

} // namespace

// The change's lever and the reason it was tried: "Changed SPLIT_K 1->4.
// Small-M shapes launch too few CTAs; splitting K fills the machine." is
// one lever, its first sentence; what follows is why the run hoped it would
// pay, never why it failed (stop 44: a generator nobody here wrote states
// every dead-end so, and all of them were refused as naming several
// levers). nullopt when the lever sentence names several levers or a later
// sentence sets another one.
std::optional<LeverAndHope> the_one_lever(const std::string &change) {
  static const text::Regex setting(R"((?i)->|\x{2192}|=>|\balso\b|^\s*(?:and\s+)?(?:tried|set|changed|switched|moved|)"
                                   R"(enabled|dropped|added|replaced|raised|lowered)\b)");
  auto sentences = text::sentences(change);
  if (sentences.empty() || !one_lever_sentence(std::string(sentences.front()))) return std::nullopt;
  LeverAndHope r{std::string(text::rstrip_chars(text::strip(sentences.front()), ".")), {}};
  for (std::size_t i = 1; i < sentences.size(); ++i) {
    if (setting.contains(sentences[i])) return std::nullopt;
    if (auto t = text::strip(sentences[i]); !t.empty()) r.hopes.emplace_back(t);
  }
  return r;
}

// "block size 4096 -> 8192, at block size=8192 ptxas reports spills because
// the tile no longer fits — reverted, 16.93→17.80us (+5.1%)": the reason
// alone, without the lever it repeats from `attempted` and the verdict with
// its figures after it, as long as what is left still states a mechanism.
// A label the run attaches to its verdicts ("(occupancy drop)", "(bank
// conflicts?)": a few words in brackets, no figure) is no part of a reason
// (round 14: a host-side workspace bug filed with "(occupancy drop)" as
// part of its mechanism); the text without the labels that end it.
std::string without_trailing_labels(std::string text) {
  static const text::Regex label(R"(\s*\((?:\s*[A-Za-z][\w'/-]*[?]?){1,4}\s*\)\s*$)");
  text = std::string(text::rstrip_chars(text, " ,;"));
  for (std::string before; before != text;)
    before = text, text = std::string(text::rstrip_chars(label.replace(text, ""), " ,;"));
  return text;
}

std::string the_reason_alone(const std::string &sentence, const std::string &attempted,
                             const record::FactContext &context) {
  static const text::Regex verdict_tail(
      R"((?i)(?:\s*[\x{2014}\x{2013}]\s*|\s+--?\s+|[\s,;]+)(?:reverted|dead[- ]end)\b.*$|\s*\(\s*(?:reverted|dead[- ]end)\b[^()]*\)\s*$)");
  // Only a lever set off as a clause of its own ("X, at ...", "X: ..."),
  // never "X gains nothing because ...".
  static const text::Regex separators(R"(^\s*(?:[,;:\x{2014}\x{2013}]|\s-+\s)\s*)");
  std::string out = sentence;
  std::string head(text::strip(attempted));
  if (!head.empty() && text::to_lower(out).starts_with(text::to_lower(head))) {
    std::string tail = out.substr(head.size());
    if (auto m = separators.search(tail); m && m->begin == 0 && m->end < tail.size()) out = tail.substr(m->end);
  }
  static const text::Regex figure(std::string(R"(\s*)") + kBracketedFigure + R"(\s*$)");
  out = without_trailing_labels(figure.replace(verdict_tail.replace(out, ""), ""));
  return record::states_mechanism(out, context) ? out : sentence;
}

// A sentence names a cause of its own beyond the attempt and the verdict:
// what is left still matches a cause (12 characters at least).
// Its figures ("23.3% slower") aside, what is left must be more than a
// bracketed label the run attached ("8 warps per block 23.3% slower (launch
// overhead dominates)", "(tail effect)": round 14) and no guess.
bool says_more_than(const std::string &sentence, const std::string &attempted, const record::FactContext &context) {
  static const text::Regex figure(R"((?i)[+-]?\d+(?:\.\d+)?\s*%(?:\s+(?:slower|worse|faster|better)\b)?)");
  static const text::Regex label_only(R"(^\s*\([^()]*\)[\s.,;]*$)");
  std::string rest(text::strip(figure.replace(beyond_the_attempt(sentence, attempted), " ")));
  if (text::code_points(rest) < 12 || label_only.contains(rest)) return false;
  // A guess in a label after a stated reason does not unmake the reason.
  if (record::speculative_regex().contains(rest)) {
    rest = without_trailing_labels(rest);
    if (text::code_points(rest) < 12 || record::speculative_regex().contains(rest)) return false;
  }
  return record::mechanism_regex().contains(rest) ||
         (context.correctness_failed && record::accuracy_failure_regex().contains(rest));
}

// A sentence that could stand as the cause of an accuracy failure the
// step's check saw: long enough for the gate, no measurement report, guess
// or pass, and more than its figures once the lever is taken out.
bool explains(const std::string &sentence, const std::string &attempted) {
  static const text::Regex figure(R"((?i)[+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?\s*%?)");
  // Advice is no cause: "check the per-shape table before generalising".
  const auto s = text::strip(sentence);
  if (text::code_points(s) < record::kMinMechanismChars || record::non_mechanism_regex().contains(s) ||
      record::speculative_regex().contains(s) || record::reports_a_pass(s) || is_advice(s))
    return false;
  return text::code_points(text::strip(figure.replace(beyond_the_attempt(sentence, attempted), " "))) >= 24;
}

bool is_advice(std::string_view sentence) {
  static const text::Regex advice(
      R"((?i)^\W*(?:check|see|try|use|avoid|keep|make sure|consider|note|remember|prefer|do not|don't)\b)");
  return advice.contains(sentence);
}

std::string without_revert_marker(const std::string &subject) {
  static const text::Regex marker(R"((?i)^\s*reverted\b[\s.:;,\x{2014}\x{2013}-]*)");
  return marker.replace(subject, "");
}

// A label the run put before its reason ("Why: one tile now spans the
// row"): the record's field already says what the text is.
std::string without_reason_label(const std::string &text) {
  static const text::Regex label(R"(^\s*(?i:why|reason|rationale|mechanism|because)\s*:\s*)");
  std::string out = label.replace(text, "");
  return text::code_points(out) >= 12 ? out : text;
}

std::string comparable_reason(const std::string &text) {
  static const text::Regex label(R"(^\s*[a-z][\w ]{0,24}:\s+)");
  static const text::Regex lead(R"(^\s*(?:because|since|as)\s+)");
  std::string s = lead.replace(label.replace(text::folded(text), ""), "");
  while (!s.empty() && (s.back() == '.' || s.back() == ';' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string beyond_the_attempt(const std::string &sentence, const std::string &attempted) {
  static const text::Regex verdict(
      std::string(R"((?i)\([^()]*\b(?:fail(?:ed|s)?|pass(?:ed)?|correctness|reverted|max_\w*err\w*)\b[^()]*\)|)") +
      kBracketedFigure);
  std::string out = verdict.replace(sentence, " ");
  const std::string lever(text::strip(attempted));
  // An attempt that keeps its cause (too little was left before it) is no
  // repetition to take away.
  if (text::code_points(lever) < 4 || record::mechanism_regex().contains(lever)) return out;
  // ASCII case folding keeps byte offsets (towlower may not).
  auto fold = [](char a) { return a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a; };
  auto at = std::search(out.begin(), out.end(), lever.begin(), lever.end(),
                        [&](char a, char b) { return fold(a) == fold(b); });
  if (at != out.end()) out.erase(at, at + static_cast<std::ptrdiff_t>(lever.size()));
  return out;
}

} // namespace otm::distill
