// The reference-kernel drafter: the kernel as the run kept it, runnable as
// quoted, with its lineage.
#include "distill/draft_context.hpp"

#include "code/cxx_syntax.hpp"
#include "code/gluon_layouts.hpp"
#include "code/jit_globals.hpp"
#include "code/kernel_parameters.hpp"
#include "code/launch_constexprs.hpp"
#include "code/tailless_loops.hpp"
#include "code/tile_constants.hpp"
#include "code/unbound_names.hpp"
#include "code/unguarded_tile_loops.hpp"
#include "code/unmasked_accesses.hpp"
#include "diff/barrier_removal.hpp"
#include "distill/reference_kernel_code.hpp"
#include "distill/unread_sizes.hpp"
#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "record/leak_shapes.hpp"
#include "text/code_list.hpp"
#include "text/lines.hpp"
#include "text/pyformat.hpp"
#include "text/utf8.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::distill::drafting {

namespace {

struct QuotedKernel {
  ReferenceKernelCode code;
  bool whole_file = false; // the snippet is the whole kernel file
};

// The kernel as a record quotes it, refused unless it runs as quoted.
QuotedKernel runnable_kernel(Context &c) {
  std::optional<ReferenceKernelCode> code;
  if (!c.packet.code.empty() && c.af.get("kernel_file").is_string())
    code = reference_kernel_code(c.packet.code, code::language_of_path(c.kernel_block.kernel_file));
  if (!code)
    refuse("payload.implementation.snippet",
           c.packet.code.empty() ? "the packet carries no kernel file"
                                 : "the kernel file has no JIT- or kernel-decorated entry-point function and no "
                                   "__global__ function");
  // A reader takes the snippet for the code to run: when the whole kernel
  // file is within the limit it is the snippet, verbatim, runnable as it
  // stands (a second kernel, the host code that allocates, zeroes and
  // sizes the grid, caches: nothing can be left out); the dispatch_snippet
  // still shows how it is launched. A longer file is quoted by selection
  // (reference_kernel_code.hpp), and one whose selection is still longer
  // than the limit is no reference kernel.
  const bool whole_file = code->whole_file_lines <= c.rules.max_reference_kernel_lines;
  if (!whole_file && code->quoted_lines > c.rules.max_reference_kernel_lines)
    refuse("payload.implementation.snippet",
           "the kernel needs " + std::to_string(code->quoted_lines) +
               " lines to run as quoted (entry point, helpers, constants, imports, launch), more than "
               "limits.max_reference_kernel_lines (" +
               std::to_string(c.rules.max_reference_kernel_lines) + ")");
  // Runnable as quoted: Python code that reads a name it binds nowhere (a
  // parameter the signature never declares, a constant never defined)
  // fails before it launches. (CUDA source in a string is compiled by its
  // host code; its names are not read here.)
  if (!code->cuda) {
    const std::string quoted = whole_file ? code->whole_file : code->dispatch + "\n" + code->snippet;
    auto unbound = code::unbound_names(quoted);
    if (!unbound.empty())
      refuse("payload.implementation.snippet",
             "the kernel code reads " + text::quoted_code_list(unbound) +
                 ", which it binds nowhere (no parameter, assignment, import or definition): it cannot run as "
                 "quoted");
    if (auto e = code::expand_of_an_unsliced_tensor(quoted))
      refuse("payload.implementation.snippet", "the kernel code " + e->why() + " as quoted");
    // Triton and Gluon compile a JIT function only when every global it
    // reads is a constexpr (or a module or function).
    auto globals = code::non_constexpr_globals_read_by_jit(quoted);
    if (!globals.empty())
      refuse("payload.implementation.snippet",
             "a JIT function of the kernel reads the module global" + std::string(globals.size() > 1 ? "s " : " ") +
                 text::quoted_code_list(globals) +
                 ", which is not a constexpr: Triton refuses to compile it (bind it as tl.constexpr(...) or pass it "
                 "as a parameter), so it cannot run as quoted");
    // A compile-time parameter the launch leaves for an autotune config
    // that sits on another function (kit 48, U14).
    if (auto unsupplied = code::unsupplied_constexprs(quoted); !unsupplied.empty())
      refuse("payload.implementation.snippet", code::why_it_cannot_launch(unsupplied.front()) + " as quoted");
  }
  // A C++/CUDA file whose code holds what no compiler reads (kits 52 and 55,
  // Y11, P22: `TORCH_CHECK(N %% kVec == 0, ...)`): the run cannot have
  // built the file it committed, so its measurement is not of this code.
  if (kernel_language(c) == code::Language::CFamily)
    if (auto line = code::line_not_cxx(c.packet.code))
      refuse("payload.implementation.snippet",
             "the kernel file's line `" + *line +
                 "` is not C++ as written (`%%` is no operator outside a string): it cannot compile as quoted, so "
                 "the run's measurement is not of this code");
  return {std::move(*code), whole_file};
}

// A milestone snapshot is refused when its code is another record's.
void check_milestone_code(Context &c) {
  // A milestone snapshot marks a jump its code made. When its code runs
  // the same as the best-so-far its jump is measured against, the jump was
  // a re-measurement (a driver update, a re-run baseline): that code is
  // already the earlier step's, and no milestone kernel.
  const auto &span = c.af.get("span");
  const auto &differs = span.get("code_runs_differently_from_the_best_before_it");
  if (differs.is_bool() && !*differs.as_bool())
    refuse("payload.trace.builds_on",
           "this milestone's code runs the same as the best-so-far its jump is measured against: the jump is a "
           "re-measurement, not its code's, so it is no milestone kernel");
  // A snapshot whose code runs as the final kernel's (a stamp, a comment or
  // a constant nothing reads apart) is the final kernel's record again.
  // A snapshot in the final kernel's own DSL that the final kernel beats
  // is a step on the way to it, which its record already quotes: round
  // 13's readers found every such record marginal or useless ("superseded
  // in the same language", "can only displace the better kernel"). A
  // snapshot in another DSL (the kernel before a port) stays.
  const auto &final_kernel = span.get("final_kernel");
  const auto final_dsl = final_kernel.string_or("dsl");
  const auto final_us = final_kernel.get("geomean_us").as_number();
  const auto mine_us = c.af.get("measurements").get("geomean_us").as_number();
  const bool same_dsl = !final_dsl.empty() && text::to_lower(final_dsl) == text::to_lower(c.op.dsl);
  if (same_dsl && final_us && mine_us && *final_us < *mine_us)
    refuse("payload.implementation.snippet",
           "the run's final kernel, in the same DSL, supersedes this milestone's (" + text::fixed(*final_us, 2) +
               " us against " + text::fixed(*mine_us, 2) +
               " us geomean): the final kernel's record quotes the code a reader would start from");
  // The same for a later milestone of its own DSL when the final kernel
  // is in another (the snapshot before a port): kit15's Triton v3 at
  // 43.7 us beside the run's later Triton kernel at 31.1 us. Beyond the
  // run's noise band only: a re-measurement is no better kernel.
  const auto later_us = span.get("later_kernel_of_its_dsl").get("geomean_us").as_number();
  const double band = c.af.get("measurements").get("same_code_spread_pct").as_number().value_or(0.0);
  if (!same_dsl && later_us && mine_us && *later_us < *mine_us * (1.0 - band / 100.0))
    refuse("payload.implementation.snippet",
           "a later milestone of the run in the same DSL supersedes this one (" + text::fixed(*later_us, 2) +
               " us against " + text::fixed(*mine_us, 2) +
               " us geomean, beyond the run's own spread of re-measurements of unchanged code): it is a step on the "
               "way to that kernel, not the code a reader would start from");
  // A snapshot measured before the run changed how it measures (a harness
  // that now flushes L2) cannot be weighed against the final kernel: its
  // "comparable" geomean would read as faster than the run's best (round
  // 14: 44.2 us under the old harness beside the final's 47.8 us under the
  // new). In the final kernel's DSL the final kernel's record is the one a
  // reader starts from.
  const auto &same_way = final_kernel.get("measured_the_same_way_as_this_kernel");
  if (same_dsl && same_way.is_bool() && !*same_way.as_bool())
    refuse("payload.implementation.snippet",
           "the run changed how it measures (a re-baseline of its harness) between this milestone and its final "
           "kernel, in the same DSL: the two geomeans do not compare, so this snapshot cannot be ranked against "
           "the kernel the final record quotes");
  const auto &as_final = span.get("code_runs_differently_from_the_final_kernel");
  if (as_final.is_bool() && !*as_final.as_bool())
    refuse("payload.implementation.snippet",
           "this milestone's code runs the same as the final kernel's (only comments, stamps or constants nothing "
           "reads differ): the final kernel's record already quotes it");
}

// What the kernel builds on (the schema: the previous state of the code) is
// the latest kept change of its lineage before its own step whose code it
// still holds (latest_change_the_kernel_holds); its own step's
// change is the technique here, when it changes code that runs (a last step
// that edited a comment names no technique of this code). A packet that
// gives no lineage (built before otm listed it) says only what kind of
// kernel this is.
Value trace_of_kernel(Context &c, const std::vector<std::string> &applied_before,
                      const std::vector<std::string> &here) {
  const auto &lineage = c.af.get("kept_changes_of_its_lineage");
  const auto carried = strings_at(lineage, "change");
  Value builds_on = Value::object();
  if (!lineage.is_array())
    builds_on.set("approach", c.packet.head().seg_kind == workspace::kFinalKernelSegment
                                  ? "the run's final kernel"
                                  : "a milestone snapshot of this run");
  else {
    // When the code shows none of its lineage's changes as stated (a
    // restore set them back, their code is gone), no one of them is named.
    auto latest = latest_change_the_kernel_holds(c, carried);
    if (latest) latest = levers::what_a_change_did(*latest);
    builds_on.set("approach", carried.empty()
                                  ? std::string("the untouched baseline")
                                  : latest.value_or("the run's " + std::to_string(carried.size()) +
                                                    " earlier kept steps, none of whose stated changes this code "
                                                    "still shows as stated"));
    builds_on.set("is_baseline", carried.empty());
  }
  Value trace = Value::object();
  trace.set("builds_on", builds_on);
  if (!applied_before.empty()) trace.set("techniques_applied_before", Value::strings(applied_before));
  if (!here.empty()) trace.set("technique_here", Value::strings(here));
  return trace;
}

// What of the quoted kernel runs for nothing, said where a reader starts
// (round 11: a final kernel quoted with buffers allocated and never read
// and a loader partition nothing launches beside the code that works, and
// nothing saying which is which). Only code inside functions and functions
// nothing calls, and module-level names nothing reads when the snippet is
// the whole file (kit 23: `_SWEEP_BLOCK_V = 8192` beside the `BLOCK_V =
// 4096` the launch uses, unflagged); a kernel parameter its body never
// reads is said too (`ROWS_PER_PROG` passed to a persistent loop that
// ignores it). Empty when everything in them runs.
std::string what_runs_for_nothing(const Context &c, bool whole_file) {
  if (c.packet.code.empty()) return {};
  const auto inert = kernel_inert_code(c.packet.code, c.kernel_block.kernel_file);
  const auto lines = text::split_lines(c.packet.code);
  std::vector<std::size_t> all(std::min(lines.size(), inert.lines.size()));
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const auto owners = code::inert_owners(inert, all, [&](std::size_t i, code::InertCode::Why why) {
    const bool indented = !lines[i].empty() && (lines[i].front() == ' ' || lines[i].front() == '\t');
    return why == code::InertCode::Why::UncalledFunction || indented ||
           (whole_file && why == code::InertCode::Why::UnreadName);
  });
  const auto &unread = owners.unread, &uncalled = owners.uncalled, &hinted = owners.restated;
  std::vector<std::string> parts;
  if (!unread.empty())
    parts.push_back(text::quoted_code_list(unread) + (unread.size() > 1 ? " are" : " is") +
                    " assigned or stored into and never read");
  if (!uncalled.empty())
    parts.push_back(text::quoted_code_list(uncalled) + (uncalled.size() > 1 ? " are" : " is") +
                    " never called or launched");
  if (!hinted.empty())
    parts.push_back("the hints on " + text::quoted_code_list(hinted) + " restate " + code::kRestatedHintReason);
  std::vector<std::string> unread_parameters;
  for (const auto &k : code::jit_kernel_parameters(c.packet.code))
    for (const auto &name : k.params)
      // A kernel nothing launches is said already, its parameters with it.
      if (std::find(uncalled.begin(), uncalled.end(), k.name) == uncalled.end())
        if (k.unread.count(name)) unread_parameters.push_back(name);
  if (!unread_parameters.empty())
    parts.push_back(text::quoted_code_list(unread_parameters) + (unread_parameters.size() > 1 ? " are" : " is") +
                    " passed to the kernel, whose body never reads " + (unread_parameters.size() > 1 ? "them" : "it"));
  if (!owners.untaken.empty())
    parts.push_back("the code under " + text::quoted_code_list(owners.untaken) +
                    " is in no instantiation the file makes");
  if (parts.empty()) return {};
  std::string out = ". Some of its lines run for nothing (otm's reading of the code): ";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "; " : "") + parts[i];
  return out + ".";
}

// " only, (M=1, N=4096), (M=16, N=8192) and (M=4096, N=8192)": the shapes
// the run checked the kernel on (round 16: a decode kernel whose empty
// splits give NaN for S under 1024 read as general; kit 28, Q16: per-axis
// sets read as every pairing). From a packet without the shapes, each
// axis's values (" only, M in {1, 16, 4096} and N in {4096, 8192}"). Empty
// when the packet has neither.
std::string benchmarked_sizes(const Value &af) {
  const auto &op = af.get("operator");
  std::vector<std::string> items;
  if (const auto *shapes = op.get("benchmarked_shapes").as_array(); shapes && !shapes->empty()) {
    for (const auto &shape : *shapes) {
      std::string one;
      if (const auto *axes = shape.as_object())
        for (const auto &[name, value] : *axes) one += (one.empty() ? "" : ", ") + name + "=" + value.python_str();
      items.push_back("(" + one + ")");
    }
    return " only, " + text::prose_list(items);
  }
  const auto *axes = op.get("benchmarked_values").as_object();
  if (!axes || axes->empty()) return {};
  for (const auto &[name, values] : *axes) {
    std::string list;
    if (const auto *vs = values.as_array())
      for (const auto &v : *vs) list += (list.empty() ? "" : ", ") + v.python_str();
    items.push_back(name + " in {" + list + "}");
  }
  return " only, " + text::prose_list(items);
}

// A loop of the kernel that takes whole chunks and leaves the rest
// (code::tailless_loops): the sizes it is right for, said where a reader
// starts (kit 33: V % 8 == 0 behind "other sizes are untested").
std::string chunked_loops(const std::string &kernel, code::Language language) {
  std::string out;
  for (const auto &l : code::tailless_loops(kernel, language)) {
    // Prose is held to the version-id rule that code is not: a loop
    // variable `v0` in the quoted head would read as a leaked version.
    const bool quotable = record::version_ids(l.head).empty();
    out += quotable ? " Its loop `" + l.head + "` takes whole chunks of " + std::to_string(l.chunk) +
                          " and nothing after it takes the rest: it is right only where `" + l.bound +
                          "` is a multiple of " + std::to_string(l.chunk) + "."
                    : " A loop of it takes whole chunks of " + std::to_string(l.chunk) +
                          " elements and nothing after it takes the rest: it is right only for sizes that are a "
                          "multiple of " +
                          std::to_string(l.chunk) + ".";
  }
  return out;
}

// The benchmarked sizes a block does not divide: "N=11008", said with
// the block "BLOCK_N = 2048" (kit 53, Z12; kit 52, Y11: the unmasked
// kernel quoted as passing on a shape its blocks overrun). Only a block
// named for an axis (`BLOCK_N`, `N`) is checked, against that axis (any
// block, when the operator varies one axis only): a block of other
// offsets (`NUM_SPLITS` partials, `H * D / 2` lanes) tiles no axis the
// run names. A block literal, or one the code gives several values (an
// autotune list) or none, is left out. Empty when every size divides.
struct SizesOffTheBlock {
  std::vector<std::string> sizes;
  std::string block;
  // "of the sizes the run benchmarked, N=11008 is not a multiple of `BLOCK_N = 2048`"
  std::string clause(bool starts_a_sentence = false) const {
    return std::string(starts_a_sentence ? "O" : "o") + "f the sizes the run benchmarked, " + text::prose_list(sizes) +
           (sizes.size() == 1 ? " is" : " are") + " not a multiple of `" + block + "`";
  }
};
SizesOffTheBlock benchmarked_sizes_off_the_block(const Context &c, const std::string &kernel,
                                                 const std::vector<std::string> &blocks) {
  SizesOffTheBlock off;
  const auto *axes = c.af.get("operator").get("benchmarked_values").as_object();
  if (!axes) return off;
  for (const auto &block : blocks) {
    if (block.find_first_not_of("0123456789") == std::string::npos) continue;
    const text::Regex exactly("^" + block + "$");
    std::set<long long> given;
    for (const auto &[name, value] : code::tile_constants(kernel, exactly)) given.insert(value);
    if (given.size() != 1 || *given.begin() <= 1) continue;
    const long long size = *given.begin();
    for (const auto &[axis, list] : *axes) {
      const auto *vs = list.as_array();
      if (!vs || !names_the_axis(block, axis, axes->size())) continue;
      for (const auto &v : *vs)
        if (auto n = v.as_int(); n && *n > 0 && *n % size != 0) {
          std::string s = axis + "=" + std::to_string(*n);
          if (std::find(off.sizes.begin(), off.sizes.end(), s) == off.sizes.end()) off.sizes.push_back(s);
          if (off.block.empty()) off.block = block + " = " + std::to_string(size);
        }
    }
    if (!off.sizes.empty()) break; // one block, said once
  }
  return off;
}

// Loads and stores of blocks of offsets without a mask, said where a reader
// starts (kits 50 and 51: W02, X08, X12, a kernel offered as a starting
// point that reads past its rows unless the sizes divide its tiles).
std::string unmasked_accesses(const Context &c, const std::string &kernel, code::Language language) {
  if (language != code::Language::Python) return {};
  const auto found = code::unmasked_block_accesses(kernel);
  if (found.empty()) return {};
  std::vector<std::string> calls, blocks;
  for (const auto &a : found) {
    if (std::find(calls.begin(), calls.end(), a.call) == calls.end()) calls.push_back(a.call);
    for (const auto &b : a.blocks)
      if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
  }
  // No count: a number the packet does not hold is a fabrication to the gate.
  const auto off = benchmarked_sizes_off_the_block(c, kernel, blocks);
  return " Some of its " + text::quoted_code_list(calls) +
         " calls over a block of offsets take no mask (otm's reading of the code): it reads or writes past the "
         "tensor unless each size it tiles is a multiple of its block." +
         (off.sizes.empty() ? std::string() : " " + off.clause(true) + ".");
}

// The run's final kernel is its last new best; what it kept after without
// one is said, so a reader knows the kernel the run ended with is another
// (kit 32, U22: NUM_STAGES 3 quoted, the run's last kernel sets 2). Each
// step by its first sentence, at most three.
std::string kept_after_it(const Context &c) {
  const auto after = strings_at(c.af.get("span").get("kept_after_it_without_a_new_best"), "change");
  if (after.empty()) return {};
  constexpr std::size_t kNamed = 3;
  std::string out = " The run kept later steps that set no new best, so the kernel it ended with is not this one: ";
  for (std::size_t i = 0; i < after.size() && i < kNamed; ++i)
    out += (i ? "; " : "") + std::string(text::rstrip_chars(levers::what_a_change_did(after[i]), " ."));
  // No count: a number the packet does not hold is a fabrication.
  if (after.size() > kNamed) out += ", and more";
  return out + ".";
}

// " The run measured this same code on other kept steps too, from 102.26 to
// 103.9 us geomean; the figure recorded here, 102.26 us, is one of them."
// (round 28, W13: a final kernel quoted at the fastest of four). Nothing
// when the packet lists fewer or they agree.
// " The run measured this version again: 52.136 us geomean, against the
// 50.849 us recorded here." (kit 55, P22: a kernel chosen as the fastest
// on a run the trace itself re-measured slower, "re-measured after a noisy
// run"), with a failed correctness check said too. Nothing without one.
std::string measured_again(const Context &c) {
  const auto &m = c.af.get("measurements");
  const auto *again = m.get("re_measured_by_the_run").as_array();
  const auto mine = m.get("geomean_us");
  if (!again || again->empty() || !mine.is_number()) return {};
  std::vector<std::string> runs;
  for (const auto &r : *again) {
    if (!r.get("geomean_us").is_number()) continue;
    const bool failed = ladder::correctness_failed(r.get("correctness_status"));
    // The same figure again says nothing a reader needs.
    if (!failed && r.get("geomean_us").python_str() == mine.python_str()) continue;
    std::string run = r.get("geomean_us").python_str() + " us geomean";
    if (failed) run += " with a failed correctness check (" + r.get("correctness_status").python_str() + ")";
    runs.push_back(std::move(run));
  }
  if (runs.empty()) return {};
  return " The run measured this version again: " + text::prose_list(runs) + ", against the " + mine.python_str() +
         " us recorded here.";
}

std::string re_measured(const Context &c) {
  const auto &m = c.af.get("measurements");
  const auto *all = m.get("same_code_kept_geomeans_us").as_array();
  const auto mine = m.get("geomean_us");
  if (!all || all->size() < 2 || !mine.is_number()) return {};
  const Value *lo = nullptr, *hi = nullptr;
  for (const auto &x : *all) {
    if (!x.is_number()) return {};
    if (!lo || *x.as_number() < *lo->as_number()) lo = &x;
    if (!hi || *x.as_number() > *hi->as_number()) hi = &x;
  }
  if (*lo->as_number() == *hi->as_number()) return {};
  // No count: a number the packet does not hold is a fabrication.
  return " The run measured this same code on other kept steps too, from " + lo->python_str() + " to " +
         hi->python_str() + " us geomean; the figure recorded here, " + mine.python_str() + " us, is one of them.";
}

// A kernel the benchmarked shapes say the run's check cannot be of is
// refused: the trace contradicts itself on the operator, a loop stops below
// a benchmarked size, or an unmasked block overruns one.
void check_the_benchmarked_shapes(Context &c) {
  // The trace contradicts itself on which operator its shapes time (kit 57,
  // N40, N11: definition.json fixes K at 3 or dstate at 16, while
  // workload.jsonl times K=5 and 7, dstate=64, and the kernel hard-wires
  // the fixed value): the run's passing check says nothing of the operator
  // a reader would take the kernel for.
  if (const auto *other = c.af.get("operator").get("fixed_axes_the_workload_benchmarks_at_other_values").as_object();
      other && !other->empty()) {
    const auto &[axis, values] = *other->begin();
    std::vector<std::string> listed;
    if (const auto *vs = values.as_array())
      for (const auto &v : *vs) listed.push_back(v.python_str());
    refuse("payload.implementation.snippet",
           "the trace's definition fixes " + axis + " at " +
               c.af.get("operator").get("fixed_axes").get(axis).python_str() + ", but its workload benchmarks " + axis +
               " = " + text::prose_list(listed) +
               ": which operator the run's correctness check covered is not established, so the kernel is no "
               "reference");
  }
  // A loop capped at a constant below a benchmarked size (kit 57, N25:
  // `c < min(N, BLOCK_N)` with BLOCK_N 2048 over rows of N >= 4096): the
  // kernel leaves the rest of each longer row unread on a shape the run
  // reports as passing.
  if (auto unread = size_left_unread(c, c.packet.code)) refuse("payload.implementation.snippet", *unread);
  // Unmasked block accesses and a benchmarked size the block does not
  // divide (kit 53, Z12; kit 57, N27): the kernel reads or writes past the
  // tensor on a shape the run reports as passing, so that check is not of
  // this code's correctness.
  if (kernel_language(c) == code::Language::Python) {
    std::vector<std::string> blocks;
    for (const auto &a : code::unmasked_block_accesses(c.packet.code))
      for (const auto &b : a.blocks)
        if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
    if (auto off = benchmarked_sizes_off_the_block(c, c.packet.code, blocks); !off.sizes.empty())
      refuse("payload.implementation.snippet",
             "some loads or stores of the kernel over a block of offsets take no mask, and " + off.clause() +
                 ": it reads or writes past the tensor on a shape the run reports as passing, so the run's check "
                 "is not of this code");
  }
  // The same in C-family code (kit 59, L07): a tile loop bounded by its
  // block alone, inside a walk over a size it never checks again.
  for (const auto &l : code::unguarded_tile_loops(c.packet.code, kernel_language(c)))
    if (auto off = benchmarked_sizes_off_the_block(c, c.packet.code, {l.block}); !off.sizes.empty())
      refuse("payload.implementation.snippet",
             (record::version_ids(l.head).empty() ? "its loop `" + l.head + "`" : std::string("a tile loop of it")) +
                 " runs to `" + l.block + "` with no check of its index against `" + l.size + "`, and " + off.clause() +
                 ": the last tile reads and writes past the tensor on a shape the run reports as passing, so the "
                 "run's check is not of this code");
}

} // namespace

Value draft_reference(Context &c) {
  auto [code, whole_file] = runnable_kernel(c);
  check_milestone_code(c);
  check_the_benchmarked_shapes(c);
  // A kernel a kept step of which removed a barrier (kit 46: S41, S21,
  // and five more read as carrying a race) is no kernel to start from: the
  // run's passing check does not show the race absent.
  if (const auto &removed = c.af.get("span").get("a_kept_step_removed_a_barrier"); removed.is_object())
    refuse("payload.implementation.snippet",
           "a kept step of this kernel (\"" + removed.string_or("change") + "\") " +
               diff::BarrierRemovalRule::why_unestablished(removed.string_or("barrier")) +
               ", so the kernel is no reference to start from");
  // A kept step after it whose change is in the code the run ended with,
  // and whose measurement the trace does not hold, may have set a new best
  // (kit 48, U24: the run's restored best, v171, left out): which kernel is
  // the run's best is not established.
  if (const auto unmeasured = strings_at(c.af.get("span").get("kept_after_it_unmeasured"), "change");
      !unmeasured.empty())
    refuse("payload.implementation.snippet",
           "the run kept a later step whose change is in the code it ended with but whose step record is missing "
           "or unreadable (\"" +
               std::string(text::rstrip_chars(levers::what_a_change_did(unmeasured.front()), " .")) +
               "\"): whether it set a new best is not known, so this kernel is not established as the run's best");
  const auto &own = c.af.get("span").get("this_step_changes_running_code");
  const bool own_runs = !(own.is_bool() && !*own.as_bool());
  Value r = record_head(c);
  Value p = Value::object();
  std::string dsl = c.af.get("operator").string_or("dsl", "this DSL");
  // What is known of the code is the run's own check, not otm's: reviewers
  // read "a working implementation" as a promise the trace's code (which
  // may be wrong on shapes the run never benchmarked) does not keep.
  const bool passed = correctness_passed(c.af);
  p.set("goal", "Read the " + dsl + " implementation of " +
                    (c.family.empty() ? std::string("this operator") : c.family) + " on " + c.gpu +
                    " that the run kept" +
                    (passed ? " (it passed the run's own correctness check on the benchmarked shapes" +
                                  benchmarked_sizes(c.af) + "; otm did not run it, and other sizes are untested)"
                            : " (otm did not run it)") +
                    what_runs_for_nothing(c, whole_file) + chunked_loops(c.packet.code, kernel_language(c)) +
                    unmasked_accesses(c, c.packet.code, kernel_language(c)) + kept_after_it(c) + re_measured(c) +
                    measured_again(c));
  p.set("problem", problem_of(c));
  auto change = text_of(c.said.change);
  const auto applied_before = levers_applied_before(c);
  std::vector<std::string> here;
  if (change && own_runs && kernel_holds_stated_values(c, *change))
    here = levers_the_kernel_runs(c, c.rules.retrieval.levers.prose().tags_in(*change));
  p.set("trace", trace_of_kernel(c, applied_before, here));
  Value impl = Value::object();
  impl.set("format", kSourceFormat);
  impl.set("snippet", whole_file ? code.whole_file : code.snippet);
  impl.set("core_kernel_name", code.name);
  if (!code.dispatch.empty()) impl.set("dispatch_snippet", code.dispatch);
  if (!code.launched) c.out.thin.push_back("payload.implementation.dispatch_snippet");
  p.set("implementation", impl);
  r.set("payload", p);
  // The step's category describes the kernel only as its change text does:
  // when the step's own change runs (a last step that edited a comment and
  // "occupancy hint 0" tags nothing).
  RecordTerms terms(c.rules.retrieval);
  // Tags describe the kernel: its own change and the levers of its lineage.
  if (change && own_runs) terms.tag(tag_of(c.said.category_hint));
  for (const auto &l : here) terms.tag(l);
  for (const auto &l : applied_before) terms.tag(l);
  terms.tag(tag_of(dsl));
  terms.trigger("a " + dsl + " starting point for " + (c.family.empty() ? std::string("this operator") : c.family) +
                " on " + c.gpu + " is needed");
  set_terms(r, terms);
  bool measured = c.af.get("measurements").get("geomean_us").is_number();
  Value ev = Value::object();
  ev.set("summary", summary_of(c, measured ? "measured" : "inferred", measured ? "bench-only" : "none",
                               "no bottleneck class is claimed: otm-draft does not classify bottlenecks"));
  ev.set("raw", raw_of(c, effect_of(c, false)));
  r.set("evidence", ev);
  r.set("worth", worth_of(qualitative_gain("none")));
  return r;
}

} // namespace otm::distill::drafting
