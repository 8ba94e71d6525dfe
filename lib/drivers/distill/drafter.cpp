#include "distill/drafter.hpp"

#include "code/barrier_phases.hpp"
#include "code/compile_errors.hpp"
#include "code/fp8_matmul.hpp"
#include "code/lane_layouts.hpp"
#include "code/shared_array_bounds.hpp"
#include "code/stuck_loops.hpp"
#include "code/vendor_code.hpp"
#include "distill/draft_context.hpp"
#include "levers/term_vocabulary.hpp"
#include "packet/run_facts.hpp"
#include "record/id_format.hpp"
#include "record/store_layout.hpp"
#include "text/pyformat.hpp"
#include "workspace/layout.hpp"
#include "workspace/shape_finding.hpp"

namespace otm::distill {

using namespace drafting;

namespace {

// Code a compiler rejects ran nothing, so the run's timing and verdict are
// not its own (round 12: CUDA kernels the trace marks PASS whose source
// nvcc rejects, quoted as working kernels and credited with gains). The
// file is the kernel after the change (a strategy, a failed attempt) or
// the kernel itself (a reference kernel).
// The kernel file the record presents: the kernel after the change (a
// strategy, a failed attempt) or the kernel itself (a reference kernel).
const std::string &presented_kernel_file(const Context &c) {
  return c.type == "reference-kernel" ? c.packet.code : c.packet.code_after;
}

void refuse_code_that_cannot_compile(const Context &c) {
  const std::string &file = presented_kernel_file(c);
  if (file.empty()) return;
  auto errors = code::cuda_compile_errors(file);
  for (auto &e : code::triton_compile_errors(file)) errors.push_back(std::move(e));
  if (auto dtype = c.op.fixed_axes.get("dtype").as_string()) {
    auto gluon = code::gluon_compile_errors(file, *dtype);
    errors.insert(errors.end(), gluon.begin(), gluon.end());
  }
  if (errors.empty()) return;
  const auto &e = errors.front();
  std::string more = errors.size() > 1 ? " (and " + std::to_string(errors.size() - 1) + " more)" : "";
  refuse("payload.implementation.snippet", "the kernel file cannot compile as the trace holds it: line " +
                                               std::to_string(e.line) + ", `" + e.code + "`: " + e.why + more +
                                               "; the run's timing and correctness verdict cannot be this code's");
}

// A loop that adds a compile-time zero never advances: the kernel spins or
// never covers what it claims (round 13: 64 lanes per key in a 32-lane
// warp, so `KEYS_PER_WARP` is 0, in kernels the trace marks PASS).
void refuse_loop_that_never_advances(const Context &c) {
  const std::string &file = presented_kernel_file(c);
  if (file.empty()) return;
  const auto stuck = code::stuck_loops(file, kernel_language(c));
  if (stuck.empty()) return;
  refuse("payload.implementation.snippet",
         "the kernel file's loop at line " + std::to_string(stuck.front().line) + ", `" + stuck.front().head +
             "`, never advances: its step `" + stuck.front().step +
             "` is 0 over the source's constants, so the kernel cannot compute what the run measured");
}

// The kernel a record presents for use (a reference kernel, a strategy's
// kernel after the change) and how to name it; nullptr for a failed
// attempt, which is not presented as a kernel to use.
const std::string *presented_for_use(const Context &c, std::string &named) {
  if (c.type == "anti-strategy") return nullptr;
  const std::string &file = presented_kernel_file(c);
  if (file.empty()) return nullptr;
  named = c.type == "strategy" ? "the kernel after the change" : "the kernel";
  return &file;
}

// A kernel with a race, an out-of-bounds index or a lane layout its run's
// check did not see is no kernel to hand a reader (round 17: an mbarrier
// phase restarted per tile of a persistent loop; 32 lanes of 8 elements
// indexing a 64-wide shared row; rounds 17-19: expert ids labelled
// cyclically over a blocked vector load).
void refuse_kernel_with_a_hazard(const Context &c) {
  std::string kernel;
  const std::string *file = presented_for_use(c, kernel);
  if (!file) return;
  const std::string unsafe = "; what the run measured is not safe to reuse";
  if (auto r = code::barrier_phase_restarted_per_tile(*file))
    refuse("payload.implementation.snippet", kernel + " " + r->why() + unsafe);
  if (auto m = code::blocked_fill_read_cyclically(*file, kernel_language(c)))
    refuse("payload.implementation.snippet", kernel + " (line " + std::to_string(m->line) + ") " + m->why() + unsafe);
  const auto overruns = code::shared_array_overruns(*file, kernel_language(c));
  if (!overruns.empty())
    refuse("payload.implementation.snippet",
           kernel + " (line " + std::to_string(overruns.front().line) + ") " + overruns.front().why() + unsafe);
}

// A kernel the record's GPU cannot build, whatever the trace says it
// measured there: NVIDIA PTX for an AMD GPU (round 18: MI300X), an FP8
// dot for a product without FP8 matrix units (round 18: A100).
void refuse_kernel_the_gpu_cannot_build(const Context &c) {
  std::string kernel;
  const std::string *file = presented_for_use(c, kernel);
  if (!file) return;
  const auto &scope = c.packet_target.scope;
  if (scope.vendor == "amd")
    if (auto ptx = code::ptx_inline_assembly(*file))
      refuse("payload.implementation.snippet", kernel + " holds NVIDIA PTX in inline assembly (`" + *ptx +
                                                   "`), which the toolchain of an AMD GPU (" + c.gpu +
                                                   ") cannot assemble: it cannot run as quoted there");
  if (c.rules.products_without_fp8_matmul.count(scope.product))
    if (auto dot = code::fp8_dot(*file))
      refuse("payload.implementation.snippet",
             kernel + " takes `" + *dot + "` on FP8 operands, which " + c.gpu +
                 " has no matrix units for (device_limits.products_without_fp8_matmul): Triton does not compile it "
                 "there, so it cannot run as quoted");
}

// A kernel whose loop reads past the end on a benchmarked shape cannot
// compute that shape, whatever the run's correctness check said (rounds 12
// and 13: an int4 GEMV stepping BLOCK_K=512 over K=11008 with no K mask,
// quoted as the run's working kernel). The packet names the shapes
// (code::unmasked_tails); a failed attempt is no kernel a record presents.
void refuse_kernel_that_reads_past_the_end(const Context &c) {
  if (c.type == "anti-strategy") return;
  const auto *shapes = c.af.get("measurements").get("shapes_it_reads_past_the_end_of").as_array();
  if (!shapes || shapes->empty()) return;
  const auto &e = shapes->front();
  const auto finding = workspace::ShapeFinding::from_json(e);
  std::string loads;
  for (const auto &p : strings_at(e.get("unmasked_loads_of"), nullptr)) loads += (loads.empty() ? "`" : "`, `") + p;
  refuse("payload.implementation.snippet",
         std::string(c.type == "strategy" ? "the kernel after the change" : "the kernel") + " cannot compute " +
             finding.shape + (shapes->size() > 1 ? " (and " + std::to_string(shapes->size() - 1) + " more)" : "") +
             ": `" + finding.loop + "` steps " + finding.step + " over " + finding.bound +
             ", which it does not divide, and its loads of " + loads +
             "` have no mask on the loop, so the last step reads past the end; the run's correctness verdict cannot be "
             "this code's there");
}

// A kernel that asks more shared memory of a block than the product has
// cannot launch on that shape (round 14: a whole N=128256 fp16 row staged
// in shared memory, 258 KB against H200's 227 KB per block, with a timing
// for it in the trace). The packet names the shapes
// (code::shared_memory_per_shape against `device_limits`).
void refuse_kernel_over_shared_memory(const Context &c) {
  if (c.type == "anti-strategy") return;
  const auto *shapes = c.af.get("measurements").get("shapes_it_exceeds_shared_memory_on").as_array();
  if (!shapes || shapes->empty()) return;
  const auto &e = shapes->front();
  auto kb = [](const json::Value &v) { return text::fixed(v.as_number().value_or(0) / 1024.0, 0) + " KB"; };
  const auto calls = strings_at(e.get("allocations"), nullptr);
  refuse("payload.implementation.snippet",
         std::string(c.type == "strategy" ? "the kernel after the change" : "the kernel") + " cannot launch on " +
             workspace::ShapeFinding::from_json(e).shape +
             (shapes->size() > 1 ? " (and " + std::to_string(shapes->size() - 1) + " more)" : "") +
             ": its shared memory (" + (calls.empty() ? std::string("its allocations") : "`" + calls.front() + "`") +
             (calls.size() > 1 ? " and " + std::to_string(calls.size() - 1) + " more" : "") + ") is " +
             kb(e.get("bytes")) + ", over the " + kb(e.get("limit_bytes")) +
             " one block may use on this GPU; the run's timing there cannot be this code's");
}

void check_placement(const Value &record, const workspace::PacketTarget &target) {
  std::filesystem::path want = workspace::kRecordsDirName;
  try {
    want /= record::record_dir(record);
  } catch (const record::LayoutError &e) {
    refuse("retrieval.scope", e.what());
  }
  std::filesystem::path given = target.output_dir;
  if (want.lexically_normal() != given.lexically_normal())
    refuse("target.output_dir", "the packet's output_dir '" + given.string() +
                                    "' is not where the record's scope files it ('" + want.string() +
                                    "'): rebuild the packet");
}

} // namespace

DraftRules DraftRules::from_config(const config::Config &config) {
  DraftRules r;
  r.causal = record::CausalRule::from_json(config.data().get("causal_sentences"), config.source_name());
  r.retrieval = RetrievalTerms::from_config(config);
  r.max_reference_kernel_lines = config.limits().max_reference_kernel_lines;
  const auto noise = packet::NoiseRule::from_json(config.data().get("noise"), config.source_name());
  r.gain_min_shape_share = noise.gain_min_shape_share;
  r.no_effect_max_pct = noise.no_effect_max_pct;
  r.span_own_gain_min_share = noise.span_own_gain_min_share;
  r.close_gain_band_multiple = noise.close_gain_band_multiple;
  r.small_gain_without_band_pct = noise.small_gain_without_band_pct;
  r.grid_cause = GridCauseRule::from_json(config.data().get("launch_grid"), config.source_name());
  r.every_shape = EveryShapeRule::from_json(config.data().get("shape_claims"), config.source_name());
  r.dram_cause = DramCauseRule::from_json(config.data().get("dram_claims"), config.source_name());
  r.cache_level = CacheLevelRule::from_json(config.data().get("cache_level_claims"), config.source_name());
  r.removed_call = RemovedCallRule::from_json(config.data().get("removed_call_claims"), config.source_name());
  r.operand_reuse = OperandReuseRule::from_json(config.data().get("operand_reuse"), config.source_name());
  r.tile_claim = TileClaimRule::from_json(config.data().get("tile_claims"), config.source_name());
  r.direction_claim = DirectionClaimRule::from_json(config.data().get("direction_claims"), config.source_name());
  r.cross_warp = CrossWarpClaimRule::from_json(config.data().get("cross_warp_claims"), config.source_name());
  r.barrier_removal = diff::BarrierRemovalRule::from_json(config.data().get("barrier_removal"), config.source_name());
  r.function_swap = diff::FunctionSwapRule::from_json(config.data().get("function_swap"), config.source_name());
  r.low_precision_sum = LowPrecisionSumRule::from_json(config.data().get("low_precision_sums"), config.source_name());
  r.single_pass = SinglePassRule::from_json(config.data().get("single_pass_claims"), config.source_name());
  r.warpgroup = WarpgroupRule::from_json(config.data().get("warpgroup_claims"), config.source_name());
  r.restores =
      levers::whole_token_regex_at(config.data().get("lineage"), "restores", true, config.source_name() + ": lineage");
  const auto &accounts = config.data().get("failure_accounts");
  const std::string accounts_name = config.source_name() + ": failure_accounts";
  r.code_defect = levers::whole_token_regex_at(accounts, "code_defect", true, accounts_name);
  r.revert_only_fix = levers::whole_token_regex_at(accounts, "revert_only_fix", true, accounts_name);
  r.argues_for_taking_out = levers::whole_token_regex_at(accounts, "argues_for_taking_out", true, accounts_name);
  r.takes_out = levers::whole_token_regex_at(accounts, "takes_out", true, accounts_name);
  r.shared_memory_footprint = levers::whole_token_regex_at(accounts, "shared_memory_footprint", false, accounts_name);
  r.products_without_fp8_matmul = config.products_without_fp8_matmul();
  const auto boilerplate = config.boilerplate(); // the section's one reader, shared with the quality report
  r.template_min_steps = boilerplate.template_min_steps;
  r.max_mechanism_share = boilerplate.max_mechanism_share;
  return r;
}

const DraftRules &DraftRules::defaults() {
  static const DraftRules rules = from_config(config::Config::defaults());
  return rules;
}

Draft draft_record(const Packet &packet, const DraftRules &rules) {
  Draft out;
  const auto &target = packet.target();
  const auto &af = packet.agent_facing();
  Context c{packet, rules, target, af, packet.provenance(), packet.record_type(), "", "", "", "", out};
  try {
    if (c.type != "strategy" && c.type != "anti-strategy" && c.type != "reference-kernel")
      refuse("type", "record_type '" + c.type + "' is not one a trace can evidence");
    if (!target.is_object() || !af.is_object()) refuse("target", "the packet has no target or agent_facing layer");
    c.id = required_string(target.get("id"), "id", "target.id is missing: the drafter never mints an id");
    if (!record::is_valid_id(c.id)) refuse("id", "target.id '" + c.id + "' is not a valid record id");
    c.family = c.packet_target.scope.operator_family;
    for (const char *k : {"source_repo", "version", "git_commit"})
      required_string(c.prov.get(k), std::string("evidence.raw.") + k,
                      std::string("provenance.") + k + " is missing: the provenance gate could not resolve the record");
    c.gpu = required_string(af.get("operator").get("gpu"), "payload.problem.target", "operator.gpu is missing");
    c.what = required_string(af.get("operator").get("what_it_computes"), "payload.problem.statement",
                             "the packet does not say what the operator computes");
    refuse_code_that_cannot_compile(c);
    refuse_loop_that_never_advances(c);
    refuse_kernel_that_reads_past_the_end(c);
    refuse_kernel_over_shared_memory(c);
    refuse_kernel_with_a_hazard(c);
    refuse_kernel_the_gpu_cannot_build(c);
    Value record;
    if (c.type == "strategy")
      record = draft_strategy(c);
    else if (c.type == "anti-strategy")
      record = draft_anti(c);
    else
      record = draft_reference(c);
    check_placement(record, c.packet_target);
    out.record = std::move(record);
  } catch (const Refused &r) {
    out.refusal = r.r;
    out.thin.clear();
  }
  return out;
}

} // namespace otm::distill
