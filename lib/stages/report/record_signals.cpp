#include "report/record_signals.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "code/inert_changes.hpp"
#include "code/source_lexer.hpp"
#include "diff/diff_reading.hpp"
#include "levers/lever_reading.hpp"
#include "report/added_cause.hpp"
#include "store/record_view.hpp"
#include "text/code_list.hpp"
#include "text/pyformat.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"
#include "workspace/packet_target.hpp"

namespace otm::report {

namespace {

using json::Value;

std::string text_at(const Value &v) {
  const auto *s = v.as_string();
  return s ? std::string(text::strip(*s)) : std::string();
}

std::string plural(std::size_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// At most `n` code points of `s`, an ellipsis marking a cut.
std::string shortened(const std::string &s, std::size_t n) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && points++ == n)
      return std::string(text::rstrip_chars(s.substr(0, i), " ,.;")) + "\xE2\x80\xA6";
  return s;
}

Signal make(const std::string &name, SignalState state, std::string fact, std::string reason) {
  return {name, state, std::move(fact), std::move(reason)};
}

Signal not_read(const std::string &name, std::string fact, std::string reason) {
  return make(name, SignalState::NotRead, std::move(fact), std::move(reason));
}

// The packet's diff, read once for every signal: as the drafter reads it
// (levers, running lines) and line by line (why a changed line is inert).
struct PacketDiff {
  const gates::PacketEntry *packet = nullptr;
  std::optional<std::string_view> after;
  diff::DiffReading reading;
  std::vector<code::DiffLine> lexed;
  code::InertChanges inert;
};

std::optional<PacketDiff> packet_diff(const gates::PacketEntry *packet) {
  if (!packet || packet->code_text.empty() || !packet->packet.get("agent_facing").get("diff_file").is_string())
    return std::nullopt;
  PacketDiff d;
  d.packet = packet;
  if (!packet->code_after.empty()) d.after = std::string_view(packet->code_after);
  d.reading = diff::read_diff(packet->code_text, d.after);
  d.lexed = code::lex_diff(packet->code_text);
  d.inert = code::inert_changes(d.lexed, d.after);
  return d;
}

// What a record claims was done: a strategy's change text (the packet's own
// change text when the record's extends it, as the drafter's disclosure of
// a span does: the earlier steps are the span signal's), an
// anti-strategy's attempt.
std::string claim_text(const Value &record, const std::string &type, const gates::PacketEntry *packet) {
  const auto &p = record.get("payload");
  if (type == "anti-strategy") return text_at(p.get("attempted"));
  if (type != "strategy") return {};
  std::string change = text_at(p.get("change"));
  if (packet) {
    const auto said = workspace::WhatTheRunSaid::from_json(packet->packet.get("agent_facing"));
    const std::string own(text::strip(said.change));
    if (!own.empty() && change.starts_with(own)) return own;
  }
  return change;
}

const char *kNoPacket = "no packet found for this record (by target.id, else by source_repo and version; give the "
                        "workspace that built it)";

Signal claim_in_code(const std::string &type, const std::string &claim, const gates::PacketEntry *packet,
                     const std::optional<PacketDiff> &diff, const std::optional<levers::LeverReading> &levers,
                     const std::string &dsl) {
  const std::string &name = kSignalNames[0];
  bool anti = type == "anti-strategy";
  if (type != "strategy" && !anti) return not_read(name, "-", "a " + type + " claims no change");
  if (claim.empty()) return not_read(name, "-", anti ? "the record states no attempt" : "the record states no change");
  if (!packet) return not_read(name, "no packet", kNoPacket);
  if (!diff || !levers)
    return not_read(name, "no diff", anti ? "the packet carries no diff of the attempt" : "the packet carries no diff");
  const auto &r = *levers;
  const std::string what = anti ? "the attempt" : "the change text";
  if (r.claimed.empty())
    return not_read(name, "names no lever",
                    what + " names no lever of the vocabulary (data/otm-config.json `levers`): nothing to check");
  if (r.checkable.empty())
    return not_read(name, "not checkable",
                    what + " claims " + text::quoted_code_list(r.claimed) + ", with no code form for " +
                        (dsl.empty() ? std::string("its DSL") : "`" + dsl + "`") + ": not checkable in code");
  std::vector<std::string> held; // checkable, not realised, not missing: a running line holds its code unchanged
  for (const auto &l : r.checkable)
    if (std::find(r.realised.begin(), r.realised.end(), l) == r.realised.end() &&
        std::find(r.missing.begin(), r.missing.end(), l) == r.missing.end())
      held.push_back(l);
  std::string found;
  if (!r.realised.empty()) found += "its running changes change " + text::quoted_code_list(r.realised);
  if (!held.empty())
    found += (found.empty() ? "" : "; ") + std::string("a running changed line holds the code of ") +
             text::quoted_code_list(held) + " unchanged";
  if (anti) {
    if (r.missing.size() == r.checkable.size())
      return make(name, SignalState::Warn, "attempt lacks " + text::quoted_code_list(r.missing),
                  "the attempt names " + text::quoted_code_list(r.missing) +
                      ", whose code is in no running change of the attempt's diff: the diff does not show the "
                      "failed lever");
    return make(name, SignalState::Ok, "in the attempt's code",
                "the attempt names " + text::quoted_code_list(r.checkable) + "; in the attempt's diff " + found);
  }
  if (!r.missing.empty())
    return make(name, SignalState::Warn, "no code for " + text::quoted_code_list(r.missing),
                "the change text claims " + text::quoted_code_list(r.checkable) +
                    "; no running change of the diff changes or "
                    "holds the code of " +
                    text::quoted_code_list(r.missing) + (found.empty() ? "" : " (" + found + ")") +
                    ": that claim is not visible in the code");
  return make(name, SignalState::Ok,
              r.realised.empty() ? "held, unchanged" : "changes " + text::quoted_code_list(r.realised),
              "the change text claims " + text::quoted_code_list(r.checkable) + "; " + found);
}

// The lines of the diff a snippet quotes: each run of its lines between
// "@@" headers, found verbatim in the diff in order. Nullopt when a run is
// not in the diff (a snippet that is not the packet's lines).
std::optional<std::set<std::size_t>> quoted_lines(std::string_view snippet, const std::vector<code::DiffLine> &diff) {
  std::vector<std::vector<std::string_view>> runs(1);
  for (std::size_t pos = 0; pos < snippet.size();) {
    auto nl = snippet.find('\n', pos);
    std::string_view line = snippet.substr(pos, (nl == std::string_view::npos ? snippet.size() : nl) - pos);
    if (line.starts_with("@@"))
      runs.emplace_back();
    else
      runs.back().push_back(line);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  std::set<std::size_t> out;
  std::size_t from = 0;
  for (const auto &run : runs) {
    if (run.empty()) continue;
    bool found = false;
    for (std::size_t j = from; j + run.size() <= diff.size() && !found; ++j) {
      std::size_t k = 0;
      while (k < run.size() && diff[j + k].text == run[k]) ++k;
      if (k < run.size()) continue;
      for (k = 0; k < run.size(); ++k) out.insert(j + k);
      from = j + run.size();
      found = true;
    }
    if (!found) return std::nullopt;
  }
  return out;
}

bool is_change(const code::DiffLine &l) {
  return l.role == code::DiffLine::Role::Added || l.role == code::DiffLine::Role::Removed;
}

Signal snippet_runs(const store::RecordView &record, const std::string &type, const std::optional<PacketDiff> &diff,
                    const std::vector<std::string> &claimed_levers, const std::string &dsl, const QualityRules &rules) {
  const std::string &name = kSignalNames[1];
  if (type != "strategy" && type != "anti-strategy")
    return not_read(name, "-", "a " + type + " quotes source, not a change");
  std::string snippet = record.snippet.value_or("");
  if (text::strip(snippet).empty()) return not_read(name, "no snippet", "the record quotes no code");
  // Judged where the snippet sits in the packet's diff (against the kernel
  // after the change); a snippet not found there, by the lexer alone.
  std::optional<std::set<std::size_t>> quoted;
  if (diff) quoted = quoted_lines(snippet, diff->lexed);
  std::string alone; // the snippet as a diff of its own, when it is not the packet's lines
  std::vector<code::DiffLine> own_lexed;
  code::InertChanges own_inert;
  std::optional<diff::DiffReading> own_reading;
  const std::vector<code::DiffLine> *lexed = nullptr;
  const code::InertChanges *inert = nullptr;
  const diff::DiffReading *reading = nullptr;
  if (quoted) {
    lexed = &diff->lexed, inert = &diff->inert, reading = &diff->reading;
  } else {
    alone = code::is_unified_diff(snippet) ? snippet : "@@ -1 +1 @@\n" + snippet;
    own_lexed = code::lex_diff(alone);
    own_inert = code::inert_changes(own_lexed, std::nullopt);
    own_reading = diff::read_diff(alone);
    lexed = &own_lexed, inert = &own_inert, reading = &*own_reading;
    quoted.emplace();
    for (std::size_t i = 0; i < own_lexed.size(); ++i) quoted->insert(i);
  }
  std::size_t changed = 0, running = 0, not_code = 0;
  std::vector<std::size_t> changed_lines;
  for (auto i : *quoted) {
    if (!is_change((*lexed)[i])) continue;
    ++changed;
    changed_lines.push_back(i);
    if (inert->lines[i] == code::InertCode::Why::Live) ++running;
    if (inert->lines[i] == code::InertCode::Why::NotCode) ++not_code;
  }
  const auto owners = code::inert_owners(*inert, changed_lines, [](std::size_t, code::InertCode::Why) { return true; });
  const std::size_t unread = owners.unread_lines, uncalled = owners.uncalled_lines, restated = owners.restated_lines,
                    untaken = owners.untaken_lines;
  const auto &unread_names = owners.unread, &uncalled_functions = owners.uncalled, &restated_names = owners.restated;
  std::vector<std::string> quoted_levers;
  for (const auto &h : reading->hunks)
    for (const auto &c : h.running)
      if (!c.dead && quoted->count(c.line))
        for (const auto &l : claimed_levers)
          if (rules.levers.in_code(l, c.code, dsl) &&
              std::find(quoted_levers.begin(), quoted_levers.end(), l) == quoted_levers.end())
            quoted_levers.push_back(l);
  std::string where = diff && reading == &diff->reading
                          ? "in the packet's diff" + std::string(diff->after ? ", against the kernel after the change"
                                                                             : " (no kernel after the change: by the "
                                                                               "lexer alone)")
                          : "by the lexer alone (the snippet is not lines of the packet's diff)";
  if (changed == 0)
    return make(name, SignalState::Warn, "no changed line",
                "the snippet quotes no added or removed line (" + where + ")");
  std::string reason = std::to_string(running) + " of " + plural(changed, "changed line", "changed lines") + " run";
  if (not_code)
    reason += "; " + plural(not_code, "is a comment, docstring, blank line or stamp",
                            "are comments, "
                            "docstrings, blank "
                            "lines or stamps");
  if (unread)
    reason += "; " + plural(unread, "assigns", "assign") + " " + text::quoted_code_list(unread_names) +
              ", which nothing reads";
  if (uncalled)
    reason += "; " + plural(uncalled, "belongs", "belong") + " to " + text::quoted_code_list(uncalled_functions) +
              ", which nothing calls";
  if (restated)
    reason += "; " + plural(restated, "hints", "hint") + " " + text::quoted_code_list(restated_names) + " with " +
              std::string(code::kRestatedHintReason);
  if (untaken)
    reason += "; " + plural(untaken, "sits", "sit") + " under " + text::quoted_code_list(owners.untaken) +
              ", which no compilation takes";
  reason += " (" + where + ")";
  if (!claimed_levers.empty())
    reason += quoted_levers.empty()
                  ? "; it quotes no running code of the claimed " + text::quoted_code_list(claimed_levers)
                  : "; it quotes running code of " + text::quoted_code_list(quoted_levers);
  std::string fact = std::to_string(running) + " of " + std::to_string(changed) + " run";
  if (!claimed_levers.empty()) fact += quoted_levers.empty() ? "; no claimed lever" : "; quotes the lever";
  bool warn = running * 2 < changed || (!claimed_levers.empty() && quoted_levers.empty());
  return make(name, warn ? SignalState::Warn : SignalState::Ok, fact, reason);
}

Signal span(const std::string &type, const std::string &claim, const gates::PacketEntry *packet,
            const std::optional<PacketDiff> &diff, const std::optional<levers::LeverReading> &levers,
            const std::string &dsl, const QualityRules &rules) {
  const std::string &name = kSignalNames[2];
  if (type != "strategy") return not_read(name, "-", "only a strategy's diff spans kept steps");
  if (!packet) return not_read(name, "no packet", kNoPacket);
  const auto &sp = packet->packet.get("agent_facing").get("span");
  if (!sp.is_object()) return not_read(name, "not stated", "the packet states no span (built before issue 25)");
  std::vector<std::string> earlier;
  if (const auto *a = sp.get("earlier_kept_steps").as_array())
    for (const auto &e : *a)
      if (!diff || levers::left_in_diff(diff->reading, text_at(e.get("change")), rules.levers, dsl))
        earlier.push_back(shortened(std::string(text::rstrip_chars(text_at(e.get("change")), " .;")), 60));
  const auto &runs = sp.get("this_step_changes_running_code");
  bool own_runs = !runs.is_bool() || *runs.as_bool();
  if (earlier.empty() && own_runs)
    return make(name, SignalState::Ok, "this step alone", "the diff holds this step's change alone");
  std::string fact, reason;
  if (!earlier.empty()) {
    fact = "+" + plural(earlier.size(), "earlier step", "earlier steps");
    reason = "the diff from the best-so-far also holds " +
             plural(earlier.size(), "earlier kept step", "earlier kept steps") + ": ";
    for (std::size_t i = 0; i < earlier.size(); ++i)
      reason += (i ? "; (" : "(") + std::to_string(i + 1) + ") " + earlier[i];
  }
  if (!own_runs) {
    fact += std::string(fact.empty() ? "" : "; ") + "own change runs nothing";
    reason += std::string(reason.empty() ? "" : ". ") + "This step's own commits change no code that runs";
  }
  // Which claimed levers the step's own change holds, when the packet
  // carries it (step_diff_file): a lever only the earlier steps change is
  // not this step's.
  if (diff && levers && !packet->step_diff.empty() && !levers->realised.empty()) {
    auto own = levers::read_levers(diff::read_diff(packet->step_diff, diff->after), claim, rules.levers, dsl);
    std::vector<std::string> theirs;
    for (const auto &l : levers->realised)
      if (std::find(own.realised.begin(), own.realised.end(), l) == own.realised.end()) theirs.push_back(l);
    if (!theirs.empty())
      reason += ". The claimed " + text::quoted_code_list(theirs) +
                " is changed by the span's code, not by this step's own change";
    else
      reason += ". This step's own change changes the claimed " + text::quoted_code_list(levers->realised);
  }
  return make(name, SignalState::Warn, fact, reason);
}

Signal boilerplate(const Value &record, const std::string &type, const std::string &trace,
                   const gates::PacketEntry *packet, const StagedTexts &others, const QualityRules &rules) {
  const std::string &name = kSignalNames[3];
  if (type != "strategy" && type != "anti-strategy") return not_read(name, "-", "a " + type + " states no mechanism");
  std::string mechanism = mechanism_of(record);
  if (mechanism.empty()) return not_read(name, "no mechanism", "the record states no mechanism");
  const auto &b = rules.boilerplate;
  std::vector<std::string> facts, reasons;
  bool warn = false;
  // The drafter's first rule: an expected impact stated on template_min_steps
  // steps of the run is its template default, never a step's mechanism.
  if (packet) {
    const auto said = workspace::WhatTheRunSaid::from_json(packet->packet.get("agent_facing"));
    std::string impact(text::strip(said.expected_impact));
    std::size_t steps = 0;
    if (said.expected_impact_stated_by_steps > 0)
      steps = static_cast<std::size_t>(said.expected_impact_stated_by_steps);
    if (!impact.empty() && text::folded(mechanism).find(text::folded(impact)) != std::string::npos) {
      bool templated = steps >= b.template_min_steps;
      warn = warn || templated;
      facts.push_back("impact of " + plural(steps, "step", "steps"));
      reasons.push_back("the mechanism holds the run's expected impact, which " +
                        plural(steps, "step states", "steps state") +
                        (templated ? " (a template default from " + std::to_string(b.template_min_steps) + ")" : ""));
    }
  }
  // The drafter's second rule: a mechanism more of a run's records carry
  // than max_mechanism_share of them allows (and more than one) is no one's.
  const std::string plural_type = type == "strategy" ? "strategies" : "anti-strategies";
  if (!trace.empty()) {
    auto share = others.mechanism_share(trace, type, text::folded(mechanism));
    auto limit = b.shared_limit(share.records);
    if (share.carriers > limit) {
      warn = true;
      facts.push_back("on " + std::to_string(share.carriers) + " of " + std::to_string(share.records) + " " +
                      plural_type);
    }
    reasons.push_back(share.carriers <= 1
                          ? "no other staged " + type + " of this trace carries this mechanism"
                          : std::to_string(share.carriers) + " of the trace's " + std::to_string(share.records) +
                                " staged " + plural_type + " carry this mechanism" +
                                (share.carriers > limit ? ", more than the " + std::to_string(limit) + " a share of " +
                                                              text::fixed(b.max_mechanism_share, 2) + " allows"
                                                        : " (a share of " + text::fixed(b.max_mechanism_share, 2) +
                                                              " allows " + std::to_string(limit) + ")"));
  }
  std::string reason;
  for (std::size_t i = 0; i < reasons.size(); ++i) reason += (i ? "; " : "") + reasons[i];
  std::string fact;
  for (std::size_t i = 0; i < facts.size(); ++i) fact += (i ? "; " : "") + facts[i];
  if (reason.empty()) reason = "the packet states no expected impact the mechanism holds";
  return make(name, warn ? SignalState::Warn : SignalState::Ok, fact.empty() ? "own text" : fact, reason);
}

std::string id_tail(const std::string &id) {
  auto dot = id.rfind('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

Signal duplicate(const Value &record, const std::string &id, const std::string &type, const std::string &trace,
                 const StagedTexts &others) {
  const std::string &name = kSignalNames[4];
  if (type != "strategy" && type != "anti-strategy")
    return not_read(name, "-", "a " + type + " is compared by no mechanism or lesson");
  const char *what = type == "strategy" ? "mechanism" : "lesson";
  std::string key = duplicate_key_of(record);
  if (key.empty()) return not_read(name, "-", std::string("the record states no ") + what);
  if (trace.empty()) return not_read(name, "-", "the record names no trace (evidence.raw.source_repo)");
  std::vector<std::string> same;
  for (const auto &other : others.same_key(trace, type, text::folded(key)))
    if (other != id) same.push_back(id_tail(other));
  if (same.empty())
    return make(name, SignalState::Ok, "none",
                std::string("no other staged ") + type + " of this trace has the same " + what);
  // Named in the cell when few; the reason names up to kNamed of them.
  constexpr std::size_t kNamed = 8;
  std::vector<std::string> named(same.begin(), same.begin() + std::min(kNamed, same.size()));
  std::string list = text::quoted_code_list(named);
  if (same.size() > named.size())
    list = list.substr(0, list.rfind(" and ")) + ", " + list.substr(list.rfind(" and ") + 5) + " and " +
           std::to_string(same.size() - named.size()) + " more";
  return make(name, SignalState::Warn,
              same.size() <= 2 ? "same as " + text::quoted_code_list(same)
                               : "same as " + std::to_string(same.size()) + " others",
              "the same " + std::string(what) + " as " +
                  plural(same.size(), "other staged record", "other staged records") + " of this trace: " + list);
}

Signal adds_a_cause(const Value &record, const std::string &type, const std::string &claim, const QualityRules &rules) {
  const std::string &name = kSignalNames[5];
  if (type != "strategy" && type != "anti-strategy") return not_read(name, "-", "a " + type + " states no mechanism");
  std::string mechanism = mechanism_of(record);
  const std::string done = type == "strategy" ? "the change's claim" : "the attempt";
  if (mechanism.empty()) return make(name, SignalState::Warn, "no mechanism", "the record states no mechanism");
  auto c = added_cause(mechanism, claim, rules.causal);
  std::vector<std::string> shown(c.new_words.begin(),
                                 c.new_words.begin() + std::min<std::size_t>(6, c.new_words.size()));
  std::string words = text::quoted_code_list(shown) + (c.new_words.size() > shown.size() ? ", \xE2\x80\xA6" : "");
  std::string connective = c.connective.empty() ? "" : ", with the causal connective \"" + c.connective + "\"";
  if (!c.adds)
    return make(name, SignalState::Warn, "restates",
                c.new_words.empty() ? "the mechanism has no word beyond " + done + "'s: it restates what was done"
                                    : "the mechanism's only words beyond " + done + "'s are " + words + connective +
                                          ": it restates what was done");
  return make(name, SignalState::Ok, plural(c.new_words.size(), "new word", "new words"),
              "the mechanism adds " + plural(c.new_words.size(), "word", "words") + " beyond " + done + "'s (" + words +
                  ")" + connective);
}

} // namespace

QualityRules QualityRules::from_config(const config::Config &config) {
  QualityRules r;
  r.levers = levers::LeverVocabulary::from_config(config);
  r.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  r.boilerplate = config.boilerplate();
  return r;
}

const QualityRules &QualityRules::defaults() {
  static const QualityRules rules = from_config(config::Config::defaults());
  return rules;
}

const char *state_name(SignalState s) {
  switch (s) {
  case SignalState::Warn: return "warn";
  case SignalState::Ok: return "ok";
  case SignalState::NotRead: return "not-read";
  }
  return "not-read";
}

std::size_t RecordSignals::warnings() const {
  return static_cast<std::size_t>(
      std::count_if(signals.begin(), signals.end(), [](const Signal &s) { return s.state == SignalState::Warn; }));
}

const Signal *RecordSignals::find(std::string_view name) const {
  for (const auto &s : signals)
    if (s.name == name) return &s;
  return nullptr;
}

std::string mechanism_of(const Value &record) {
  std::string type = store::RecordView::shown(record).type.value_or("");
  const auto &p = record.get("payload");
  if (type == "strategy") return text_at(p.get("mechanism"));
  if (type == "anti-strategy") return text_at(p.get("established_fact").get("mechanism"));
  return {};
}

std::string duplicate_key_of(const Value &record) {
  std::string type = store::RecordView::shown(record).type.value_or("");
  if (type == "strategy") return mechanism_of(record);
  if (type == "anti-strategy") return text_at(record.get("payload").get("lesson"));
  return {};
}

StagedTexts::StagedTexts(const std::vector<const Value *> &records) {
  for (const auto *r : records) {
    if (!r || !r->is_object()) continue;
    const auto view = store::RecordView::shown(*r);
    std::string trace = view.source_repo.value_or(""), type = view.type.value_or("");
    if (auto m = mechanism_of(*r); !m.empty()) ++mechanisms_[{trace, type, text::folded(m)}], ++stating_[{trace, type}];
    if (auto k = duplicate_key_of(*r); !k.empty())
      keys_[{trace, type, text::folded(k)}].push_back(view.id.value_or(""));
  }
}

StagedTexts::Share StagedTexts::mechanism_share(const std::string &trace, const std::string &type,
                                                const std::string &folded_mechanism) const {
  Share s;
  if (auto it = mechanisms_.find({trace, type, folded_mechanism}); it != mechanisms_.end()) s.carriers = it->second;
  if (auto it = stating_.find({trace, type}); it != stating_.end()) s.records = it->second;
  return s;
}

const std::vector<std::string> &StagedTexts::same_key(const std::string &trace, const std::string &type,
                                                      const std::string &folded_key) const {
  static const std::vector<std::string> none;
  auto it = keys_.find({trace, type, folded_key});
  return it == keys_.end() ? none : it->second;
}

RecordSignals record_signals(const Value &record, const gates::PacketEntry *packet, const StagedTexts &others,
                             const QualityRules &rules) {
  RecordSignals out;
  // Read as staged: a field of another type reads as absent, as the gates
  // already reported it.
  const auto view = store::RecordView::shown(record);
  out.id = view.id.value_or("");
  out.type = view.type.value_or("");
  out.version = view.version.value_or("");
  out.trace = view.source_repo.value_or("");
  std::string dsl = view.scope.dsl.value_or("");
  if (dsl.empty() && packet) dsl = workspace::PacketTarget::from_json(packet->packet).scope.dsl;
  const std::string claim = claim_text(record, out.type, packet);
  auto diff = packet_diff(packet);
  std::optional<levers::LeverReading> levers;
  if (diff && !claim.empty()) levers = levers::read_levers(diff->reading, claim, rules.levers, dsl);
  // The levers a snippet should quote: the claim's checkable ones (read
  // from the claim even without a diff, to judge a snippet by the lexer).
  std::vector<std::string> claimed;
  if (levers)
    claimed = levers->checkable;
  else
    for (const auto &l : rules.levers.claimed_in(claim))
      if (rules.levers.checkable(l, dsl)) claimed.push_back(l);
  out.signals.push_back(claim_in_code(out.type, claim, packet, diff, levers, dsl));
  out.signals.push_back(snippet_runs(view, out.type, diff, claimed, dsl, rules));
  out.signals.push_back(span(out.type, claim, packet, diff, levers, dsl, rules));
  out.signals.push_back(boilerplate(record, out.type, out.trace, packet, others, rules));
  out.signals.push_back(duplicate(record, out.id, out.type, out.trace, others));
  out.signals.push_back(adds_a_cause(record, out.type, claim, rules));
  return out;
}

} // namespace otm::report
