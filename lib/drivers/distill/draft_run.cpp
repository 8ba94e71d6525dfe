#include "distill/draft_run.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "diff/diff_reading.hpp"
#include "distill/drafter.hpp"
#include "distill/refusal.hpp"
#include "distill/staging.hpp"
#include "levers/lever_settings.hpp"
#include "record/store_layout.hpp"
#include "store/record_view.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"
#include "workspace/layout.hpp"

namespace otm::distill {

namespace {

std::string strategy_mechanism_of(const Draft &d) {
  if (!d.record) return {};
  const auto view = store::RecordView::shown(*d.record);
  if (view.type != "strategy") return {};
  return text::folded(view.mechanism.value_or(""));
}

// An anti-strategy's lever and cause: its technique tags (the levers its
// account names) and its mechanism, folded.
std::string anti_lesson_key(const Draft &d) {
  if (!d.record) return {};
  const auto view = store::RecordView::shown(*d.record);
  if (view.type != "anti-strategy") return {};
  std::vector<std::string> tags;
  if (const auto *list = d.record->get("retrieval").get("technique_tags").as_array())
    for (const auto &t : *list)
      if (t.is_string()) tags.push_back(*t.as_string());
  std::sort(tags.begin(), tags.end());
  std::string key;
  for (const auto &t : tags) key += t + ";";
  // A final full stop is no other cause.
  const auto cause = text::folded(view.fact_mechanism.value_or(""));
  return key + "|" + std::string(text::rstrip_chars(cause, " .;"));
}

// An anti-strategy's verdict and the code its snippet changes: its '+'
// and '-' lines, whitespace aside, as a set. Empty when it quotes none.
std::string anti_code_key(const Draft &d) {
  if (!d.record) return {};
  const auto view = store::RecordView::shown(*d.record);
  if (view.type != "anti-strategy") return {};
  std::set<std::string> changed;
  const std::string snippet = view.snippet.value_or("");
  for (const auto line : text::split_lines(snippet)) {
    if (line.empty() || (line[0] != '+' && line[0] != '-') || line.starts_with("+++") || line.starts_with("---"))
      continue;
    const std::string code = text::without_whitespace(line.substr(1));
    if (!code.empty()) changed.insert(std::string(1, line[0]) + code);
  }
  if (changed.empty()) return {};
  std::string key = view.verdict.value_or("") + "|";
  for (const auto &c : changed) key += c + "\n";
  return key;
}

// Issue 25, round 9: one failed lever is one record. Accounts that
// otm-partition keeps apart (the same lever at different stated values:
// `num_stages` 2 -> 4 and 2 -> 5) but whose records carry the same lever
// and the same cause teach one lesson: the first stands, the others are
// refused naming it.
// So do two whose attempts make the same code change with the same
// verdict, however the run named the lever (kit 36, Y04/Y05: `BLOCK_S = 1`
// -> `16` failing to build, once as "tokens per program", once as
// "BLOCK_S").
void one_record_per_failed_lever(std::vector<Draft> &drafts) {
  std::map<std::string, std::string> first, first_code; // key -> the id that stands
  for (auto &d : drafts) {
    auto key = anti_lesson_key(d);
    if (key.empty()) continue;
    const auto id = store::RecordView::shown(*d.record).id.value_or("");
    auto [at, fresh] = first.emplace(key, id);
    std::string why;
    if (!fresh) why = "the same failed lever with the same cause as " + at->second;
    if (auto code = anti_code_key(d); fresh && !code.empty()) {
      auto [same, new_code] = first_code.emplace(code, id);
      if (!new_code) why = "the same code change with the same verdict as " + same->second;
    }
    if (why.empty()) continue;
    d.record.reset();
    d.refusal =
        DraftRefusal{"payload.established_fact.mechanism", why + " of this run: one failed lever is one record"};
  }
}

// Issue 25, round 11: an anti-strategy's advice ("Instead: hide latency
// with more warps") that turns another lever the run itself tried and
// reverted (16 warps, twice) is not borne out by the run: the lesson keeps
// its verdict and drops the advice. The levers tried are those each
// failed attempt's own account names (`the_failed_lever`, else the
// change); the record's own levers are no other lever.
void advice_the_run_bears_out(std::vector<Draft> &drafts, const std::vector<Packet> &packets, const DraftRules &rules) {
  const auto &vocabulary = rules.retrieval.levers;
  std::map<std::string, std::set<std::string>> tried; // lever -> the attempts (seg ids) that tried it
  for (const auto &p : packets) {
    if (p.record_type() != "anti-strategy") continue;
    std::string account = p.account().the_failed_lever;
    if (account.empty()) account = p.said().change;
    for (const auto &l : vocabulary.named_in(account)) tried[l].insert(p.seg_id());
  }
  for (std::size_t i = 0; i < drafts.size(); ++i) {
    auto &d = drafts[i];
    if (!d.record) continue;
    const auto view = store::RecordView::shown(*d.record);
    if (view.type != "anti-strategy") continue;
    auto *payload = d.record->find("payload");
    const std::string lesson = view.lesson.value_or("");
    const auto at = lesson.find(kLessonAdvice);
    if (at == std::string::npos) continue;
    std::set<std::string> own;
    for (const auto &l : vocabulary.named_in(view.attempted.value_or(""))) own.insert(l);
    if (const auto *tags = d.record->get("retrieval").get("technique_tags").as_array())
      for (const auto &t : *tags)
        if (t.is_string()) own.insert(*t.as_string());
    for (const auto &l : vocabulary.named_in(std::string_view(lesson).substr(at + kLessonAdvice.size()))) {
      auto t = tried.find(l);
      if (own.count(l) || t == tried.end()) continue;
      if (std::any_of(t->second.begin(), t->second.end(),
                      [&](const std::string &s) { return s != packets[i].seg_id(); })) {
        payload->set("lesson", lesson.substr(0, at));
        break;
      }
    }
  }
}

// Stop 44: a strategy's next step that the run itself took up and only
// ever reverted ("Try deferred dequant", taken up by twelve failed
// attempts and no kept step) is no direction left open: it is dropped.
// Stop 47: so is one every lever of which the run tried and only ever
// reverted, however it was worded (kit 29, R10: "Try bf16 accumulation"
// after three reverted bf16-accumulation attempts and no kept one).
void next_steps_the_run_bears_out(std::vector<Draft> &drafts, const std::vector<Packet> &packets,
                                  const levers::LeverVocabulary &vocabulary) {
  std::set<std::string> failed, kept, failed_levers, kept_levers;
  // A change's levers: those its claim names in prose, and those its code
  // names set ("WARPS_PER_BLOCK 4->1" is num_warps).
  auto levers_of = [&](const std::string &change, const std::string &dsl, std::set<std::string> &into) {
    const std::string_view claim = levers::claim_of(change);
    for (auto &l : vocabulary.named_in(claim)) into.insert(std::move(l));
    for (const auto &n : diff::names_of(claim))
      if (n.strong && diff::is_code_name(n.text))
        for (auto &l : vocabulary.levers_in_code(n.text, dsl)) into.insert(std::move(l));
  };
  for (const auto &p : packets) {
    const bool anti = p.record_type() == "anti-strategy";
    const auto said = p.said();
    const std::string dsl = p.operator_block().dsl;
    if (anti) levers_of(said.change, dsl, failed_levers);
    if (p.record_type() == "strategy") levers_of(said.change, dsl, kept_levers);
    // A kernel's lineage lists every change the run kept, milestones or not.
    for (const auto &change : p.kernel_block().lineage_changes) levers_of(change, dsl, kept_levers);
    if (!anti && p.record_type() != "strategy") continue;
    // Only a direction written as a string (the typed block reads a missing one as "").
    if (const auto *dirs = p.agent_facing().get("what_the_run_said").get("directions_taken_up").as_array())
      for (const auto &d : *dirs)
        if (const auto *t = d.get("direction").as_string()) (anti ? failed : kept).insert(text::folded(*t));
  }
  auto only_failed_levers = [&](const std::string &direction) {
    const auto named = vocabulary.named_in(direction);
    return !named.empty() && std::all_of(named.begin(), named.end(), [&](const std::string &l) {
      return failed_levers.count(l) && !kept_levers.count(l);
    });
  };
  for (auto &d : drafts) {
    if (!d.record || store::RecordView::shown(*d.record).type != "strategy") continue;
    auto *payload = d.record->find("payload");
    const auto *next = payload->get("next_steps").as_array();
    if (!next) continue;
    json::Value left = json::Value::array();
    for (const auto &n : *next) {
      const auto *t = n.as_string();
      const std::string key = t ? text::folded(*t) : std::string();
      if (t && ((failed.count(key) && !kept.count(key)) || only_failed_levers(*t))) continue;
      left.push_back(n);
    }
    if (left.size() != next->size()) payload->set("next_steps", std::move(left));
  }
}

} // namespace

std::vector<Draft> draft_run(const std::vector<Packet> &packets, const DraftRules &rules) {
  std::vector<Draft> drafts;
  for (const auto &p : packets) drafts.push_back(draft_record(p, rules));
  // A mechanism more of the run's strategies would share than
  // max_mechanism_share allows (and more than one) is no step's own: those
  // strategies are drafted again without it, each falling back to its next
  // own source (or refused when it has none). A few rounds settle it.
  DraftRules current = rules;
  for (int round = 0; round < 4; ++round) {
    std::map<std::string, std::size_t> shared;
    std::size_t strategies = 0;
    for (const auto &d : drafts)
      if (auto m = strategy_mechanism_of(d); !m.empty()) ++shared[m], ++strategies;
    auto limit = config::Boilerplate{current.template_min_steps, current.max_mechanism_share}.shared_limit(strategies);
    std::vector<std::string> wide;
    for (const auto &[m, n] : shared)
      if (n > limit) wide.push_back(m);
    if (wide.empty()) break;
    for (const auto &m : wide) current.excluded_mechanisms.push_back(m);
    for (std::size_t i = 0; i < packets.size(); ++i)
      if (std::find(wide.begin(), wide.end(), strategy_mechanism_of(drafts[i])) != wide.end())
        drafts[i] = draft_record(packets[i], current);
  }
  one_record_per_failed_lever(drafts);
  advice_the_run_bears_out(drafts, packets, rules);
  next_steps_the_run_bears_out(drafts, packets, rules.retrieval.levers);
  return drafts;
}

DraftRunResult draft_into_store(const std::vector<std::filesystem::path> &packets, const workspace::StagingStore &store,
                                const std::string &slug, const RecordGates &gates, const DraftRules &rules,
                                const cli::ProgressFn &progress, const scrub::Denylist *denylist) {
  DraftRunResult res;
  std::vector<LedgerUpdate> updates;
  // The run's records and its ledger are staged together or not at all: a
  // full disk half-way leaves the store as it was (docs/durability.md).
  io::WriteBatch batch;
  std::vector<Packet> loaded;
  for (const auto &path : packets) {
    loaded.push_back(load_packet(path));
    if (denylist) redact_packet(loaded.back(), *denylist);
  }
  auto drafts = draft_run(loaded, rules);
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const Packet &p = loaded[i];
    Draft &d = drafts[i];
    if (d.record) {
      auto relpath = workspace::store_relpath(record::record_relpath(*d.record));
      auto findings = gates.check(*d.record, relpath, p);
      if (!findings.empty()) {
        d.refusal = gate_refusal(*d.record, findings);
        d.record.reset();
      }
    }
    if (d.record) {
      auto rel = stage_record(store, *d.record, &batch);
      json::Value line = json::Value::object();
      line.set("seg_id", p.seg_id());
      line.set("written", rel.generic_string());
      line.set("thin", json::Value::strings(d.thin));
      res.lines.push_back(line);
      updates.push_back({p.seg_id(), std::nullopt});
      ++res.written;
    } else {
      json::Value line = refusal_line(p, *d.refusal, "otm-draft");
      res.lines.push_back(line);
      updates.push_back({p.seg_id(), line});
      ++res.refused;
    }
    if (progress) progress(p.seg_id());
  }
  update_refusal_ledger(refusal_ledger_path(store, slug), updates, &batch);
  batch.commit();
  return res;
}

} // namespace otm::distill
