#include "distill/retrieval_terms.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "record/leak_shapes.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

TermVocabulary TermVocabulary::from_json(const json::Value &terms, std::string_view where) {
  auto bad = [&](const std::string &what) {
    return Error(ErrorKind::Usage, std::string(where) + ": retrieval_terms" + what);
  };
  const auto *obj = terms.as_object();
  if (!obj) throw bad(" must hold objects of tag -> list of patterns");
  TermVocabulary v;
  for (const auto &[tag, patterns] : *obj) {
    const auto *list = patterns.as_array();
    if (tag.empty() || !list || list->empty()) throw bad(": '" + tag + "' must be a non-empty list of patterns");
    std::string alternation;
    for (const auto &p : *list) {
      const auto *s = p.as_string();
      if (!s || s->empty()) throw bad(": '" + tag + "' holds a pattern that is not a non-empty string");
      if (!alternation.empty()) alternation += '|';
      alternation += *s;
    }
    try {
      v.terms_.push_back({tag, std::make_shared<const text::Regex>("(?i)(?<!\\w)(?:" + alternation + ")(?!\\w)")});
    } catch (const std::exception &e) {
      throw bad(": '" + tag + "': " + e.what());
    }
  }
  return v;
}

std::vector<std::string> TermVocabulary::tags_in(std::string_view text, const Accept &accept) const {
  std::vector<std::string> out;
  for (const auto &t : terms_) {
    if (!accept) {
      if (t.regex->contains(text)) out.push_back(t.tag);
      continue;
    }
    for (const auto &m : t.regex->find_all(text))
      if (accept(m[0])) {
        out.push_back(t.tag);
        break;
      }
  }
  return out;
}

bool TermVocabulary::matches(const std::string &tag, std::string_view text) const {
  for (const auto &t : terms_)
    if (t.tag == tag && t.regex->contains(text)) return true;
  return false;
}

RetrievalTerms RetrievalTerms::from_json(const json::Value &section, std::string_view where) {
  if (!section.is_object()) throw Error(ErrorKind::Usage, std::string(where) + ": retrieval_terms must be an object");
  RetrievalTerms r;
  r.techniques = TermVocabulary::from_json(section.get("techniques"), where);
  r.symptoms = TermVocabulary::from_json(section.get("symptoms"), where);
  return r;
}

namespace {

void add_unique(std::vector<std::string> &list, const std::string &item) {
  if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

} // namespace

void RecordTerms::tag(const std::string &t) { add_unique(tags_, t); }

void RecordTerms::trigger(const std::string &t) {
  if (triggers_.size() < kMaxTriggers) add_unique(triggers_, t);
}

void RecordTerms::techniques_in(std::string_view text, const TermVocabulary::Accept &accept) {
  for (const auto &t : vocabulary_.techniques.tags_in(text, accept)) tag(t);
}

void RecordTerms::symptoms_in(const std::vector<std::string> &texts) {
  for (const auto &t : texts) {
    if (!record::find_leaks(t, true).empty()) continue;
    for (const auto &sentence : text::sentences(t))
      for (const auto &s : vocabulary_.symptoms.tags_in(sentence)) {
        if (std::find(symptoms_.begin(), symptoms_.end(), s) != symptoms_.end()) continue;
        symptoms_.push_back(s);
        trigger(sentence);
      }
  }
}

void RecordTerms::write_to(json::Value &retrieval) const {
  retrieval.set("technique_tags", json::Value::strings(tags_));
  retrieval.set("triggers", json::Value::strings(triggers_));
  if (auto *signals = retrieval.find("signals")) signals->set("symptoms", json::Value::strings(symptoms_));
}

std::string tag_of(std::string_view text) {
  std::string out;
  bool dash = false;
  for (char ch : text::to_lower(text)) {
    bool keep = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (!keep) {
      dash = !out.empty();
      continue;
    }
    if (dash) out += '-';
    dash = false;
    out += ch;
  }
  if (out.size() > 48) out = std::string(text::rstrip_chars(out.substr(0, 48), "-"));
  if (!record::find_leaks(out, true).empty()) return "";
  return out;
}

} // namespace otm::distill
