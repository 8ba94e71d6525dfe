#include "distill/gates_for_trace.hpp"

#include "config/config.hpp"
#include "error/error.hpp"
#include "gates/admission.hpp"
#include "gates/context.hpp"
#include "gates/denylist.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "schema/builtin_schemas.hpp"
#include "trace/git_dir_policy.hpp"
#include "trace/trace_location.hpp"
#include "workspace/layout.hpp"

namespace otm::distill {

TraceGateInputs trace_gate_inputs(const config::Settings &settings, const config::Config &config,
                                  const std::filesystem::path &store_root) {
  using config::Setting;
  auto trace = settings.get(Setting::Trace);
  if (!trace)
    throw Error(ErrorKind::Usage, "no trace: the provenance gate resolves commits in it (set RTM_TRACE or --trace)");
  auto live = workspace::live_root(settings);
  if (!live) throw Error(ErrorKind::Usage, "no live store: the store-overlap gate needs it (set RTM_LIVE or --live)");
  TraceGateInputs in;
  in.store_root = store_root;
  in.trace_repo = io::expand_user(*trace);
  trace::check_git_dir(*in.trace_repo, settings);
  in.trace_label = trace::trace_label(settings, *in.trace_repo);
  in.live_root = *live;
  in.store_schema = schema::store_schema();
  in.profile = schema::profile_schema();
  in.id_products = gates::target_products(config);
  if (auto deny = settings.get(Setting::Denylist)) in.denylist = gates::load_denylist(*deny);
  return in;
}

TraceGates::TraceGates(TraceGateInputs inputs) : in_(std::move(inputs)), names_(gates::per_record_gate_names()) {
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
  pe.file = workspace::Workspace::packet_relpath(packet.path);
  pe.packet = packet.doc;
  pe.code_text = packet.code;
  pe.code_after = packet.code_after;
  auto ctx = gates::context_for_record(record, in_.store_root / relpath, pe);
  ctx.records.front().file = relpath;
  ctx.store_root = in_.store_root;
  ctx.store_schema = in_.store_schema;
  ctx.profile = in_.profile;
  ctx.id_products = in_.id_products;
  ctx.denylist = in_.denylist;
  const workspace::Workspace ws{packet.path.parent_path().parent_path()};
  ctx.workspace = ws.root;
  auto profiles = ws.profiles_file();
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
    found = gates::run_gates(ctx, names_);
  }
  std::vector<GateFinding> out;
  for (const auto &f : found)
    out.push_back({f.gate, f.message + (f.token.empty() ? "" : " (" + f.token + ")"), f.token});
  return out;
}

} // namespace otm::distill
