#include "workspace/version_row.hpp"

#include <utility>

#include "workspace/field_reader.hpp"
#include "json/parse.hpp"

namespace otm::workspace {

namespace {

using Row = VersionRow;

// Each field by key and type, so a key is spelled once for reading; the
// writer below keeps otm-ingest's order, which is not the reading's.
constexpr std::pair<const char *, std::string Row::*> kStrings[] = {
    {"version", &Row::version},
    {"dsl", &Row::dsl},
    {"sha", &Row::sha},
    {"date", &Row::date},
    {"subject", &Row::subject},
    {"body", &Row::body},
    {"memory_file", &Row::memory_file},
};
// A string, or null (written as null when absent).
constexpr std::pair<const char *, std::optional<std::string> Row::*> kStringsOrNull[] = {
    {"parent", &Row::parent},
    {"correctness_status", &Row::correctness_status},
    {"gate_result", &Row::gate_result},
    {"gate_failure", &Row::gate_failure},
    {"action_category", &Row::action_category},
    {"action_description", &Row::action_description},
    {"expected_impact", &Row::expected_impact},
    {"geomean_source", &Row::geomean_source},
};
// A string when the subject has one (not written when absent).
constexpr std::pair<const char *, std::optional<std::string> Row::*> kOptionalStrings[] = {
    {"deadend_blob", &Row::deadend_blob},
    {"next_direction", &Row::next_direction},
    {"stated_change", &Row::stated_change},
};
constexpr std::pair<const char *, bool Row::*> kBools[] = {
    {"has_commit", &Row::has_commit}, {"has_memory", &Row::has_memory}, {"reverted", &Row::reverted}};
constexpr std::pair<const char *, std::optional<double> Row::*> kNumbers[] = {
    {"subject_before_us", &Row::subject_before_us},
    {"subject_after_us", &Row::subject_after_us},
    {"subject_pct", &Row::subject_pct},
    {"subject_baseline_us", &Row::subject_baseline_us},
};
constexpr std::pair<const char *, std::vector<std::string> Row::*> kStringLists[] = {
    {"profile_dirs", &Row::profile_dirs},
    {"ncu_usable_dirs", &Row::ncu_usable_dirs},
    {"report_dirs", &Row::report_dirs},
    {"other_commits_before", &Row::other_commits_before},
};
constexpr std::pair<const char *, json::Value Row::*> kValues[] = {
    {"geomean_us", &Row::geomean_us},
    {"by_shape", &Row::by_shape},
    {"arith_mean_us", &Row::arith_mean_us},
    {"speedup_vs_ref", &Row::speedup_vs_ref},
    {"max_abs_err", &Row::max_abs_err},
    {"max_rel_err", &Row::max_rel_err},
    {"git_commit_hash", &Row::git_commit_hash},
    {"open_directions", &Row::open_directions},
    {"pitfalls", &Row::pitfalls},
    {"search_log", &Row::search_log},
    {"profile_evidence", &Row::profile_evidence},
};

// Reads one member into `row` by its key's table, through `r`, which keeps
// the sentence of a member of another type; false when the key is none of
// the row's.
bool read_member(FieldReader &r, Row &row, std::string_view key, const json::Value &v) {
  if (auto f = field_of(kStrings, key))
    r.string(key, v, row.*f);
  else if (auto f = field_of(kStringsOrNull, key))
    r.string_or_null(key, v, row.*f);
  else if (auto f = field_of(kOptionalStrings, key))
    r.string(key, v, row.*f);
  else if (auto f = field_of(kBools, key))
    r.boolean(key, v, row.*f);
  else if (auto f = field_of(kNumbers, key))
    r.number(key, v, row.*f);
  else if (auto f = field_of(kStringLists, key))
    r.strings(key, v, row.*f);
  else if (auto f = field_of(kValues, key))
    row.*f = v;
  else if (key == "n")
    r.integer(key, v, row.n);
  else if (key == "deadend_streak")
    r.integer(key, v, row.deadend_streak);
  else if (key == "deadend_items")
    r.strings(key, v, row.deadend_items);
  else
    return false;
  return true;
}

} // namespace

Result<VersionRow> VersionRow::from_json(const json::Value &v) {
  FieldReader r("a version row", "otm-ingest");
  const auto *members = r.members(v);
  if (!members) return r.error();
  std::string version;
  if (!r.string("version", v.get("version"), version)) return r.error();
  return VersionRow().with_members(*members);
}

Result<VersionRow> VersionRow::with_members(const json::Object &members) const {
  FieldReader r("a version row", "otm-ingest");
  VersionRow row = *this;
  for (const auto &[key, value] : members) {
    if (!read_member(r, row, key, value)) row.later.set(key, value);
    if (r.failed()) return r.error();
  }
  return row;
}

Result<VersionRow> VersionRow::parse(std::string_view line, std::string_view source) {
  json::Value v;
  try {
    v = json::parse(line, source);
  } catch (const Error &e) {
    return e;
  }
  auto row = from_json(v);
  if (!row) return located(source, row.error());
  return row;
}

std::vector<VersionRow> read_version_rows(const std::vector<json::Value> &rows, std::string_view source) {
  return read_rows(rows, source, &VersionRow::from_json);
}

json::Value VersionRow::to_json() const {
  json::Value row = json::Value::object();
  row.set("version", version);
  row.set("n", n);
  row.set("has_commit", has_commit);
  row.set("has_memory", has_memory);
  row.set("dsl", dsl);
  row.set("profile_dirs", json::Value::strings(profile_dirs));
  row.set("ncu_usable_dirs", json::Value::strings(ncu_usable_dirs));
  row.set("report_dirs", json::Value::strings(report_dirs));
  if (has_commit) {
    row.set("sha", sha);
    row.set("parent", parent);
    row.set("date", date);
    row.set("subject", subject);
    row.set("body", body);
    row.set("reverted", reverted);
    if (subject_before_us) row.set("subject_before_us", *subject_before_us);
    if (subject_after_us) row.set("subject_after_us", *subject_after_us);
    if (subject_pct) row.set("subject_pct", *subject_pct);
    if (subject_baseline_us) row.set("subject_baseline_us", *subject_baseline_us);
    if (deadend_blob) row.set("deadend_blob", *deadend_blob);
    if (deadend_items) row.set("deadend_items", json::Value::strings(*deadend_items));
    if (deadend_streak) row.set("deadend_streak", *deadend_streak);
    if (next_direction) row.set("next_direction", *next_direction);
    if (stated_change) row.set("stated_change", *stated_change);
    if (!other_commits_before.empty()) row.set("other_commits_before", json::Value::strings(other_commits_before));
  }
  if (has_memory) {
    row.set("memory_file", memory_file);
    row.set("geomean_us", geomean_us);
    row.set("by_shape", by_shape);
    row.set("arith_mean_us", arith_mean_us);
    row.set("speedup_vs_ref", speedup_vs_ref);
    row.set("correctness_status", correctness_status);
    row.set("max_abs_err", max_abs_err);
    row.set("max_rel_err", max_rel_err);
    row.set("gate_result", gate_result);
    row.set("gate_failure", gate_failure);
    row.set("action_category", action_category);
    row.set("action_description", action_description);
    row.set("expected_impact", expected_impact);
    row.set("git_commit_hash", git_commit_hash);
    row.set("open_directions", open_directions);
    row.set("pitfalls", pitfalls);
    row.set("search_log", search_log);
    row.set("profile_evidence", profile_evidence);
    row.set("geomean_source", geomean_source);
  }
  for (const auto &[key, value] : *later.as_object()) row.set(key, value);
  return row;
}

} // namespace otm::workspace
