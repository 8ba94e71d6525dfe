#include "distill/retrieval_terms.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "record/leak_shapes.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

RetrievalTerms RetrievalTerms::from_config(const config::Config &config) {
  const auto &section = config.data().get("retrieval_terms");
  std::string where = config.source_name() + ": retrieval_terms";
  if (!section.is_object()) throw Error(ErrorKind::Usage, where + " must be an object");
  if (!section.get("techniques").is_null())
    throw Error(ErrorKind::Usage, where + ".techniques: the technique vocabulary is now the levers section "
                                          "(levers.<tag>.prose); move each tag's patterns there");
  RetrievalTerms r;
  r.levers = levers::LeverVocabulary::from_config(config);
  r.symptoms = TermVocabulary::from_json(section.get("symptoms"), where + ".symptoms");
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
  for (const auto &t : vocabulary_.levers.prose().tags_in(text, accept)) tag(t);
}

void RecordTerms::symptoms_in(const std::vector<std::string> &texts, Symptoms as) {
  for (const auto &t : texts) {
    if (!record::find_leaks(t, true).empty()) continue;
    for (const auto &sentence : text::sentences(t))
      for (const auto &s : vocabulary_.symptoms.tags_in(sentence)) {
        if (std::find(named_.begin(), named_.end(), s) != named_.end()) continue;
        named_.push_back(s);
        if (as == Symptoms::Observed) symptoms_.push_back(s);
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
