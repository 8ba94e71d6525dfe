// The quality signals of one staged record (issue 25, "a quality report
// users can see"): facts read from the record and its packet that tell a
// reviewer which records to read first. Each is a fact with a short reason,
// never a verdict: the gates decide what is staged, these decide nothing.
//
//   claim in code  the levers the change text (an anti-strategy: the
//                  attempt) claims, which are checkable for the DSL, which
//                  the packet diff's running changes realise and which are
//                  missing (levers/lever_reading.hpp); warns when a claimed
//                  checkable lever is in no running change;
//   snippet runs   of the snippet's changed lines, how many run, judged in
//                  the packet's diff against the kernel after the change
//                  (code/inert_changes.hpp), how many are comments,
//                  docstrings, blank lines or stamps, assignments nothing
//                  reads or functions nothing calls; whether it quotes a
//                  claimed lever's code; warns when fewer than half run or
//                  it quotes none of a claimed lever's code;
//   span           a strategy's diff from the best-so-far: how many earlier
//                  kept steps it also holds, whether the step's own change
//                  runs, and whether the claimed levers are in the step's own
//                  change (agent_facing.span, step_diff_file); warns when the
//                  diff holds more than this step or its own change runs
//                  nothing;
//   boilerplate    whether the mechanism is the run's template rather than
//                  the step's own, by the drafter's two rules (the
//                  configuration's `boilerplate` section): it holds the
//                  run's expected impact, stated on at least
//                  `template_min_steps` steps; or more of the staged records
//                  of its trace and type carry it than
//                  `max_mechanism_share` of them (and more than one) allows
//                  (config::Boilerplate::shared_limit);
//   duplicate      other staged records of the same trace and type with the
//                  same mechanism (a strategy) or lesson (an anti-strategy);
//   adds a cause   whether the mechanism says more than what was done
//                  (report/added_cause.hpp).
// A signal that does not apply to the record's type, or whose input is
// missing (no packet, no snippet), is "not read", never a pass.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "gates/context.hpp"
#include "levers/lever_vocabulary.hpp"
#include "record/causal_sentences.hpp"
#include "json/value.hpp"

namespace otm::report {

// What the signals read from the configuration: the lever vocabulary, the
// causal-sentence rule and the boilerplate section.
struct QualityRules {
  levers::LeverVocabulary levers;
  record::CausalRule causal;
  config::Boilerplate boilerplate;
  // A malformed section is an otm::Error naming it.
  static QualityRules from_config(const config::Config &config);
  static const QualityRules &defaults();
};

enum class SignalState { Warn, Ok, NotRead };
const char *state_name(SignalState s); // "warn" | "ok" | "not-read"

struct Signal {
  std::string name; // one of kSignalNames
  SignalState state = SignalState::NotRead;
  std::string fact;   // a few words, for a table cell ("2 of 5 changed lines run")
  std::string reason; // what was read and found, one or two sentences
};

// The signals, in the order every report shows them.
inline const std::vector<std::string> kSignalNames = {"claim in code", "snippet runs", "span",
                                                      "boilerplate",   "duplicate",    "adds a cause"};

struct RecordSignals {
  std::size_t entry = 0; // index of the record in the list it was read from
  std::string id, file, type, version, trace;
  std::vector<Signal> signals; // one per kSignalNames, in that order
  std::size_t warnings() const;
  const Signal *find(std::string_view name) const;
};

// What the other staged records say, for the signals that compare records:
// per trace and type, how many records state a mechanism and how many carry
// each mechanism text, and which records carry each mechanism or lesson.
// Texts compare folded (text::folded).
class StagedTexts {
public:
  explicit StagedTexts(const std::vector<const json::Value *> &records);
  struct Share {
    std::size_t carriers = 0; // records of the trace and type with this mechanism
    std::size_t records = 0;  // records of the trace and type with any mechanism
  };
  Share mechanism_share(const std::string &trace, const std::string &type, const std::string &folded_mechanism) const;
  // Ids of the records of `trace` and `type` whose duplicate key (a
  // strategy's mechanism, an anti-strategy's lesson) is `folded_key`.
  const std::vector<std::string> &same_key(const std::string &trace, const std::string &type,
                                           const std::string &folded_key) const;

private:
  std::map<std::vector<std::string>, std::size_t> mechanisms_; // {trace, type, folded mechanism}
  std::map<std::vector<std::string>, std::size_t> stating_;    // {trace, type}
  std::map<std::vector<std::string>, std::vector<std::string>> keys_;
};

// A record's mechanism: a strategy's payload.mechanism, an anti-strategy's
// payload.established_fact.mechanism; "" otherwise.
std::string mechanism_of(const json::Value &record);
// What a duplicate is judged by: a strategy's mechanism, an anti-strategy's
// lesson; "" otherwise.
std::string duplicate_key_of(const json::Value &record);

// `packet`: the record's packet (gates::find_packet), or null when none
// was found. Deterministic: the same inputs give the same signals.
RecordSignals record_signals(const json::Value &record, const gates::PacketEntry *packet, const StagedTexts &others,
                             const QualityRules &rules);

} // namespace otm::report
