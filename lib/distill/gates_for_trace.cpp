#include "distill/gates_for_trace.hpp"

#include "gates/admission.hpp"
#include "gates/context.hpp"
#include "io/file.hpp"
#include "schema/builtin_schemas.hpp"
#include "json/parse.hpp"

namespace otm::distill {

const std::vector<std::string> &per_record_gate_names() {
  static const std::vector<std::string> names = {
      "schema",           "ids",          "anonymization", "raw-isolation", "self-contained", "no-cross-reference",
      "established-fact", "profile",      "layout",        "verbatim",      "no-fabrication", "provenance",
      "ncu-attribution",  "store-overlap"};
  return names;
}

std::shared_ptr<const schema::Schema> builtin_store_schema() {
  return std::make_shared<const schema::Schema>(json::parse(schema::builtin_store_schema_text(), "built-in clean-1.3"),
                                                "built-in clean-1.3");
}

std::shared_ptr<const schema::Schema> builtin_profile() {
  return std::make_shared<const schema::Schema>(json::parse(schema::builtin_profile_text(), "built-in opt-trace-1.0"),
                                                "built-in opt-trace-1.0");
}

TraceGates::TraceGates(TraceGateInputs inputs) : in_(std::move(inputs)) {
  if (in_.live_root) {
    gates::Context live;
    gates::load_live(live, *in_.live_root);
    live_ids_ = std::move(live.live_ids);
    live_keys_ = std::move(live.live_episode_keys);
    have_live_ = true;
  }
}

std::vector<GateFinding> TraceGates::check(const json::Value &record, const std::string &relpath,
                                           const Packet &packet) const {
  gates::PacketEntry pe;
  pe.seg_id = packet.seg_id();
  pe.file = "packets/" + packet.path.filename().string();
  pe.packet = packet.doc;
  pe.code_text = packet.code;
  auto ctx = gates::context_for_record(record, in_.store_root / relpath, pe);
  ctx.records.front().file = relpath;
  ctx.store_root = in_.store_root;
  ctx.store_schema = in_.store_schema;
  ctx.profile = in_.profile;
  ctx.id_products = in_.id_products;
  auto workspace = packet.path.parent_path().parent_path();
  ctx.workspace = workspace;
  auto profiles = workspace / "work" / "profiles.jsonl";
  if (io::is_regular_file(profiles)) {
    ctx.usable_captures = gates::load_usable_captures(profiles);
    ctx.have_captures = true;
  }
  ctx.trace_repo = in_.trace_repo;
  ctx.trace_label = in_.trace_label;
  ctx.have_live = have_live_;
  ctx.live_ids = live_ids_;
  ctx.live_episode_keys = live_keys_;
  std::vector<gates::Finding> found;
  {
    std::lock_guard<std::mutex> lock(mu_);
    found = gates::run_gates(ctx, per_record_gate_names());
  }
  std::vector<GateFinding> out;
  for (const auto &f : found) out.push_back({f.gate, f.message + (f.token.empty() ? "" : " (" + f.token + ")")});
  return out;
}

} // namespace otm::distill
