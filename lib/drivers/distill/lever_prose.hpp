// Reading the run's prose about one lever: what was tried, the figure it
// was measured at, the reason it gives, with the run's labels and verdicts
// taken off. Shared by the strategy mechanism (mechanism_source) and the
// failed lever's established fact (anti_fact). Nothing here paraphrases:
// every text returned is a verbatim piece of the text given.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "levers/lever_vocabulary.hpp"
#include "record/established_fact.hpp"
#include "json/value.hpp"

namespace otm::distill {

struct SourcedText {
  std::string text;
  std::string source; // the agent_facing path it was quoted from
};

// The words that open the clause giving a lever's cause.
inline constexpr const char *kCauseConnective = "because|since|due to|caused by|as a result of";
// A figure in brackets: "(+4.0%)", "(-3 %)", "(4.1% slower)"; group 1 is
// what the brackets hold.
inline constexpr const char *kBracketedFigure = R"(\(([^()]*\d(?:\.\d+)?\s*%[^()]*)\))";

// The text stripped; nullopt when blank (or, for a value, not a string).
std::optional<std::string> nonblank(const std::string &s);
std::optional<std::string> nonblank(const json::Value &v);

// "X gains nothing because the rows are already coalesced (+4.0%)": what was
// attempted is the lever alone — the part before the clause giving the cause,
// then before the predicate judging it ("gains nothing", "is slower",
// "cannot keep ..."), without a trailing figure in brackets, a second
// sentence or a verb of trying ("Moved enable X + Y 1->4. After ..." ->
// "enable X + Y 1->4") — as long as it still says what was tried (the
// figure is the record's `observed`, stated_effect).
std::string lever_without_its_cause(const std::string &lever, const levers::LeverVocabulary &vocabulary);

// The figure the run stated beside the lever, verbatim without its
// brackets ("+4.0%").
std::optional<std::string> stated_effect(const std::string &lever);

// A change text's one lever (its first sentence) and the sentences after
// it, which say why the run hoped it would pay; nullopt when the lever
// sentence names several levers or a later sentence sets another one.
struct LeverAndHope {
  std::string lever;
  std::vector<std::string> hopes;
};
std::optional<LeverAndHope> the_one_lever(const std::string &change);

// `text` without the bracketed labels that end it ("(occupancy drop)",
// "(bank conflicts?)": a few words, no figure).
std::string without_trailing_labels(std::string text);
// The reason alone: `sentence` without the lever it repeats from
// `attempted` and the verdict with its figures after it, as long as what is
// left still states a mechanism; else `sentence`.
std::string the_reason_alone(const std::string &sentence, const std::string &attempted,
                             const record::FactContext &context);
// `sentence` names a cause of its own beyond the attempt and the verdict.
bool says_more_than(const std::string &sentence, const std::string &attempted, const record::FactContext &context);
// `sentence` could stand as the cause of an accuracy failure the step's
// check saw.
bool explains(const std::string &sentence, const std::string &attempted);
// A sentence of advice ("keep fp32 where errors accumulate", "check the
// per-shape table"): what to do, not why or where something failed.
bool is_advice(std::string_view sentence);
// A commit subject without a leading "reverted".
std::string without_revert_marker(const std::string &subject);

// `text` without a label the run put before its reason ("Why: one tile now
// spans the row" -> "one tile now spans the row"): the record's field
// already says what the text is. Unchanged when little would be left.
std::string without_reason_label(const std::string &text);
// A reason as two texts are compared for sameness: case-folded, without a
// short label ("Why: ", "Change: ", "tail effect: "), a leading
// connective ("because ") or closing punctuation. What stock_sentence and
// restates_the_change both compare.
std::string comparable_reason(const std::string &text);
// What a sentence says beyond the attempt it repeats (unless the attempt
// holds a cause of its own) and the run's verdict in brackets
// ("(correctness FAIL, max_abs_err=0.06)", "(+4.0%)").
std::string beyond_the_attempt(const std::string &sentence, const std::string &attempted);

} // namespace otm::distill
