// The shared part of the extractive drafter's three record drafters
// (strategy_drafter.cpp, anti_drafter.cpp, reference_drafter.cpp): the
// packet being drafted (Context), how a draft is refused (refuse, Refused),
// and the parts of a record every type writes the same way (head, problem,
// evidence). Internal to lib/drivers/distill; drafter.hpp is the interface.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "code/inert_code.hpp"
#include "code/source_lexer.hpp"
#include "distill/drafter.hpp"
#include "distill/packet.hpp"
#include "distill/retrieval_terms.hpp"
#include "error/error.hpp"
#include "text/utf8.hpp"
#include "workspace/agent_facing.hpp"
#include "json/value.hpp"

namespace otm::distill::drafting {

using json::Value;

inline constexpr const char *kDiffFormat = "unified-diff (verbatim; '-' = before this step, '+' = after)";

inline constexpr const char *kSourceFormat = "source (verbatim)";

// Thrown from deep in a draft and caught by draft(): an otm::Error, as
// every exception of lib/ is, that carries the refusal.
struct Refused : Error {
  explicit Refused(DraftRefusal refusal) : Error(ErrorKind::Refused, refusal.field + ": " + refusal.why), r(refusal) {}
  DraftRefusal r;
};

// Refuses the draft: `field` is the record field the packet cannot
// support, `why` the reason (the ledger's words).
[[noreturn]] void refuse(std::string field, std::string why);

// A non-blank string, else refused as `field`.
std::string required_string(const Value &v, const std::string &field, const std::string &why);

// A non-blank string, else nullopt.
std::optional<std::string> text_of(const Value &v);
// The same of a typed packet field (Context::said, Context::op).
inline std::optional<std::string> text_of(const std::string &s) {
  if (text::strip(s).empty()) return std::nullopt;
  return s;
}

// The packet being drafted, what every drafter reads of it, and the draft
// its thin fields are reported on.
struct Context {
  const Packet &packet;
  const DraftRules &rules;
  const Value &target, &af, &prov;
  std::string type, id, family, gpu, what;
  Draft &out;
  // agent_facing's most-read blocks and the target, typed once per draft.
  workspace::WhatTheRunSaid said = packet.said();
  workspace::PacketOperator op = packet.operator_block();
  workspace::AttemptAccount account = packet.account();
  workspace::PacketKernel kernel_block = packet.kernel_block();
  workspace::PacketTarget packet_target = packet.target_block();
  workspace::PacketProvenance provenance = packet.provenance_block();
};

// Where the retrieval terms of the record being drafted go.
void set_terms(Value &record, const RecordTerms &terms);
// A symptom the step's words name is a signal only when a capture of the
// kernel under test backs the step (round 6: symptoms with no capture).
Symptoms symptoms_as(const Context &c);

// The kernel file after the change, when the packet carries it: what the
// changed lines read and call is judged against it.
std::optional<std::string_view> code_after(const Context &c);
// The language of the kernel the packet carries (its file's extension): a
// trace's kernel.cu is C++, its kernel.py Python (with any CUDA source in
// strings).
code::Language kernel_language(const Context &c);
// The run's stock sentence a text is, or is a part of (the packet's
// `stock_texts` stated on at least `template_min_steps` steps); nullptr
// when it is none.
const workspace::WhatTheRunSaid::StockText *stock_sentence(const Context &c, const std::string &text);

// Lever ids as words: "num-warps-tuning", "cache-hints" -> "num warps
// tuning and cache hints".
std::string lever_words(const std::vector<std::string> &ids);

// The non-blank strings of a list (of `key` of its objects, when given).
std::vector<std::string> strings_at(const Value &list, const char *key = nullptr);
// The same of a typed list (what_the_run_said.causal_sentences).
std::vector<std::string> nonblank_strings(const std::vector<std::string> &list);
// The non-blank rationales of what_the_run_said.directions_taken_up.
std::vector<std::string> nonblank_rationales(const std::vector<workspace::WhatTheRunSaid::Direction> &list);
// The levers the kept changes a record's code carries name
// (agent_facing.kept_changes_of_its_lineage), in vocabulary order, but not
// a lever with code forms whose code the record's kernel no longer holds:
// the schema's trace.techniques_applied_before, not to be recommended again.
std::vector<std::string> levers_applied_before(const Context &c);
// Of `levers`, those the kernel the record stands on runs: a lever with
// code forms for the DSL is kept only when a line of that kernel that runs
// holds one (not a comment, an unread assignment, a JIT function nothing
// calls, a restated hint).
std::vector<std::string> levers_the_kernel_runs(const Context &c, std::vector<std::string> levers);
// Of a lineage's kept changes (oldest first), the latest whose every named
// lever the kernel still runs: a change with a lever the code no longer
// holds live (a double buffer stored into and never read, a loader
// partition nothing launches, a grid a later step replaced) is not what
// the code builds on (round 10). nullopt when none qualifies.
std::optional<std::string> latest_change_the_kernel_runs(const Context &c, const std::vector<std::string> &changes);
// The same, where a lever the kernel holds only as a compiler option its
// DSL may leave unused still counts: its code is the step's, so it is the
// state of the code a later step builds on (kit 50, W13: "num_stages
// 3->4" on a kernel without `tl.dot`, skipped for an older step). Whether
// the compiler acts on it is not said there (kit 53, Z10: "unused here"
// beside num_stages steps the run measured gains from).
std::optional<std::string> latest_change_the_kernel_holds(const Context &c, const std::vector<std::string> &changes);
// How the kernel holds a change text: it runs every lever the change
// names at the whole-number settings it states (Runs), or a lever it names
// runs nowhere in the kernel (LeverNotRun), or every lever runs but not at
// a setting or in the code form it states (SettingNotHeld), or the change
// only returns to earlier code (Restores).
enum class ChangeInKernel { Runs, LeverNotRun, SettingNotHeld, Restores };
// A lever the kernel does not run: its code is not in the live kernel, or
// (`unused_option`, the configuration's reason) the kernel holds it only as
// a compiler option its DSL leaves unused there.
struct LeverNotRun {
  std::string lever;
  std::string unused_option; // empty: its code is not in the kernel
};
// The levers a change text's first sentence names that the kernel does
// not run (levers_the_kernel_runs), in the order it names them.
std::vector<LeverNotRun> levers_not_run(const Context &c, const std::string &change);
ChangeInKernel how_the_kernel_holds(const Context &c, const std::string &change);
// how_the_kernel_holds(c, change) == Runs.
bool kernel_runs_all_levers_of(const Context &c, const std::string &change);
// Whether the kernel the record stands on still holds the whole-number
// settings `change` states: where it assigns a name of the lever a number
// (`THREADS = 64`, `constexpr int THREADS = 64;`, `num_warps=8`), one of
// those numbers is the stated one (round 13: a final kernel said to build
// on "THREADS 64 -> 128", whose code a restore had set back to 64).
bool kernel_holds_stated_values(const Context &c, const std::string &change);
// What of a kernel file runs for nothing (code/inert_code.hpp), its JIT
// functions counted as new: one nothing calls or launches is dead.
code::InertCode kernel_inert_code(std::string_view source, std::string_view path);

// Whether the step's own correctness check passed: a status that is not a
// failure, and no quality-gate verdict. One rule for an anti-strategy's
// accuracy checks and a reference kernel's goal.
bool correctness_passed(const Value &agent_facing);

// "between v7 and v10": the range the packet's diff holds.
std::string range_of(const workspace::PacketProvenance &prov);

// payload.problem, and evidence.summary / evidence.raw, as every type writes them.
Value problem_of(Context &c);

Value summary_of(Context &c, const char *confidence, const char *basis, const char *note);

// A profiler basis cites the capture it quotes (the packet's report_dir, a
// usable capture), so ncu-attribution can check the record, not only the
// packet. The code's range (provenance.diff_from/diff_to) is carried too, so
// a reader can reproduce the snippet's diff with git.
Value raw_of(Context &c, Value effect, bool cite_captures = false);

// A gain stated as a kind, not a figure.
Value qualitative_gain(const char *kind);

// worth: `gain` and a provisional rank (otm-rank fills it), as every type writes it.
Value worth_of(Value gain);

// evidence.raw.effect: the step's measurements (with its delta when asked).
Value effect_of(Context &c, bool with_delta);

// The record's head: schema, id, type, level, status, episode key and
// retrieval scope, the same for every type.
Value record_head(Context &c);

// One drafter per record type; each returns the record or refuses.
Value draft_strategy(Context &c);  // strategy_drafter.cpp
Value draft_anti(Context &c);      // anti_drafter.cpp
Value draft_reference(Context &c); // reference_drafter.cpp

} // namespace otm::distill::drafting
