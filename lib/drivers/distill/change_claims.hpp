// What a strategy may claim from its diff, beyond the snippet: the cost of
// applying it (from the changed lines that run), a function the change text
// describes that the diff defines and nothing calls (the gain is then not
// its), which levers the change text claims and the diff changes, and which
// retrieval terms the diff bears out.
//
//   record["payload"]["cost"] = cost_of(diff);              // edit_scope, risk, risk_basis
//   if (auto f = described_dead_code(diff, change)) refuse(...);
//   terms.techniques_in(change, changed_by(diff));          // code names the diff changes
#pragma once

#include <optional>
#include <string>

#include "diff/diff_reading.hpp"
#include "distill/retrieval_terms.hpp"
#include "levers/lever_reading.hpp"
#include "levers/lever_settings.hpp"
#include "levers/lever_vocabulary.hpp"
#include "json/value.hpp"

namespace otm::distill {

// A change that touches this many lines that run rewrites the kernel's
// architecture (a port, a new decomposition), not one of its parts.
inline constexpr std::size_t kArchitectureLines = 40;

json::Value cost_of(const diff::DiffReading &diff);

std::optional<std::string> described_dead_code(const diff::DiffReading &diff, const std::string &change);

// The stated settings (levers::settings_in) the diff moves away from: a
// running removed line changing the lever's code holds the value and no
// running added line changing it does. The code the attempt was tried on
// already had that setting, so "it fails" is not what the attempt shows
// ("BLOCK_N=4096 spills" for an attempt that took BLOCK_N from 4096 to 512).
// Settings without a value, or dropping one ("no .cg"), are never listed.
std::vector<levers::LeverSetting> settings_moved_away(const diff::DiffReading &diff,
                                                      const std::vector<levers::LeverSetting> &stated,
                                                      const levers::LeverVocabulary &vocabulary, std::string_view dsl);

// A stated setting whose direction the diff contradicts: the text says the
// lever went up ("increase num_stages to 2", "raised BLOCK to 512") or
// down ("lower", "reduce", "fewer") just before the setting, and the one
// number the diff's running removed lines held for that lever lies on the
// other side of the stated value (num_stages 3 -> 2). Round 12: a Gluon
// attempt filed as "increase to 2 stages" lowered them from 3.
struct ContradictedDirection {
  levers::LeverSetting setting;
  std::string said;   // "raises" or "lowers"
  std::string before; // the value the diff moves it from
};
std::optional<ContradictedDirection> direction_contradicted(const diff::DiffReading &diff, std::string_view text,
                                                            const std::vector<levers::LeverSetting> &stated,
                                                            const levers::LeverVocabulary &vocabulary,
                                                            std::string_view dsl);

// How the diff moves a lever's one whole-number setting: the one number its
// running removed lines set the lever's own name to, and the one its added
// lines set (`BLOCK_N = 256` -> `BLOCK_N = 64`): "BLOCK_N 256 -> 64". One
// per lever of `levers` whose setting the diff moves so; the others
// (several numbers, none, the same) say nothing.
struct LeverMove {
  std::string lever;
  std::string name; // the code name set (`BLOCK_N`)
  long from = 0, to = 0;
};
std::vector<LeverMove> lever_moves(const diff::DiffReading &diff, const std::vector<std::string> &levers,
                                   const levers::LeverVocabulary &vocabulary, std::string_view dsl);

// A stated whole-number setting the diff sets to another value: the one
// number the diff's running added lines hold for that lever is not the
// stated one (round 13: "ROWS_PER_PROG=8 12.2% slower" for an attempt whose
// code set ROWS_PER_PROG = 2). The setting and the value the diff sets.
struct ContradictedValue {
  levers::LeverSetting setting;
  std::string tried; // the value the diff sets
};
std::optional<ContradictedValue> value_contradicted(const diff::DiffReading &diff,
                                                    const std::vector<levers::LeverSetting> &stated,
                                                    const levers::LeverVocabulary &vocabulary, std::string_view dsl);

// A number the change text sets a claimed lever to that the code does not
// hold (kit 60, K25: "16 warps" for autotune configs of 4 and 8 warps;
// K22: "K step 32->64" with `BLOCK_K` 32 throughout): no running line the
// diff adds holds it, and no line of the code after the change that holds
// the lever's code (of the tile axis the text names, when it names one)
// does. The first such setting; nullopt when every stated number is there.
std::optional<levers::LeverSetting> stated_value_absent(const diff::DiffReading &diff, std::string_view after,
                                                        std::string_view change,
                                                        const levers::LeverVocabulary &vocabulary,
                                                        std::string_view dsl);

// The settings the diff's running changes move that the account does not
// name: the names its changed assignments, definitions and keyword
// arguments set (`NUM_STAGES = 1` -> `= 4`, `num_warps=8`), each with the
// lever whose code forms it matches, in diff order, each name once. The
// account names a setting by its lever (in prose or by its code: "ROWS=2",
// "num_warps 8") or by spelling its name out ("rows per program" for
// `ROWS_PER_PROG`). A failure or a gain measured over such a diff is not
// the named lever's alone.
struct OtherSetting {
  std::string name;  // the code name the diff sets (`NUM_STAGES`)
  std::string lever; // its lever's id
};
std::vector<OtherSetting> other_settings_changed(const diff::DiffReading &diff, std::string_view account,
                                                 const levers::LeverVocabulary &vocabulary, std::string_view dsl);

// The constants the diff sets to a new value that the account names only
// as a condition ("SINGLE_PASS when next_pow2(N) <= MAX_BLOCK_N", while the
// diff raises MAX_BLOCK_N from 1024 to 4096): every mention an operand of a
// comparison. Round 14: the wider tiles carried the gains of the shapes
// the claimed register path never reaches. Each name once, in diff order,
// with the value a removed definition in the same hunk set and the new one.
struct ConditionReset {
  std::string name, from, to;
};
std::vector<ConditionReset> conditions_reset(const diff::DiffReading &diff, std::string_view account);

// The levers an attempt's running changes bring in or take out that the
// account does not name: other_settings_changed, and then (given the file
// after the change) each code name of another lever that can only be an
// identifier (diff::is_code_name, not a DSL call such as `tl.exp`) and that
// the diff brings into the file or takes out of it: `multi_processor_count`
// when "raising pipeline depth" also made the grid persistent, not `BLOCK`
// passed to a new call when the file already had it. A failure measured
// over such an attempt is not the named lever's. Not used for strategies: a
// rewrite brings in names of levers it does not claim, and a gain's note
// names settings only.
std::vector<OtherSetting> other_levers_changed(const diff::DiffReading &diff, std::optional<std::string_view> after,
                                               std::string_view account, const levers::LeverVocabulary &vocabulary,
                                               std::string_view dsl);

// The first of `levers` that only acts on a loop (pipelining, unrolling:
// levers::LeverVocabulary::acts_on_a_loop) when the kernel file `after`
// runs no loop in its device code (code::device_code_loops): such a lever
// changes nothing there, so neither a gain nor a failure is its. nullopt
// when none does, or when the file's device code cannot be told.
std::optional<std::string> loop_lever_without_a_loop(const std::vector<std::string> &levers,
                                                     std::optional<std::string_view> after,
                                                     const levers::LeverVocabulary &vocabulary);

// The first of `levers` whose running changes in `diff` set only its
// compiler option (levers::CompilerOption: `num_stages`) when the DSL's
// compiler leaves that option unused on the kernel file `after`: a Triton
// kernel with no `tl.dot` and no `tl.range(..., num_stages=K)` loop, any
// Gluon kernel. The lever changes nothing there, so neither a gain nor a
// failure measured over it is its. nullopt when none does, or when the
// file's device code cannot be told.
struct UnusedOption {
  std::string lever, option, reason;
};
std::optional<UnusedOption> lever_set_only_through_an_unused_option(const diff::DiffReading &diff,
                                                                    const std::vector<std::string> &levers,
                                                                    std::optional<std::string_view> after,
                                                                    const levers::LeverVocabulary &vocabulary,
                                                                    std::string_view dsl);

// Accepts a matched retrieval term unless it is a code name the diff does
// not change. `diff` must outlive the result.
TermVocabulary::Accept changed_by(const diff::DiffReading &diff);

} // namespace otm::distill
