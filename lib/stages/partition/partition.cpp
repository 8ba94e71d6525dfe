#include "partition/partition.hpp"

#include <algorithm>
#include <set>

#include "error/error.hpp"
#include "levers/lever_settings.hpp"
#include "partition/failed_levers.hpp"
#include "partition/segment_builder.hpp"
#include "partition/technique.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"
#include "workspace/kernel_file.hpp"
#include "workspace/segment.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::partition {

namespace {

// The settings a step's first sentence states, as "lever=value" ("lever="
// for one named without a value): two steps with the same are one change.
std::set<std::string> change_key(const Inputs &in, const workspace::VersionRow &row) {
  const std::string change = change_of(row);
  // A gloss in brackets ("enable VEC (vec4)", "enable VEC (128-bit
  // loads)") names no other change.
  static const text::Regex gloss(R"(\s*\([^()]*\))");
  const std::string first = gloss.replace(levers::what_a_change_did(change), "");
  std::set<std::string> key;
  // The code name too: BLOCK_H 1->4 is no retry of BLOCK_S 1->4, though
  // both are block sizes (kit 27).
  const std::string_view claim = levers::claim_of(first);
  for (const auto &st : levers::settings_in(in.levers, claim))
    key.insert(st.lever + ":" + levers::setting_name(claim.substr(st.begin, st.end - st.begin)) + "=" + st.value);
  return key;
}

// The run's reverted tries of the change a milestone kept, and the kept
// steps after the last of them (kit 24: a persistent tile loop reverted
// five times, kept once grouped rasterisation was in): the gain depends on
// what changed since, which the record should say.
void earlier_tries(const Inputs &in, const std::vector<workspace::VersionRow> &rows, const std::vector<Milestone> &ms,
                   const workspace::VersionRow &m, workspace::Segment &s) {
  const auto key = change_key(in, m);
  if (key.empty()) return;
  json::Value tries = json::Value::array();
  std::int64_t last = -1;
  for (const auto &row : rows)
    if (row.n > 0 && row.n < m.n && row.reverted && row.dsl == m.dsl && change_key(in, row) == key) {
      json::Value o = json::Value::object();
      o.set("version", row.version);
      o.set("sha", row.has_commit ? json::Value(row.sha) : json::Value());
      tries.push_back(std::move(o));
      last = row.n;
    }
  if (last < 0) return;
  json::Value since = json::Value::array();
  for (const auto &row : rows)
    if (row.n > last && row.n < m.n && !row.reverted && row.has_commit) {
      json::Value o = json::Value::object();
      o.set("version", row.version);
      o.set("change", change_of(row));
      // A new best-so-far the ladder accepted: what most likely made the
      // difference, named first by otm-draft.
      o.set("milestone", std::any_of(ms.begin(), ms.end(), [&](const Milestone &k) {
              return k.row->version == row.version && k.kind != "baseline";
            }));
      since.push_back(std::move(o));
    }
  s.reverted_tries_before = std::move(tries);
  s.kept_since_last_try = std::move(since);
}

void strategies(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &all_rows,
                const std::vector<Milestone> &ms, const RowsByVersion &rows) {
  const Milestone *previous = nullptr;
  for (const auto &m : ms) {
    const std::string &kind = m.kind;
    if (kind == "baseline") {
      previous = &m;
      continue;
    }
    workspace::Segment s = b.common(*m.row);
    std::string technique = strategy_technique(*m.row);
    s.seg_id = "strategy-" + m.row->version;
    s.record_type = "strategy";
    s.seg_kind = std::string(workspace::kMilestoneSegmentPrefix) + kind;
    s.marker = "s";
    s.technique = technique;
    s.disc = b.allocate(s, "strategy", technique);
    s.improve_pct = or_null(m.improve_pct);
    s.geomean_us = or_null(m.row->geomean_us);
    s.kind = kind;
    json::Value on = json::Value::object();
    on.set("version", previous ? json::Value(previous->row->version) : json::Value());
    on.set("is_baseline", previous ? json::Value(previous->kind == "baseline") : json::Value());
    on.set("geomean_us", previous ? or_null(previous->row->geomean_us) : json::Value());
    on.set("description", previous ? json::Value(previous->row->action_description) : json::Value());
    s.builds_on = std::move(on);
    s.measured_against = measured_against(*m.row, rows);
    earlier_tries(in, all_rows, ms, *m.row, s);
    b.finish(s);
    previous = &m;
  }
}

void reference_kernels(Builder &b, const Inputs &in, const std::vector<Milestone> &ms, const RowsByVersion &rows) {
  if (ms.empty()) return;
  const workspace::VersionRow *last = ms.front().row;
  for (const auto &m : ms)
    if (m.row->n > last->n) last = m.row;
  workspace::Segment f = b.common(*last);
  f.seg_id = "refk-final";
  f.record_type = "reference-kernel";
  f.seg_kind = workspace::kFinalKernelSegment;
  f.marker = "r";
  f.technique = "reference-impl";
  f.disc = b.allocate(f, "reference-kernel", "reference-impl");
  f.kernel_file = in.meta.kernel_file;
  b.finish(f);
  int mega_index = 0;
  for (const auto &m : ms) {
    if (m.kind != "mega") continue;
    ++mega_index;
    const std::string &ver = m.row->version;
    // The final kernel already is this version's reference kernel.
    if (ver == last->version) continue;
    std::string path = workspace::snapshot_path(ver, in.meta.kernel_file);
    if (!in.snapshot_exists || !in.snapshot_exists(path)) continue;
    workspace::Segment s = b.common(*m.row);
    std::string technique = "reference-impl-milestone" + std::to_string(mega_index);
    s.seg_id = "refk-" + ver;
    s.record_type = "reference-kernel";
    s.seg_kind = workspace::kMegaSnapshotSegment;
    s.marker = "r";
    s.technique = technique;
    s.disc = b.allocate(s, "reference-kernel", technique);
    s.kernel_file = path;
    // The code its jump is measured against: a snapshot whose code runs
    // the same is a re-measurement, no milestone kernel (the packet says).
    s.measured_against = measured_against(*m.row, rows);
    // The final kernel's commit: a snapshot whose code runs as the final
    // kernel's is that record again.
    json::Value final_kernel = json::Value::object();
    final_kernel.set("version", last->version);
    final_kernel.set("sha", last->has_commit ? json::Value(last->sha) : json::Value());
    s.final_kernel = std::move(final_kernel);
    // The milestones after it in its own DSL (the final kernel's DSL may
    // be another: the snapshot before a port), for otm-packet to weigh.
    json::Value later = json::Value::array();
    for (const auto &n : ms)
      if (n.row->n > m.row->n && n.row->has_commit && text::to_lower(n.row->dsl) == text::to_lower(m.row->dsl)) {
        json::Value v = json::Value::object();
        v.set("version", n.row->version);
        v.set("sha", n.row->sha);
        later.push_back(std::move(v));
      }
    if (later.size()) s.later_in_its_dsl = std::move(later);
    b.finish(s);
  }
}

[[noreturn]] void refuse(const std::string &what, const std::vector<std::string> &ids, const std::string &fix) {
  std::string list;
  for (std::size_t i = 0; i < ids.size() && i < 5; ++i) list += (i ? ", " : "") + ids[i];
  throw Error(ErrorKind::NegativeVerdict, what + ": " + list + (ids.size() > 5 ? ", ..." : "") + "; " + fix);
}

} // namespace

std::vector<Milestone> milestones(const std::vector<workspace::VersionRow> &rows) {
  std::vector<Milestone> out;
  std::optional<Milestone> final_row;
  for (const auto &row : rows) {
    const auto verdict = verdict_of(row);
    if (!verdict.accepted()) continue;
    const std::string &sel = verdict.selection;
    Milestone m{&row, sel, sel == "baseline" || sel == "final" ? json::Value() : json::Value(verdict.improve_pct)};
    if (sel == "final")
      final_row = std::move(m);
    else
      out.push_back(std::move(m));
  }
  if (final_row) out.push_back(std::move(*final_row));
  return out;
}

Result run(const Inputs &in) {
  Result r;
  Builder b(in, r);
  const auto rows = workspace::read_version_rows(in.rows, "the ladder's rows (work/ladder.jsonl)");
  auto ms = milestones(rows);
  const RowsByVersion by_version(rows);
  strategies(b, in, rows, ms, by_version);
  failed_lever_segments(b, in, rows, ms, by_version, r);
  reference_kernels(b, in, ms, by_version);
  r.reused = b.alloc_.reused();

  std::set<std::string> seen, seen_seg, reused(r.reused.begin(), r.reused.end());
  std::vector<std::string> dup_segs;
  // Read back as written, so the checks read the fields every later stage reads.
  const auto built = workspace::read_segments(r.segments, "the segments it built");
  for (const auto &s : built)
    if (!seen_seg.insert(s.seg_id).second) dup_segs.push_back(s.seg_id);
  if (!dup_segs.empty())
    refuse("the run produced the same segment twice", dup_segs,
           "a version appears twice in the ladder output; re-run otm-ingest and otm-ladder");
  std::set<std::string> live(in.live_ids.begin(), in.live_ids.end());
  std::vector<std::string> dups, clashes;
  for (const auto &s : built) {
    const std::string &id = s.id;
    if (!seen.insert(id).second)
      dups.push_back(id);
    else if (live.count(id) && !reused.count(id))
      clashes.push_back(id);
  }
  if (!dups.empty())
    refuse("the run produced the same id twice", dups,
           "two segments share a version, technique and marker number; report this trace");
  if (!clashes.empty())
    refuse("ids already in the live store", clashes,
           "the store changed underneath; re-run otm-recon and otm-partition");
  return r;
}

} // namespace otm::partition
