#include "gates/injection.hpp"

#include <functional>
#include <set>

#include "gates/gates.hpp"
#include "record/format_tags.hpp"
#include "store/record_view.hpp"
#include "text/utf8.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::gates {

namespace {

using Mutation = std::function<void(json::Value &record, PacketEntry *packet, Context &ctx)>;

// A case is named "<gate name>/<what>": `what` is the mutation.
struct CaseSpec {
  Gate gate;
  const char *what;
  Mutation mutate;
};

json::Value &obj(json::Value &parent, const char *key) {
  if (!parent.get(key).is_object()) parent.set(key, json::Value::object());
  return *parent.find(key);
}

void append(json::Value &node, const char *key, const std::string &tail) { node.set(key, node.string_or(key) + tail); }

const std::vector<CaseSpec> &cases() {
  static const std::vector<CaseSpec> specs = {
      {Gate::Schema, "unknown-top-level-key",
       [](json::Value &r, PacketEntry *, Context &) { r.set("x_injected", true); }},
      {Gate::Ids, "short-id", [](json::Value &r, PacketEntry *, Context &) { r.set("id", "injected.id"); }},
      {Gate::Anonymization, "home-path",
       [](json::Value &r, PacketEntry *, Context &) {
         append(obj(r, "payload"), "goal", " (notes in /home/injected/x)");
       }},
      {Gate::RawIsolation, "served-raw",
       [](json::Value &r, PacketEntry *, Context &) {
         json::Value raw = json::Value::object();
         raw.set("source_repo", "injected");
         obj(obj(r, "evidence"), "summary").set("raw", raw);
       }},
      {Gate::Relations, "dangling-link",
       [](json::Value &r, PacketEntry *, Context &) {
         obj(obj(r, "retrieval"), "links")
             .set("see_also", json::Value::strings({"injected.no.such.record.anywhere-s99"}));
       }},
      {Gate::Index, "stale-score",
       [](json::Value &r, PacketEntry *, Context &) {
         auto &rank = obj(obj(r, "worth"), "rank");
         double s = rank.get("score").as_number().value_or(0.0);
         rank.set("score", s > 0.5 ? s - 0.25 : s + 0.25);
       }},
      {Gate::SelfContained, "blank-goal",
       [](json::Value &r, PacketEntry *, Context &) { obj(r, "payload").set("goal", "   "); }},
      {Gate::NoCrossReference, "record-id",
       [](json::Value &r, PacketEntry *, Context &) {
         append(obj(r, "payload"), "goal", " (as in nvidia.any.cuda.gemm.injected-s01)");
       }},
      {Gate::EstablishedFact, "inconclusive-verdict",
       [](json::Value &r, PacketEntry *, Context &) {
         r.set("type", "anti-strategy");
         obj(r, "payload").set("verdict", "unknown");
       }},
      {Gate::Profile, "generic-level", [](json::Value &r, PacketEntry *, Context &) { r.set("level", "generic"); }},
      {Gate::Layout, "scope-mismatch",
       [](json::Value &r, PacketEntry *, Context &) {
         const bool cuda = store::RecordView::shown(r).scope.dsl == "cuda";
         obj(obj(r, "retrieval"), "scope").set("dsl", cuda ? "triton" : "cuda");
       }},
      {Gate::Verbatim, "paraphrased-snippet",
       [](json::Value &r, PacketEntry *, Context &) {
         auto &impl = obj(obj(r, "payload"), "implementation");
         impl.set("snippet", "+    totally_invented_symbol = compute_nothing()");
       }},
      {Gate::NoFabrication, "invented-number",
       [](json::Value &r, PacketEntry *, Context &) {
         auto &gain = obj(obj(r, "worth"), "gain");
         auto *metrics = gain.find("metrics");
         if (metrics && metrics->as_array() && !metrics->as_array()->empty() && (*metrics->as_array())[0].is_object()) {
           (*metrics->as_array())[0].set("delta_pct", 87.6543);
           gain.set("pct", 87.6543);
         } else {
           append(obj(r, "payload"), "goal", " (87.6543% of the traffic)");
         }
       }},
      {Gate::Provenance, "unknown-commit",
       [](json::Value &r, PacketEntry *, Context &) {
         obj(obj(r, "evidence"), "raw").set("git_commit", std::string(40, '0'));
       }},
      {Gate::NcuAttribution, "unbacked-claim",
       [](json::Value &r, PacketEntry *p, Context &) {
         auto &ev = obj(r, "evidence");
         obj(obj(ev, "summary"), "bottleneck_evidence").set("basis", "profiler");
         obj(obj(ev, "raw"), "evidence_extra").set("ncu_dirs", json::Value::strings({"injected-capture"}));
         if (p) obj(p->packet, "provenance").set("ncu_dirs", json::Value::array());
       }},
      {Gate::StoreOverlap, "known-id",
       [](json::Value &r, PacketEntry *, Context &ctx) {
         // The error lives in the live store: use its smallest id, or, when
         // it holds none, make this record's id live.
         if (!ctx.live_ids.empty())
           r.set("id", *ctx.live_ids.begin());
         else
           ctx.live_ids.insert(store::RecordView::shown(r).id.value_or(""));
       }},
      {Gate::Substance, "comment-only-snippet",
       [](json::Value &r, PacketEntry *, Context &) {
         r.set("type", "strategy");
         obj(obj(r, "payload"), "implementation").set("snippet", " x = 1\n+# measured on the warm-L2 harness");
       }},
      // Issue 25: a changed module constant no line of the kernel reads is
      // not a change that runs, though the lexer calls it code.
      {Gate::Substance, "dead-constant-snippet",
       [](json::Value &r, PacketEntry *p, Context &) {
         r.set("type", "strategy");
         const char *hunk = "-_TUNE_ID = 113  # row-wise pass\n+_TUNE_ID = 826245  # fused the residual add";
         obj(obj(r, "payload"), "implementation").set("snippet", hunk);
         if (!p) return;
         p->code_text = std::string("diff --git a/kernel.py b/kernel.py\n--- a/kernel.py\n+++ b/kernel.py\n"
                                    "@@ -3 +3 @@ import triton\n") +
                        hunk + "\n";
         p->code_after = "import torch\nimport triton\n_TUNE_ID = 826245  # fused the residual add\n"
                         "def run(x):\n    return x\n";
       }},
  };
  return specs;
}

// A context holding only `entry`, with its own index entry; `ctx` holds no
// records (copying a large store per case would dominate the run).
Context single(const Context &ctx, const std::shared_ptr<const store::LazyIndex> &full_index,
               const RecordEntry &entry) {
  Context c = ctx;
  c.records = {entry};
  json::Value index = json::Value::object();
  index.set("schema", record::kStoreSchemaTag);
  json::Value list = json::Value::array();
  bool found = false;
  const auto *id = entry.record.get("id").as_string();
  if (full_index && id && full_index->has_records_list())
    for (const auto &e : full_index->entries())
      if (e.has_id && full_index->id(e) == *id) {
        list.push_back(json::parse(full_index->text(e), workspace::kIndexRelpath));
        found = true;
        break;
      }
  if (!found) {
    const auto &rec = entry.record;
    json::Value e = json::Value::object();
    e.set("id", rec.get("id"));
    e.set("retrieval", rec.get("retrieval"));
    e.set("worth_score", rec.get("worth").get("rank").get("score"));
    e.set("tier", rec.get("worth").get("rank").get("tier"));
    e.set("gain_pct", rec.get("worth").get("gain").get("pct"));
    list.push_back(e);
  }
  index.set("records", list);
  c.index = gate_index_from(index);
  c.index_unreadable = false;
  return c;
}

} // namespace

std::vector<InjectionCase> run_injection_tests(const Context &full) {
  std::vector<InjectionCase> out;
  Context ctx = full;
  ctx.records.clear();
  ctx.index.reset();
  for (const auto &spec : cases()) {
    const auto &gate = gate_info(spec.gate);
    InjectionCase ic{gate.name + "/" + spec.what, gate.name, InjectionStatus::NoSuitableRecord, "", "no record parses"};
    for (const auto &entry : full.records) {
      if (!entry.parse_error.empty() || !entry.record.is_object()) continue;
      Context base = single(ctx, full.index, entry);
      ic.record = entry.file;
      auto before = run_gate(gate, base);
      if (!before.passed()) {
        ic.status = before.crashed ? InjectionStatus::Crashed : InjectionStatus::BaselineFails;
        ic.detail = "fails before the mutation: " + before.findings.front().message;
        continue; // try the next record
      }
      Context mutated = base;
      // The lookup points into mutated.packets: the packet copy is mutated.
      auto *packet = const_cast<PacketEntry *>(find_packet(mutated, mutated.records[0].record).packet);
      spec.mutate(mutated.records[0].record, packet, mutated);
      auto after = run_gate(gate, mutated);
      if (after.crashed) {
        ic.status = InjectionStatus::Crashed;
        ic.detail = after.findings.front().message;
      } else if (after.passed()) {
        ic.status = InjectionStatus::NotFired;
        ic.detail = "the gate did not fire";
      } else {
        ic.status = InjectionStatus::Fired;
        ic.detail = after.findings.front().message;
      }
      break;
    }
    out.push_back(ic);
  }
  return out;
}

bool all_fired(const std::vector<InjectionCase> &cases) {
  for (const auto &c : cases)
    if (c.status != InjectionStatus::Fired) return false;
  return !cases.empty();
}

std::string format_injection(const std::vector<InjectionCase> &cases, const std::string &store) {
  std::string out = "injection tests against " + store + "\n";
  for (const auto &c : cases) {
    std::string name = c.name;
    if (name.size() < 40) name.append(40 - name.size(), ' ');
    const char *status = "";
    switch (c.status) {
    case InjectionStatus::Fired: status = "FIRED"; break;
    case InjectionStatus::NotFired: status = "DID NOT FIRE"; break;
    case InjectionStatus::Crashed: status = "CRASHED"; break;
    case InjectionStatus::BaselineFails: status = "NOT PROVEN"; break;
    case InjectionStatus::NoSuitableRecord: status = "NOT PROVEN"; break;
    }
    out += "  " + name + " " + status + "  " + std::string(text::prefix_code_points(c.detail, 88)) + "\n";
  }
  std::set<std::string> gates;
  for (const auto &c : cases) gates.insert(c.gate);
  out += all_fired(cases) ? "all " + std::to_string(cases.size()) + " injection cases fired, proving all " +
                                std::to_string(gates.size()) + " gates\n"
                          : "some gates were not proven to fire\n";
  return out;
}

} // namespace otm::gates
