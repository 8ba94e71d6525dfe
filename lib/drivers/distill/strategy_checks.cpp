#include "distill/strategy_checks.hpp"

#include <algorithm>

#include "code/gluon_layouts.hpp"
#include "code/launch_constexprs.hpp"
#include "code/unbound_names.hpp"
#include "diff/barrier_removal.hpp"
#include "diff/function_swap.hpp"
#include "distill/change_claims.hpp"
#include "distill/mechanism_source.hpp"
#include "distill/strategy_gain.hpp"
#include "distill/unread_sizes.hpp"
#include "levers/lever_settings.hpp"
#include "text/code_list.hpp"
#include "text/utf8.hpp"

namespace otm::distill::drafting {

namespace {

// The levers of `realised` that a step whose own commits run nothing may
// still claim: an earlier kept step of its span names the same lever (at the
// value this step's text states, when it states one), so the step re-measured
// that change. A lever realised by a step that does not name it (a type-hint
// tidy-up touching a `residual` argument) is not this claim's.
std::vector<std::string> re_measured(const levers::LeverVocabulary &vocabulary, const std::string &change,
                                     const std::vector<std::string> &realised,
                                     const std::vector<std::string> &earlier) {
  auto value_of = [&](const std::string &text, const std::string &lever) -> std::optional<std::string> {
    for (const auto &s : levers::settings_in(vocabulary, levers::claim_of(text)))
      if (s.lever == lever) return s.value;
    return std::nullopt;
  };
  std::vector<std::string> out;
  for (const auto &lever : realised) {
    auto mine = value_of(change, lever);
    for (const auto &e : earlier) {
      auto theirs = value_of(e, lever);
      if (theirs && (!mine || mine->empty() || *mine == *theirs)) {
        out.push_back(lever);
        break;
      }
    }
  }
  return out;
}

// The code checks: a change that runs, in code that can run as written.
diff::DiffReading running_change(Context &c, const std::string &range) {
  // No change, no strategy: the gain must be bought by code that runs.
  std::optional<diff::DiffReading> diff;
  if (!c.packet.code.empty() && c.af.get("diff_file").is_string()) diff = diff::read_diff(c.packet.code, code_after(c));
  if (!diff || diff->running_lines() == 0) {
    if (diff && !diff->unread_names.empty())
      refuse("payload.implementation.snippet", "no code change that runs " + range + ": the code lines it changes " +
                                                   "assign `" + diff->unread_names.front() +
                                                   "`, which no line of the kernel reads");
    if (diff && !diff->restated_hints.empty())
      refuse("payload.implementation.snippet",
             "no code change that runs " + range + ": the code lines it changes hint " +
                 text::quoted_code_list(diff->restated_hints) + " with " + code::kRestatedHintReason +
                 " (contiguous, starting on a multiple of its length), so they cannot widen a load");
    if (diff && !diff->dead_definitions.empty())
      refuse("payload.implementation.snippet", "no code change that runs " + range +
                                                   ": the executable lines it adds "
                                                   "define `" +
                                                   diff->dead_definitions.front() + "`, which nothing calls");
    refuse("payload.implementation.snippet",
           "no code change " + range +
               (diff ? ": the diff changes only comments, docstrings, blank lines or version stamps" : ""));
  }
  // Code that reads a name it binds nowhere cannot run as written (round 7:
  // a Gluon kernel reading undefined `X`, `W`, `eps`): what the run
  // measured was not this code.
  // (Python's names: a C++ kernel file is its compiler's to check.)
  if (auto after = code_after(c); after && kernel_language(c) == code::Language::Python) {
    auto unbound = code::unbound_names(*after);
    if (!unbound.empty())
      refuse("payload.implementation.snippet",
             "the kernel after the change reads " + text::quoted_code_list(unbound) +
                 ", which it binds nowhere (no parameter, assignment, import or definition): it cannot run as "
                 "written, so the run's measurement is not of this code");
    if (auto e = code::expand_of_an_unsliced_tensor(*after))
      refuse("payload.implementation.snippet",
             "the kernel after the change " + e->why() + ", so the run's measurement is not of this code");
  }
  // A kernel that leaves part of a benchmarked row unread (kit 61, J20: a
  // "whole-row tile" of 8192 columns credited on rows of 32000 and 151936):
  // its gain there is partly the data it skips.
  if (auto after = code_after(c))
    if (auto unread = size_left_unread(c, std::string(*after)))
      refuse("payload.implementation.snippet", "the kernel after the change: " + *unread);
  return std::move(*diff);
}

// The claim checks: the change text describes code that runs, every lever
// it names is borne out by the diff, and a step whose own commits run
// nothing claims a lever an earlier kept step of its span changed.
void claim_borne_out(Context &c, const Checked &k) {
  if (auto dead = described_dead_code(k.diff, k.change))
    refuse("payload.change", "the change text describes `" + *dead + "`, which the diff " + k.range +
                                 " defines but never calls: the measured gain is not its");
  // A claim must be visible in the code: every lever the change text names
  // that has code forms for this DSL is changed by a running line.
  if (!k.levers.missing.empty())
    refuse("payload.change", "the change text claims " + text::quoted_code_list(k.levers.missing) +
                                 ", but no running change " + k.range + " changes its code" +
                                 (k.diff.restated_hints.empty()
                                      ? std::string()
                                      : " (its hints on " + text::quoted_code_list(k.diff.restated_hints) +
                                            " restate " + code::kRestatedHintReason + ": they cannot widen a load)") +
                                 ": the measured gain is not borne out by the diff");
  if (auto absent = stated_value_absent(k.diff, code_after(c).value_or(std::string_view()), k.change,
                                        c.rules.retrieval.levers, k.dsl))
    refuse("payload.change", "the change text sets `" + absent->lever + "` to " + absent->value +
                                 ", but no running line the diff " + k.range +
                                 " adds holds it, and no line of the kernel after the change that sets the lever "
                                 "does: the claim is not the code's");
  if (auto why = c.rules.grid_cause.sm_count_claim_contradiction(k.change, k.diff)) refuse("payload.change", *why);
  // Pipelining or unrolling credited on a kernel that runs no loop.
  if (auto lever = loop_lever_without_a_loop(k.levers.realised, code_after(c), c.rules.retrieval.levers))
    refuse("payload.change", "the change text claims `" + *lever +
                                 "`, which acts on a loop, but the kernel after the change runs none (no `for` or "
                                 "`while` in its device code): the lever changes nothing there, so the gain is "
                                 "not its");
  // A lever set only through a compiler option the DSL leaves unused on
  // this kernel: the gain is not its.
  if (auto unused = lever_set_only_through_an_unused_option(k.diff, k.levers.realised, code_after(c),
                                                            c.rules.retrieval.levers, k.dsl))
    refuse("payload.change", "the change text claims `" + unused->lever + "`, which the diff sets only through `" +
                                 unused->option + "`, and " + unused->reason +
                                 ": the option changes nothing there, so the gain is not its");
  // A constant the claim names only as the condition of its path, which
  // the diff also resets, moved the shapes outside that path too (round
  // 14: "keep the row in registers when next_pow2(N) <= MAX_BLOCK_N" while
  // MAX_BLOCK_N went 1024 -> 4096; the largest gains and a +46 % regression
  // were on the looped path's wider tiles): the gain is not the claim's.
  std::string account = k.change;
  for (const auto &e : k.earlier) account += "\n" + e;
  for (const auto &r : conditions_reset(k.diff, account))
    refuse("payload.change", "the diff also sets `" + r.name + "` from " + r.from + " to " + r.to +
                                 ", which the change text names only as the condition of the path it claims: shapes "
                                 "outside that path changed too, so the gain is not the claim's");
  // A step whose own commits run nothing may still claim a lever an earlier
  // kept step of its span changed (a change kept and re-measured): the diff
  // must then bear that lever out. Otherwise the gain is not its claim's.
  const auto &span = c.af.get("span");
  bool own_runs =
      !span.get("this_step_changes_running_code").is_bool() || *span.get("this_step_changes_running_code").as_bool();
  // With no earlier kept step in the span, the diff's running code is what
  // was measured (a reverted attempt's code the run kept after all): a
  // claimed lever it realises is borne out.
  if (!own_runs &&
      (k.earlier.empty() ? k.levers.realised.empty()
                         : re_measured(c.rules.retrieval.levers, k.change, k.levers.realised, k.earlier).empty()))
    refuse("payload.change",
           "this step's own commits change no code that runs, and no lever its change text names "
           "is both changed " +
               k.range + " and named (at the same setting) by an earlier kept step: the gain belongs to " +
               (k.earlier.empty()
                    ? std::string("other steps")
                    : "the " + std::to_string(k.earlier.size()) + " earlier kept step(s) its diff also holds"));
}

// Whether `text`, without a leading label ("Change: ") and its closing
// punctuation, holds the whole change text: the change restated. (A clause
// of the change text, its "so ..." part, is a cause it states.)
bool restates_the_change(const std::string &text, const std::string &change) {
  const std::string t = comparable_reason(text), ch = comparable_reason(change);
  return ch.size() >= 16 && t.find(ch) != std::string::npos;
}

// A reason of the step's own: a reason the run gives on many steps (its
// template's expected impact, a sentence the run's other strategies share)
// is not this step's.
SourcedText own_mechanism(Context &c, const Checked &k) {
  const bool impact_is_template = expected_impact_is_template(c);
  // A cause the packet contradicts (the shapes' program counts, a shape's
  // measurement, the DRAM captures, the code after the change: the rules
  // of DraftRules) is skipped too; when no other source is left, it is the
  // refusal's reason.
  std::optional<std::string> contradicted;
  // The lines the change removed: what the code before it held that the
  // code after does not.
  std::string removed, added;
  for (auto line : k.diff.lines)
    if (line.starts_with('-') && !line.starts_with("---")) removed.append(line.substr(1)).push_back('\n');
  // The added lines that run: what the change put in the code.
  for (const auto &h : k.diff.hunks)
    for (const auto &l : h.running)
      if (l.added && !l.dead) added.append(l.code).push_back('\n');
  auto is_template = [&](const std::string &source, const std::string &text) {
    // The template's sentence is the template wherever the packet quotes
    // it (round 12: a body's "Rationale: <expected impact>" line).
    if (impact_is_template &&
        (source == "what_the_run_said.expected_impact" || text::folded(text) == text::folded(c.said.expected_impact)))
      return true;
    const auto &ex = c.rules.excluded_mechanisms;
    if (std::find(ex.begin(), ex.end(), text::folded(text)) != ex.end()) return true;
    // The run's stock sentence, whatever field quotes it (kit 45: "the
    // reduction tail is visible in the timeline", a rationale of many
    // directions, as why a persistent loop with no reduction paid).
    if (stock_sentence(c, text)) return true;
    // The change restated under a label ("Change: fuse the SiLU(gate)*up
    // activation into the GEMM epilogue instead of a separate elementwise
    // kernel."; kit 45, R38, R41, R43) gives no cause of itself.
    if (restates_the_change(text, k.change)) return true;
    // A capture's conclusion describes the kernel after the change ("DRAM-
    // bandwidth-bound: 30% of peak, long_scoreboard stalls dominating"):
    // it is this change's cause only when it compares before and after
    // ("issue slots busy drop from 41% to 37%") or names a lever the change
    // claims (round 14: the state of the untouched looped path served as
    // why keeping the row in registers helped).
    const auto named = c.rules.retrieval.levers.named_in(text);
    const bool names_a_claimed_lever = std::any_of(named.begin(), named.end(), [&](const std::string &l) {
      return std::find(k.levers.claimed.begin(), k.levers.claimed.end(), l) != k.levers.claimed.end();
    });
    if (source == "profiler.conclusion" && !c.rules.causal.compares(text) && !names_a_claimed_lever) return true;
    // A direction's rationale speaks for the step only when the levers it,
    // or the direction it gives the reason for, names include one the
    // change text names: round 14 served "more warps per row raise
    // memory-level parallelism" as why a vector-width change helped, and
    // "wider loads: fewer instructions" (direction "vec4 K/V loads") as why
    // query heads were grouped. One that names no lever is not judged here.
    // A direction's rationale gives the reason for one lever; a step that
    // claims several measured them only together (kit 24's L11, kit 26's
    // N15: "cheaper reciprocal square root" as the mechanism of warps 4 ->
    // 8 + approximate rsqrt, the inert half).
    if (source == "what_the_run_said.directions_taken_up" && levers::claims_several_changes(k.change)) return true;
    if (source == "what_the_run_said.directions_taken_up") {
      std::vector<std::string> about = named;
      for (const auto &d : c.said.directions_taken_up)
        if (d.rationale == text)
          for (auto &l : c.rules.retrieval.levers.named_in(d.direction)) about.push_back(std::move(l));
      const auto in_change = c.rules.retrieval.levers.named_in(k.change);
      if (!about.empty() && std::none_of(about.begin(), about.end(), [&](const std::string &l) {
            return std::find(in_change.begin(), in_change.end(), l) != in_change.end();
          }))
        return true;
    }
    auto why = c.rules.grid_cause.contradiction(text, c.af.get("measurements"));
    if (!why) why = c.rules.grid_cause.tail_seen_contradiction(text, c.af.get("profiler"));
    if (!why) why = c.rules.every_shape.contradiction(text, c.af.get("measurements"));
    if (!why) why = c.rules.dram_cause.contradiction(text, c.af.get("profiler"));
    if (!why) why = c.rules.cache_level.contradiction(text, added);
    if (!why) why = c.rules.removed_call.contradiction(text, removed);
    if (!why)
      why = c.rules.operand_reuse.contradiction(text, code_after(c).value_or(std::string_view()), kernel_language(c));
    if (!why) why = c.rules.tile_claim.contradiction(text, code_after(c).value_or(std::string_view()));
    if (!why) why = c.rules.direction_claim.contradiction(text, k.change, c.rules.retrieval.levers);
    if (!why) why = c.rules.cross_warp.contradiction(text, code_after(c).value_or(std::string_view()), removed);
    if (!why) why = c.rules.low_precision_sum.contradiction(text, code_after(c).value_or(std::string_view()));
    if (!why)
      why = c.rules.low_precision_sum.short_sum_contradiction(text, code_after(c).value_or(std::string_view()),
                                                              c.op.fixed_axes);
    if (!why) why = c.rules.single_pass.contradiction(text, code_after(c).value_or(std::string_view()));
    if (!why)
      why = c.rules.single_pass.pass_removal_contradiction(text, k.diff, kernel_language(c) == code::Language::Python);
    if (!why)
      why = c.rules.warpgroup.contradiction(text, c.packet_target.scope, code_after(c).value_or(std::string_view()));
    if (why && !contradicted) contradicted = why;
    return why.has_value();
  };
  auto mech = strategy_mechanism(c.af, c.rules.causal, is_template);
  if (!mech && contradicted) refuse("payload.mechanism", *contradicted);
  if (!mech)
    refuse("payload.mechanism",
           impact_is_template
               ? "the packet states no reason of this step's own: its expected impact is the run's template default "
                 "(stated on " +
                     std::to_string(c.said.expected_impact_stated_by_steps) +
                     " steps), and it has no causal sentence, profiler conclusion of the kernel under test, "
                     "rationale of a direction taken up, or causal change text"
               : "the packet states no reason for the gain: no causal sentence, expected impact, profiler "
                 "conclusion of the kernel under test, rationale of a direction taken up, or causal change text");
  return std::move(*mech);
}

} // namespace

bool expected_impact_is_template(const Context &c) {
  auto steps = c.said.expected_impact_stated_by_steps;
  return steps > 0 && static_cast<std::size_t>(steps) >= c.rules.template_min_steps;
}

Checked check_strategy(Context &c) {
  Checked k;
  k.change = required_string(c.af.get("what_the_run_said").get("change"), "payload.change",
                             "the run recorded no description of its change");
  k.range = range_of(c.provenance);
  k.diff = running_change(c, k.range);
  if (auto line = c.rules.barrier_removal.removed_barrier(c.packet.code))
    refuse("payload.implementation.snippet", "the change " + diff::BarrierRemovalRule::why_unestablished(*line) +
                                                 ", so the removal is no technique to copy");
  if (auto swap = c.rules.function_swap.swapped(c.packet.code))
    refuse("payload.implementation.snippet", diff::FunctionSwapRule::why_not_the_lever(*swap));
  // A change that leaves its kernel's launch without a constexpr does not
  // run as written (kit 49, V08: "autotune" on a helper nothing calls, and
  // the launch stopped passing BLOCK_N): the gain is not this code's. A
  // later change that inherits the state is judged on what it changes.
  if (auto after = code_after(c); after && kernel_language(c) == code::Language::Python)
    if (auto unsupplied = code::unsupplied_constexprs(*after);
        !unsupplied.empty() && code::diff_leaves_it_unsupplied(c.packet.code, unsupplied.front()))
      refuse("payload.implementation.snippet", code::why_it_cannot_launch(unsupplied.front()) +
                                                   " after the change: the run's measurement is not of this code");
  established_gain(c);
  k.dsl = c.op.dsl;
  k.levers = levers::read_levers(k.diff, k.change, c.rules.retrieval.levers, k.dsl);
  // The step's own span: a diff that also holds earlier kept steps names
  // them and credits the gain to all of them together. A step whose text
  // names levers the diff's running code does not change left nothing of
  // itself in the diff (a later step undid it: round 9, fp16 exponentials
  // reverted before the milestone), so it is not named.
  for (auto &e : strings_at(c.af.get("span").get("earlier_kept_steps"), "change"))
    if (levers::left_in_diff(k.diff, e, c.rules.retrieval.levers, k.dsl)) k.earlier.push_back(std::move(e));
  // Steps that set one lever again, or toggle one knob, are named by the
  // last (kit 24's "cluttered" change).
  k.earlier = levers::without_superseded_steps(k.earlier, c.rules.retrieval.levers);
  claim_borne_out(c, k);
  k.mech = own_mechanism(c, k);
  return k;
}
} // namespace otm::distill::drafting
