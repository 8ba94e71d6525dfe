#include "admission/actions.hpp"
#include "admission/live_index.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace {

std::string describe(const json::Value &rec) {
  const auto &type = rec.get("type");
  const auto &pct = rec.get("worth").get("gain").get("pct");
  return "type=" + (type.is_null() ? std::string("None") : type.python_str()) +
         " gain=" + (pct.is_number() ? pct.python_str() : std::string("?")) + "%";
}

json::Value problem_field(const json::Value &rec, const char *key) {
  const auto *v = rec.get("payload").get("problem").find(key);
  return v ? *v : json::Value(nullptr);
}

} // namespace

Outcome flag_conflict(const CommitRequest &req) {
  Outcome out;
  out.action = "conflict";
  const std::string target = *req.target;
  auto rel = live_keys_for_update(req.live_root, req.limits).path_of(target);
  json::Value existing;
  try {
    if (rel) existing = store::read_record(req.live_root, *rel);
  } catch (const std::exception &) {
    existing = nullptr;
  }
  if (!existing.is_object()) {
    out.exit_code = 1;
    out.message = "conflict: record " + target +
                  " is not in the live store (index entry or file missing); nothing was queued and the source is "
                  "not marked merged";
    return out;
  }
  std::string incoming_id = store::RecordView::shown(req.record).id.value_or("unknown");
  if (incoming_id.empty()) incoming_id = "unknown";
  if (auto why = record::unsafe_component_reason(incoming_id); !why.empty()) {
    out.exit_code = 1;
    out.message = "REFUSED: incoming id '" + incoming_id + "' " + why + ": it cannot name a conflict file";
    return out;
  }

  json::Value doc = json::Value::object();
  doc.set("created", req.when.iso);
  doc.set("existing_record_id", target);
  doc.set("incoming_record", req.record);
  // The caller (or the auto policy's exact episode_key match) asserts the two
  // records describe the same thing; the conflict schema requires the field.
  doc.set("match_confidence", 1.0);
  doc.set("conflict_reason",
          "direction contradiction: existing record " + describe(existing) + ", new record " + describe(req.record));
  json::Value ctx = json::Value::object();
  for (const char *k : {"shape_contract", "bottleneck", "observed_symptom"}) {
    ctx.set(std::string("existing_") + k, problem_field(existing, k));
    ctx.set(std::string("incoming_") + k, problem_field(req.record, k));
  }
  ctx.set("possible_explanations",
          json::Value::strings({"the two records were measured on different shape sets",
                                "different preconditions or a different builds_on baseline",
                                "hardware batch or driver version differences", "one side's measurement is wrong"}));
  doc.set("context", ctx);
  doc.set("resolution", nullptr);

  // Never overwrite an earlier conflict: the second one in the same second
  // for the same id gets a numbered name.
  std::filesystem::path dir = req.live_root / "conflicts";
  std::string text = json::to_pretty(doc);
  std::string base = req.when.stamp + "_" + incoming_id;
  for (int n = 1;; ++n) {
    std::string name = n == 1 ? base + ".json" : base + "." + std::to_string(n) + ".json";
    if (io::write_file_atomic_new(dir / name, text)) {
      out.message = "conflict_flagged:" + name;
      out.written = "conflicts/" + name;
      out.changed = {out.written};
      break;
    }
  }
  out.target = target;
  out.mark_merged = true;
  return out;
}

} // namespace otm::admission
