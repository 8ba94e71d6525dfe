#include "workspace/segment.hpp"

#include <utility>

#include "workspace/field_reader.hpp"
#include "workspace/segment_kinds.hpp"

namespace otm::workspace {

namespace {

using Seg = Segment;

// Each field by key and type, so a key is spelled once for reading; the
// writer below keeps otm-partition's orders, which are not the reading's.
constexpr std::pair<const char *, std::string Seg::*> kStrings[] = {
    {"version", &Seg::version},
    {"dsl", &Seg::dsl},
    {"operator_slug", &Seg::operator_slug},
    {"workload_family", &Seg::workload_family},
    {"vendor", &Seg::vendor},
    {"arch", &Seg::arch},
    {"product", &Seg::product},
    {"source_repo", &Seg::source_repo},
    {"seg_id", &Seg::seg_id},
    {"record_type", &Seg::record_type},
    {"seg_kind", &Seg::seg_kind},
    {"marker", &Seg::marker},
    {"technique", &Seg::technique},
    {"id", &Seg::id},
    {"episode_key", &Seg::episode_key},
    {"kind", &Seg::kind},
    {"split_by", &Seg::split_by},
    {"fact_precheck", &Seg::fact_precheck},
    {"kernel_file", &Seg::kernel_file},
};
// A string, or null.
constexpr std::pair<const char *, std::optional<std::string> Seg::*> kStringsOrNull[] = {
    {"sha", &Seg::sha},
    {"parent", &Seg::parent},
    {"date", &Seg::date},
    {"deadend_text", &Seg::deadend_text},
    {"pitfall_fix", &Seg::pitfall_fix},
};
constexpr std::pair<const char *, std::int64_t Seg::*> kIntegers[] = {{"n", &Seg::n}, {"disc", &Seg::disc}};
constexpr std::pair<const char *, std::vector<std::string> Seg::*> kStringLists[] = {
    {"ncu_dirs", &Seg::ncu_dirs},
    {"report_dirs", &Seg::report_dirs},
};
// Kept as partition wrote them: the ladder's numbers, and the nested
// objects and lists.
constexpr std::pair<const char *, json::Value Seg::*> kValues[] = {
    {"improve_pct", &Seg::improve_pct},
    {"geomean_us", &Seg::geomean_us},
    {"builds_on", &Seg::builds_on},
    {"tried_in_the_run", &Seg::tried_in_the_run},
    {"occurrences", &Seg::occurrences},
    {"lever_settings", &Seg::lever_settings},
    {"kept_in_the_run", &Seg::kept_in_the_run},
    {"kept_with_other_settings", &Seg::kept_with_other_settings},
};
// Present or absent, whatever its value.
constexpr std::pair<const char *, std::optional<json::Value> Seg::*> kPresentValues[] = {
    {"measured_against", &Seg::measured_against},       {"reverted_tries_before", &Seg::reverted_tries_before},
    {"kept_since_last_try", &Seg::kept_since_last_try}, {"final_kernel", &Seg::final_kernel},
    {"later_in_its_dsl", &Seg::later_in_its_dsl},
};

// Reads one member into `seg` by its key's table, through `r`, which keeps
// the sentence of a member of another type; false when the key is none of
// a segment's.
bool read_member(FieldReader &r, Seg &seg, std::string_view key, const json::Value &v) {
  if (auto f = field_of(kStrings, key))
    r.string(key, v, seg.*f);
  else if (auto f = field_of(kStringsOrNull, key))
    r.string_or_null(key, v, seg.*f);
  else if (auto f = field_of(kIntegers, key))
    r.integer(key, v, seg.*f);
  else if (auto f = field_of(kStringLists, key))
    r.strings(key, v, seg.*f);
  else if (auto f = field_of(kValues, key))
    seg.*f = v;
  else if (auto f = field_of(kPresentValues, key))
    seg.*f = v;
  else if (key == "comparable")
    r.boolean(key, v, seg.comparable);
  else
    return false;
  return true;
}

} // namespace

Result<Segment> Segment::from_json(const json::Value &v) {
  FieldReader r("a segment", "otm-partition");
  const auto *members = r.members(v);
  if (!members) return r.error();
  std::string required;
  for (const char *key : {"version", "seg_id", "record_type"})
    if (!r.string(key, v.get(key), required)) return r.error();
  Segment seg;
  for (const auto &[key, value] : *members) {
    if (!read_member(r, seg, key, value)) seg.later.set(key, value);
    if (r.failed()) return r.error();
  }
  return seg;
}

StepRef StepRef::of(const json::Value &step) {
  StepRef out;
  if (const auto *v = step.get("version").as_string()) out.version = *v;
  if (const auto *sha = step.get("sha").as_string()) out.sha = *sha;
  return out;
}

StepRef Segment::measured_from() const { return measured_against ? StepRef::of(*measured_against) : StepRef{}; }
StepRef Segment::final_kernel_at() const { return final_kernel ? StepRef::of(*final_kernel) : StepRef{}; }
StepRef Segment::builds_on_step() const { return StepRef::of(builds_on); }

std::vector<std::string> Segment::versions_in(const json::Value &list) {
  std::vector<std::string> out;
  if (const auto *entries = list.as_array())
    for (const auto &e : *entries) out.push_back(StepRef::of(e).version.value_or(""));
  return out;
}

std::vector<Segment> read_segments(const std::vector<json::Value> &segments, std::string_view source) {
  return read_rows(segments, source, &Segment::from_json);
}

json::Value Segment::to_json() const {
  json::Value s = json::Value::object();
  s.set("version", version);
  s.set("n", n);
  s.set("sha", sha);
  s.set("parent", parent);
  s.set("date", date);
  s.set("dsl", dsl);
  s.set("operator_slug", operator_slug);
  s.set("workload_family", workload_family);
  s.set("vendor", vendor);
  s.set("arch", arch);
  s.set("product", product);
  s.set("source_repo", source_repo);
  s.set("comparable", comparable);
  s.set("ncu_dirs", json::Value::strings(ncu_dirs));
  s.set("report_dirs", json::Value::strings(report_dirs));
  const bool pitfall = seg_kind == kCuratedPitfallSegment;
  if (record_type == "anti-strategy" && !pitfall) {
    // A dead end's account: its seg_id is known once its text is cut.
    s.set("record_type", record_type);
    s.set("marker", marker);
    s.set("seg_kind", seg_kind);
    s.set("deadend_text", deadend_text);
    s.set("split_by", split_by);
    s.set("technique", technique);
    s.set("fact_precheck", fact_precheck);
    s.set("disc", disc);
    s.set("seg_id", seg_id);
  } else if (pitfall) {
    s.set("seg_id", seg_id);
    s.set("record_type", record_type);
    s.set("seg_kind", seg_kind);
    s.set("marker", marker);
    s.set("split_by", split_by);
    s.set("deadend_text", deadend_text);
    s.set("pitfall_fix", pitfall_fix);
    s.set("fact_precheck", fact_precheck);
    s.set("technique", technique);
    s.set("disc", disc);
  } else {
    s.set("seg_id", seg_id);
    s.set("record_type", record_type);
    s.set("seg_kind", seg_kind);
    s.set("marker", marker);
    s.set("technique", technique);
    s.set("disc", disc);
  }
  if (record_type == "strategy") {
    s.set("improve_pct", improve_pct);
    s.set("geomean_us", geomean_us);
    s.set("kind", kind);
    s.set("builds_on", builds_on);
  }
  if (record_type == "reference-kernel") s.set("kernel_file", kernel_file);
  if (measured_against) s.set("measured_against", *measured_against);
  if (reverted_tries_before) s.set("reverted_tries_before", *reverted_tries_before);
  if (kept_since_last_try) s.set("kept_since_last_try", *kept_since_last_try);
  if (final_kernel) s.set("final_kernel", *final_kernel);
  if (later_in_its_dsl) s.set("later_in_its_dsl", *later_in_its_dsl);
  if (record_type == "anti-strategy") {
    s.set("tried_in_the_run", tried_in_the_run);
    s.set("occurrences", occurrences);
    s.set("lever_settings", lever_settings);
    s.set("kept_in_the_run", kept_in_the_run);
    s.set("kept_with_other_settings", kept_with_other_settings);
  }
  s.set("id", id);
  s.set("episode_key", episode_key);
  for (const auto &[key, value] : *later.as_object()) s.set(key, value);
  return s;
}

} // namespace otm::workspace
