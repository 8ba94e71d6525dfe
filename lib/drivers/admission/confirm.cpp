#include "admission/actions.hpp"
#include "admission/live_index.hpp"
#include "admission/store_commit.hpp"
#include "record/store_layout.hpp"
#include "scoring/worth_model.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_entry.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::admission {

namespace {

// worth.track completed so the schema holds: all six counters (missing ones
// 0), a prior (empty when missing) and confirm_keys.
json::Value complete_track(const json::Value &worth) {
  json::Value track = worth.get("track").is_object() ? worth.get("track") : json::Value::object();
  json::Value counters = track.get("counters").is_object() ? track.get("counters") : json::Value::object();
  for (const char *k : {"query_count", "served_count", "applied_count", "verified_effective", "verified_ineffective",
                        "fallback_served"})
    if (!counters.get(k).is_int()) counters.set(k, 0);
  track.set("counters", counters);
  if (!track.get("prior").is_object()) track.set("prior", json::Value::object());
  if (!track.get("confirm_keys").is_array()) track.set("confirm_keys", json::Value::array());
  return track;
}

Outcome refused(std::string message) {
  Outcome out;
  out.action = "confirm";
  out.exit_code = 1;
  out.message = std::move(message);
  return out;
}

} // namespace

Outcome confirm_record(const CommitRequest &req) {
  const std::string target = *req.target;
  if (target == store::RecordView::shown(req.record).id.value_or(""))
    return refused("confirm: a record cannot confirm itself (" + target + "); nothing was counted");
  store::KeysIndex index_keys = live_keys_for_update(req.live_root, req.limits);
  auto rel = index_keys.path_of(target);
  if (!rel)
    return refused("confirm: record " + target +
                   " not found in the live index; nothing was counted and the source is not marked merged");
  std::filesystem::path file;
  json::Value rec;
  try {
    file = record::inside(req.live_root, *rel);
    rec = store::read_record(req.live_root, *rel);
  } catch (const std::exception &e) {
    return refused("confirm: cannot read the target " + *rel + " (" + e.what() +
                   "); nothing was counted and the source is not marked merged");
  }
  Outcome out;
  out.action = "confirm";
  out.target = target;
  out.written = *rel;
  out.mark_merged = true;
  std::string key = target + ":" + store::RecordView::shown(req.record).id.value_or("unknown");

  json::Value worth = rec.get("worth");
  json::Value track = complete_track(worth);
  for (const auto &k : *track.get("confirm_keys").as_array())
    if (k.as_string() && *k.as_string() == key) {
      out.message = "confirmed:" + target + " (already counted, skipped)";
      return out;
    }
  json::Value counters = track.get("counters");
  long long n = counters.get("verified_effective").as_int().value_or(0) + 1;
  counters.set("verified_effective", n);
  track.set("counters", counters);
  json::Value keys = track.get("confirm_keys");
  keys.push_back(key);
  track.set("confirm_keys", keys);
  worth.set("track", track);
  rec.set("worth", worth);

  // The counters feed the worth model: re-rank so the served score and tier
  // (and the index entry the index gate compares) do not go stale.
  auto ranked = scoring::rank_record(rec);
  json::Value rank = worth.get("rank");
  bool rerank = rank.get("score").as_number() != std::optional<double>(ranked.score) ||
                store::RecordView::shown(rec).tier.value_or("") != ranked.tier;
  if (rerank) {
    rank.set("score", ranked.score);
    rank.set("tier", ranked.tier);
    rank.set("formula", scoring::kFormula);
    rank.set("builder_version", req.builder_version);
    worth.set("rank", rank);
    rec.set("worth", worth);
  }

  StoreCommit swap(req.live_root, req.limits);
  swap.in_batch(req.batch);
  swap.write(under_records(*rel), json::to_pretty(rec));
  if (rerank) {
    // The entry as the index holds it, re-ranked: an upsert line. The keys
    // name where it is (its journal line, or its bytes in index.json), so
    // only it is read; the whole index only if index.json was replaced
    // behind the keys (another tool).
    std::optional<json::Value> entry;
    if (auto text = index_keys.entry_text(target)) {
      try {
        entry = json::parse(*text, workspace::index_file(req.live_root).string());
      } catch (const json::ParseError &) {
        entry.reset();
      }
    }
    if (!entry) {
      json::Value index = load_live_index_for_update(req.live_root);
      for (const auto &e : *index.get("records").as_array())
        if (store::IndexEntry::from_json(e).id == target) {
          entry = e;
          break;
        }
    }
    if (entry) {
      entry->set("worth_score", ranked.score);
      entry->set("tier", ranked.tier);
      swap.upsert_index_entry(std::move(*entry), store::candidate_summary_text(rec));
    }
  }
  swap.commit();
  out.changed = swap.changed();
  out.message = "confirmed:" + target + " (verified_effective=" + std::to_string(n) + ")";
  return out;
}

} // namespace otm::admission
