// The strategy drafter: a milestone's change, once its checks have passed
// (strategy_checks: claims visible in running code, spans, template
// reasons; the gain's checks are strategy_gain's), written with its
// snippet, mechanism and retrieval terms.
#include "distill/draft_context.hpp"
#include "distill/strategy_checks.hpp"
#include "distill/strategy_gain.hpp"

#include "text/code_list.hpp"
#include "text/sentences.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "code/tailless_loops.hpp"
#include "diff/diff_reading.hpp"
#include "distill/change_claims.hpp"
#include "distill/constructs_changed.hpp"
#include "distill/diff_snippet.hpp"
#include "distill/earlier_tries_said.hpp"
#include "distill/lever_prose.hpp"
#include "levers/lever_reading.hpp"
#include "levers/lever_settings.hpp"
#include "record/established_fact.hpp"
#include "record/leak_shapes.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill::drafting {

namespace {

// At most this many levers whose settings a change's code changes tag it
// when its words name none: more is a rewrite, tagged by none.
constexpr std::size_t kMaxCodeLeverTags = 3;

// Whether a recorded caveat can tell a reader when it applies: four words
// or more, and not an error message or a stack trace.
bool states_a_condition(const std::string &caveat) {
  static const text::Regex error_text(R"((?:\b[A-Z]\w*(?:Error|Exception)\b|\bTraceback\b|^\s*error\b))");
  std::size_t words = 0;
  bool in_word = false;
  for (char ch : caveat) {
    bool w = !std::isspace(static_cast<unsigned char>(ch));
    if (w && !in_word) ++words;
    in_word = w;
  }
  return words >= 4 && !error_text.contains(caveat);
}

// "in code it changed `a` to `b`, which the kernel holds" from a packet's
// builds_on.its_running_change ({removed, added}), "" when absent.
std::string running_change_words(const Value &change) {
  auto quoted = [](const Value &lines) {
    std::string out;
    for (const auto &l : strings_at(lines)) out += (out.empty() ? "`" : "; `") + l + "`";
    return out;
  };
  const std::string removed = quoted(change.get("removed")), added = quoted(change.get("added"));
  if (added.empty()) return "";
  return (removed.empty() ? "in code it added " + added : "in code it changed " + removed + " to " + added) +
         ", which the kernel holds";
}

// payload.trace: the step the code builds on and the techniques the code
// already carries.
Value trace_of(Context &c, const std::vector<std::string> &applied_before) {
  const auto &bo = c.af.get("builds_on");
  bool baseline = bo.get("was_the_untouched_baseline").truthy();
  std::string approach;
  auto prev = text_of(bo.get("previous_approach"));
  if (prev) prev = levers::what_a_change_did(*prev);
  // Round 11: the step before was a loader partition nothing launches (its
  // real change, num_warps, unnamed); kit 30: a reader then took the
  // record to build on another step than the one its diff starts from. The
  // step the diff starts from is named, with what of it the kernel does not
  // run, and when it runs none of it, the latest kept change of the lineage
  // the kernel runs. A setting held in another form than the run wrote it
  // is not said (kit 32: `ld_evict_first_v4` for "evict_first loads", a
  // value the step itself changed again): the kernel after the change is
  // no reading of the code before it.
  if (prev && !baseline)
    if (const auto not_run = levers_not_run(c, *prev); !not_run.empty()) {
      std::string did = std::string(text::rstrip_chars(*prev, " ."));
      std::vector<std::string> absent;
      std::string option_reason;
      for (const auto &n : not_run) {
        if (n.unused_option.empty())
          absent.push_back(n.lever);
        else if (option_reason.empty())
          option_reason = n.unused_option;
      }
      // The configuration's reason, as it gives it (kit 32, U24: "it is
      // passed to the launch" answers a bare "changes nothing").
      if (!option_reason.empty()) did += " (" + std::string(text::rstrip_chars(option_reason, " .")) + ")";
      // What that step changed in running code, which the kernel holds,
      // when its words name a lever its code does not have (kit 54, Q09:
      // "splits 16->32" for `GROUP_SIZE_M = 16` -> `32`): the words
      // mislabel a change that runs, not a change that is gone.
      const auto its_code = running_change_words(bo.get("its_running_change"));
      if (!absent.empty())
        did += its_code.empty() ? "; the kernel after this step holds no code of its " + lever_words(absent)
                                : "; no " + lever_words(absent) + " code: " + its_code;
      // Only when its code is gone: a compiler option left unused changes
      // nothing, and the step's other words may name what runs (kit 32,
      // U11: "EVICT (cache hints) + num_stages 2->1").
      const bool none_runs = !absent.empty() && its_code.empty() &&
                             not_run.size() == c.rules.retrieval.levers.prose().tags_in(*prev).size();
      if (none_runs)
        if (auto running =
                latest_change_the_kernel_runs(c, strings_at(c.af.get("kept_changes_of_its_lineage"), "change")))
          did += "; the latest kept change it runs: " + levers::what_a_change_did(*running);
      if (!did.ends_with('.')) did += '.';
      prev = std::move(did);
    }
  if (prev)
    approach = baseline ? "the untouched baseline: " + *prev : *prev;
  else if (baseline)
    approach = "the untouched baseline";
  else {
    approach = "an earlier step of this run (the packet does not describe it)";
    c.out.thin.push_back("payload.trace.builds_on.approach");
  }
  Value builds_on = Value::object();
  builds_on.set("approach", approach);
  builds_on.set("is_baseline", baseline);
  Value trace = Value::object();
  trace.set("builds_on", builds_on);
  if (!applied_before.empty()) trace.set("techniques_applied_before", Value::strings(applied_before));
  return trace;
}

// The names in what a changed line changes (ChangedLine::changed) that
// are settings of one of `levers`: an upper-case constant or a keyword
// argument that is one of the lever's code forms (`VEC`, `num_warps=`),
// not an API it calls (`tl.max_contiguous`), in line order, each once.
std::vector<std::string> settings_changed(const diff::ChangedLine &l, const std::vector<std::string> &levers,
                                          const levers::LeverVocabulary &vocabulary, const std::string &dsl) {
  static const text::Regex name(R"((?<![\w.])([A-Za-z_]\w*)(\s*=(?!=))?)");
  static const text::Regex constant(R"(^[A-Z][A-Z0-9_]*$)");
  std::vector<std::string> out;
  for (const auto &m : name.find_all(l.changed)) {
    std::string id(m[1]);
    if (!m.has(2) && !constant.contains(id)) continue;
    const auto of = vocabulary.levers_in_code(id, dsl);
    if (std::none_of(of.begin(), of.end(),
                     [&](const std::string &x) { return std::find(levers.begin(), levers.end(), x) != levers.end(); }))
      continue;
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(std::move(id));
  }
  return out;
}

// The code's names for what the run's account calls otherwise: a setting
// it names by a name no running line holds, where the lines realising that
// lever set another (kit 29, R05: "WARPS_PER_BLOCK 4->1" where the code
// sets `NUM_WARPS`; R17: "ROWS_PER_BLOCK 1->4" for `ROWS_PER_WARP`), and a
// name the diff defines but nothing calls or reads (R12: `ld_nc_v4`, while
// the loop calls `ld_evict_first_v4`). Empty when the account's names are
// the code's.
std::string code_names(const Context &c, const Checked &k, const levers::LeverVocabulary &vocabulary) {
  const std::string_view claim = levers::claim_of(k.change);
  // Device functions of the kernel after the change that nothing calls
  // (a CUDA `__device__` helper of a load_inline source too).
  std::vector<std::string> uncalled;
  if (auto after = code_after(c)) uncalled = kernel_inert_code(*after, c.kernel_block.kernel_file).uncalled_functions;
  auto added_by_the_change = [&](const std::string &name) {
    for (const auto &h : k.diff.hunks)
      for (const auto &l : h.running)
        if (l.added && diff::holds_name(l.code, name)) return true;
    return false;
  };
  auto held = [&](const std::string &name) {
    for (const auto &h : k.diff.hunks)
      for (const auto &l : h.running)
        if (!l.dead && diff::holds_name(l.code, name)) return true;
    return false;
  };
  auto among = [](const std::vector<std::string> &list, const std::string &x) {
    return std::find(list.begin(), list.end(), x) != list.end();
  };
  std::string out;
  // The code's names and the run's for them, each list of code names once
  // (kit 36, Y12: "evict_first" and ".cs" both `__ldcs`, told twice).
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> told;
  for (const auto &n : diff::names_of(claim)) {
    if (!n.strong || !diff::is_code_name(n.text)) continue;
    // A helper the change adds and nothing calls (its own lines name it).
    const bool never_called =
        among(k.diff.dead_definitions, n.text) || (among(uncalled, n.text) && added_by_the_change(n.text));
    if (!never_called && held(n.text)) continue;
    if (never_called || among(k.diff.unread_names, n.text)) {
      out += " `" + n.text + "`, which the run names, is " +
             (never_called ? "defined by the change and never called" : "assigned by the change and never read") +
             ": the gain is the rest of the change's.";
      continue;
    }
    // The lever the name would set, and the names the lines realising it set.
    const auto levers = vocabulary.levers_in_code(n.text, k.dsl);
    if (levers.empty()) continue;
    std::vector<std::string> names;
    for (const auto &h : k.diff.hunks)
      for (const auto &l : h.running) {
        if (!levers::changes_lever(l, levers, vocabulary, k.dsl)) continue;
        // The settings of the lever in what the line changes (kit 32, U24:
        // `VEC` added to a signature that also names `BLOCK_V`, and to
        // `cols = tl.max_contiguous(..., VEC)`), else what it defines.
        auto set = settings_changed(l, levers, vocabulary, k.dsl);
        // Else the lever's own code forms in what an added line changes
        // (`__ldcs` for `__ldg`), else what the line defines or the call owning the
        // change, when that is the lever's code: `__bfloat162float`
        // around a `__ldcs` is no setting of the cache hint (kit 36, Y12).
        if (set.empty() && l.added) // what the change sets, not what it replaced
          for (const auto &lever : levers)
            for (auto &f : vocabulary.code_forms_in(lever, l.changed, k.dsl))
              if (diff::is_code_name(f) && !among(set, f)) set.push_back(std::move(f));
        const std::string &defined = !l.defines.empty() ? l.defines : l.owner;
        const bool defined_is_lever = std::any_of(levers.begin(), levers.end(), [&](const std::string &lever) {
          return vocabulary.in_code(lever, defined, k.dsl);
        });
        if (set.empty() && !defined.empty() && defined_is_lever) set.push_back(defined);
        for (auto &x : set)
          if (x != n.text && !among(names, x)) names.push_back(std::move(x));
      }
    // A name the account already gives ("enable VEC (ld.global.nc.v4)")
    // needs no second telling.
    const bool given = std::any_of(names.begin(), names.end(),
                                   [&](const std::string &x) { return diff::holds_name(std::string(claim), x); });
    if (names.empty() || names.size() > 2 || given) continue;
    auto same = std::find_if(told.begin(), told.end(), [&](const auto &t) { return t.first == names; });
    if (same == told.end())
      told.emplace_back(names, std::vector<std::string>{n.text});
    else if (!among(same->second, n.text))
      same->second.push_back(n.text);
  }
  for (const auto &[names, run_names] : told) {
    out += " In the code the setting is " + text::quoted_code_list(names) + " (the run calls it " +
           text::prose_list(run_names) + ").";
  }
  return out;
}

// payload.change: the run's account, with the kept steps measured with it
// and the settings of other levers its diff also moves.
std::string change_of(const Context &c, const Checked &k, const levers::LeverVocabulary &vocabulary) {
  std::string with = k.change;
  if (!k.earlier.empty()) {
    // Each kept step of the span with its own change text: the gain is
    // theirs together.
    if (!with.empty() && with.back() != '.') with += '.';
    // No count and no numbering: a number the packet does not hold is a
    // fabrication (the no-fabrication gate).
    // The steps are listed as the run kept them; a later step may have
    // undone one, so the record does not claim their code is in the diff.
    with += " Measured together with the kept step" + std::string(k.earlier.size() > 1 ? "s" : "") +
            " between the best-so-far and it (the diff shows what of them remains): ";
    // A step the run gave only its timing for is said to be so (kit 33: a
    // "kept -> 67.7→68.1µs (+0.6%) no improvement" subject quoted as a change).
    for (std::size_t i = 0; i < k.earlier.size(); ++i)
      with += (i ? "; " : "") + (names_a_change(c, k.earlier[i])
                                     ? std::string(text::rstrip_chars(k.earlier[i], " ."))
                                     : std::string("a kept step whose account gives only its timing"));
    with += ".";
  }
  // Several changes claimed at once were measured as one (round 18: a
  // mechanism about an L2 hint for a step that also replaced a gather with
  // two contiguous loads, the larger share): said, so no part takes the
  // whole gain.
  if (levers::claims_several_changes(k.change)) {
    if (!with.empty() && with.back() != '.') with += '.';
    with += " The run made these changes in one step and measured them only together: the gain is not any one's "
            "alone.";
  }
  // Settings of other levers the diff also moves (`NUM_STAGES` beside a
  // claimed block size): named, so the gain is not read as the claim's alone.
  std::string accounts = k.change + "\n" + k.mech.text;
  for (const auto &e : k.earlier) accounts += "\n" + e;
  auto others = other_settings_changed(k.diff, accounts, vocabulary, k.dsl);
  if (!others.empty()) {
    std::vector<std::string> names;
    for (const auto &o : others) names.push_back(o.name);
    if (!with.empty() && with.back() != '.') with += '.';
    with += " The diff also changes " + text::quoted_code_list(names) +
            ", which the run's account does not name: the gain is theirs together.";
  }
  if (auto names = code_names(c, k, vocabulary); !names.empty()) {
    if (!with.empty() && with.back() != '.') with += '.';
    with += names;
  }
  if (auto before = tried_before(c); !before.empty()) {
    if (!with.empty() && with.back() != '.') with += '.';
    with += before;
  }
  if (auto launch = launch_by_shape(c); !launch.empty()) {
    if (!with.empty() && with.back() != '.') with += '.';
    with += launch;
  }
  return with;
}

// payload.next_steps: the directions the run left open, but not one that
// only names the levers this very change pulled ("try a persistent kernel"
// on the step that made it persistent), nor one that only names levers the
// code already carries from earlier kept steps (the schema: not to be
// recommended again).
Value next_steps_of(Context &c, const Checked &k, const std::vector<std::string> &applied_before) {
  const auto &vocabulary = c.rules.retrieval.levers;
  auto only_this_change = [&](const std::string &direction) {
    auto named = vocabulary.named_in(direction);
    return !named.empty() && std::all_of(named.begin(), named.end(), [&](const std::string &l) {
      return std::find(k.levers.claimed.begin(), k.levers.claimed.end(), l) != k.levers.claimed.end() ||
             std::find(applied_before.begin(), applied_before.end(), l) != applied_before.end();
    });
  };
  // A direction whose every lever is a compiler option this kernel's DSL
  // leaves unused here ("Try pipeline stages" on a Triton kernel with no
  // tl.dot, kit 33) changes nothing the kernel runs.
  auto only_unused_options = [&](const std::string &direction) {
    const auto named = vocabulary.named_in(direction);
    const auto not_run = levers_not_run(c, direction);
    return !named.empty() && not_run.size() == named.size() &&
           std::all_of(not_run.begin(), not_run.end(), [](const LeverNotRun &n) { return !n.unused_option.empty(); });
  };
  Value next = Value::array();
  std::set<std::string> seen;
  if (const auto *dirs = c.af.get("open_directions").as_array())
    for (const auto &d : *dirs)
      if (auto t = text_of(d.get("direction"));
          t && !only_this_change(*t) && !only_unused_options(*t) && seen.insert(text::folded(*t)).second)
        next.push_back(*t);
  if (!next.size()) c.out.thin.push_back("payload.next_steps");
  return next;
}

// Whether the diff adds a running line holding `code` (whitespace aside).
bool adds_line(const diff::DiffReading &d, const std::string &code) {
  const std::string want = text::without_whitespace(code);
  for (const auto &h : d.hunks)
    for (const auto &l : h.running)
      if (l.added && text::without_whitespace(l.code).find(want) != std::string::npos) return true;
  return false;
}

// payload.applies_when: the caveats the run recorded for this very step,
// verbatim, when they state a condition (not "slow", not an exception's
// message) about a lever this change claims: a step record also carries
// other levers' pitfalls, copied forward, and their fixes ("kept 1") may
// contradict this record.
Value applies_when_of(Context &c, const Checked &k) {
  const auto &vocabulary = c.rules.retrieval.levers;
  const auto &claimed = k.levers.claimed;
  // A caveat that says the very setting this change kept fails ("2 rows
  // per program halve the grid" on the step that kept two rows) is an
  // earlier failure's account, which the win contradicts: left out.
  // So is a caveat that reports the claimed lever failing ("split the KV
  // sequence: 8 gave no speedup ... do not retry") at no setting other than
  // the kept one: the step's own measurement says it won.
  const auto kept_settings = levers::settings_in(vocabulary, levers::claim_of(k.change));
  static const text::Regex reports_failure(
      R"((?i)\bno (?:speed-?up|gain|improvement)\b|\bslower\b|\bregress(?:ed|ion|es)?\b|\bdo not retry\b|\bdon't retry\b|\bnot worth\b)");
  auto contradicts_the_win = [&](const std::string &caveat) {
    const auto stated = levers::settings_in(vocabulary, caveat);
    for (const auto &s : stated)
      for (const auto &kept : kept_settings)
        if (!s.value.empty() && s.lever == kept.lever && s.value == kept.value) return true;
    if (!reports_failure.contains(caveat)) return false;
    bool other_setting = false, named_claim = false;
    for (const auto &s : stated) {
      if (std::find(claimed.begin(), claimed.end(), s.lever) == claimed.end()) continue;
      named_claim = true;
      for (const auto &kept : kept_settings)
        if (kept.lever == s.lever && !s.value.empty() && !kept.value.empty() && s.value != kept.value)
          other_setting = true;
    }
    return named_claim && !other_setting;
  };
  Value applies = Value::array();
  // A loop the change adds that takes whole chunks and leaves the rest
  // (code::tailless_loops; kit 33, V07 and V39: V % 8 == 0 unsaid).
  if (auto after = code_after(c))
    for (const auto &l : code::tailless_loops(*after, kernel_language(c)))
      if (adds_line(k.diff, l.head))
        applies.push_back(
            record::version_ids(l.head).empty()
                ? "`" + l.bound + "` a multiple of " + std::to_string(l.chunk) + ": the loop `" + l.head +
                      "` takes whole chunks of " + std::to_string(l.chunk) + " and nothing after it takes the rest"
                // Prose is held to the version-id rule: `v0` would read as a leak.
                : "sizes a multiple of " + std::to_string(l.chunk) + ": a loop the change adds takes whole chunks of " +
                      std::to_string(l.chunk) + " and nothing after it takes the rest");
  if (const auto *pits = c.af.get("pitfalls_recorded_here").as_array())
    for (const auto &e : *pits)
      if (auto t = text_of(e.get("pitfall")); t && states_a_condition(*t) && !contradicts_the_win(*t)) {
        auto named = vocabulary.named_in(*t);
        bool mine = std::any_of(named.begin(), named.end(), [&](const std::string &l) {
          return std::find(claimed.begin(), claimed.end(), l) != claimed.end();
        });
        if (mine) applies.push_back(*t);
      }
  return applies;
}

// retrieval: tags from the change (the levers it claims that the code bears
// out, or that no code can show, like a fusion; never the step's
// category), symptoms and triggers from the run's reasons.
RecordTerms strategy_terms(Context &c, const Checked &k, const DiffSnippet &hunk) {
  const auto &vocabulary = c.rules.retrieval.levers;
  RecordTerms terms(c.rules.retrieval);
  auto diff_changes = [&](const std::string &lever) {
    for (const auto &h : k.diff.hunks)
      for (const auto &line : h.running)
        if (levers::changes_lever(line, {lever}, vocabulary, k.dsl)) return true;
    return false;
  };
  bool lever_tagged = false;
  for (const auto &l : vocabulary.prose().tags_in(k.change))
    if (diff_changes(l) || !vocabulary.checkable(l, k.dsl)) terms.tag(l), lever_tagged = true;
  // A change whose words name no lever is tagged by the levers whose
  // settings its own code changes (`BLOCK_N=32` -> `64`: the owner of a
  // changed value), when the diff is its step's alone (round 6: empty
  // technique_tags) and is nothing but those settings: a rewrite that also
  // resizes BLOCK_N is not block-size tuning (kitQ #12), and code a rewrite
  // adds wholesale names every lever it touches. A DSL call owning the
  // change (`gl.load(...)`) is no lever's.
  if (!lever_tagged && k.earlier.empty()) {
    std::vector<std::string> set;
    bool only_settings = true;
    for (const auto &h : k.diff.hunks)
      for (const auto &line : h.running) {
        if (line.dead) continue;
        std::vector<std::string> owned;
        if (!line.owner.empty() && !diff::is_language_call(line.owner))
          owned = vocabulary.levers_in_code(line.owner, k.dsl);
        only_settings = only_settings && !owned.empty();
        for (const auto &l : owned)
          if (std::find(set.begin(), set.end(), l) == set.end()) set.push_back(l);
      }
    if (only_settings && set.size() <= kMaxCodeLeverTags)
      for (const auto &l : set) terms.tag(l);
  }
  for (const auto &n : hunk.names)
    if (diff::changes_name(k.diff, n))
      if (auto t = tag_of(n); t.size() >= 4) terms.tag(t);
  const auto &said = c.said;
  // A rationale the run gives on many steps of many kinds says nothing of
  // when to reach for this record (kit 51, X07: "profile shows DRAM
  // throughput below 80% of peak on the large shape", 45 steps, as the
  // trigger of a reduction rewrite).
  std::vector<std::string> situation;
  for (auto &r : nonblank_rationales(said.directions_taken_up))
    if (!stock_sentence(c, r)) situation.push_back(std::move(r));
  // The run's template (one expected impact on many steps) says nothing
  // of when to reach for this record (round 18: "Expected to reduce
  // memory-bound latency by improving coalescing and occupancy" as the
  // trigger of four strategies), wherever the packet quotes it.
  const bool impact_is_template = expected_impact_is_template(c);
  const std::string impact = text::folded(said.expected_impact);
  for (const auto &s : nonblank_strings(said.causal_sentences))
    if (!impact_is_template || text::folded(without_reason_label(s)) != impact)
      situation.push_back(without_reason_label(s));
  if (auto t = text_of(said.expected_impact); t && !impact_is_template) situation.push_back(*t);
  // What the run saw before the change: a report of the changed kernel
  // describes the state after it, so it names no symptom of this record.
  if (k.mech.source != "profiler.conclusion") situation.push_back(k.mech.text);
  situation.push_back(k.change);
  terms.symptoms_in(situation, symptoms_as(c));
  // No symptom named: the search that should find this record is for the
  // lever it pulls (the code bears out, else the text claims, else the
  // claim's own words), on this operator and hardware.
  if (!terms.has_triggers()) {
    // The claim's own words: its first sentence without the verb of
    // change ("considering enable TOPK_FIRST (top-k before softmax)", not
    // "considering Changed enable ... After renormalisation ...").
    // A step that claims several changes at once is searched for by all of
    // them: the levers the vocabulary knows may be its minor part (kit 23,
    // K12: "considering row packing" for top-k-before-softmax plus two
    // rows per program).
    const std::string claimed = lever_without_its_cause(k.change, vocabulary);
    const bool bundle = levers::claims_several_changes(k.change) && !text::strip(claimed).empty();
    std::string what = bundle                       ? std::string(text::rstrip_chars(text::strip(claimed), " .;:,"))
                       : !k.levers.realised.empty() ? lever_words(k.levers.realised)
                       : !k.levers.claimed.empty()  ? lever_words(k.levers.claimed)
                                                    : std::string(text::rstrip_chars(text::strip(claimed), " .;:,"));
    if (!what.empty())
      terms.trigger("considering " + what + " for " + (c.family.empty() ? std::string("this operator") : c.family) +
                    " on " + c.gpu);
  }
  return terms;
}

// evidence: the measurement, and the capture when the mechanism is its.
Value strategy_evidence(Context &c, const Checked &k) {
  bool measured = c.af.get("measurements").get("geomean_us").is_number();
  bool cites_capture = c.prov.get("ncu_dirs").size() > 0;
  const char *basis = k.mech.source == "profiler.conclusion" && cites_capture ? "profiler"
                      : measured                                              ? "bench-only"
                                                                              : "none";
  Value ev = Value::object();
  ev.set("summary", summary_of(c, measured ? "measured" : "inferred", basis,
                               "no bottleneck class is claimed: otm-draft does not classify bottlenecks"));
  ev.set("raw", raw_of(c, effect_of(c, true), std::string(basis) == "profiler"));
  return ev;
}

} // namespace

Value draft_strategy(Context &c) {
  const Checked k = check_strategy(c);
  const auto &vocabulary = c.rules.retrieval.levers;
  Value r = record_head(c);
  Value p = Value::object();
  p.set("goal", "Make " + (c.family.empty() ? std::string("this operator") : c.family) + " faster on " + c.gpu);
  p.set("problem", problem_of(c));
  const auto applied_before = levers_applied_before(c);
  p.set("trace", trace_of(c, applied_before));
  p.set("change", change_of(c, k, vocabulary));
  // A label for a mechanism ("Cheaper reduction.") is said with what the
  // code changes, when that is a few constructs in and out.
  std::string mechanism = k.mech.text;
  if (text::code_points(mechanism) < record::kMinMechanismChars && !c.rules.causal.is_causal(mechanism))
    if (const auto in_code = constructs_changed(k.diff, vocabulary, k.dsl); !in_code.empty()) {
      mechanism = text::rstrip(mechanism);
      if (!mechanism.ends_with('.')) mechanism += '.';
      mechanism += in_code;
    }
  p.set("mechanism", mechanism);
  auto hunk = choose_diff_hunks(
      k.diff, k.change,
      [&](const diff::ChangedLine &line) { return levers::changes_lever(line, k.levers.realised, vocabulary, k.dsl); },
      code_after(c).value_or(std::string_view()));
  Value impl = Value::object();
  impl.set("format", kDiffFormat);
  impl.set("snippet", hunk->text);
  p.set("implementation", impl);
  p.set("cost", cost_of(k.diff));
  p.set("next_steps", next_steps_of(c, k, applied_before));
  if (auto applies = applies_when_of(c, k); applies.size()) p.set("applies_when", applies);
  r.set("payload", p);
  set_terms(r, strategy_terms(c, k, *hunk));
  if (auto regime = gain_regime(c))
    if (auto *retrieval = r.find("retrieval"))
      if (auto *signals = retrieval->find("signals"))
        if (auto *shape_regime = signals->find("shape_regime")) shape_regime->set("predicate", *regime);
  r.set("evidence", strategy_evidence(c, k));
  Value gain = strategy_gain(c);
  if (!k.earlier.empty()) {
    std::string note = "measured from the best-so-far across this step and the kept step" +
                       std::string(k.earlier.size() > 1 ? "s" : "") + " before it, together; not this step's alone";
    if (const auto *n = gain.get("note").as_string()) note = *n + "; " + note;
    gain.set("note", note);
  }
  r.set("worth", worth_of(std::move(gain)));
  return r;
}

} // namespace otm::distill::drafting
