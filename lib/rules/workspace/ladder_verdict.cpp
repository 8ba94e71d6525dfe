#include "workspace/ladder_verdict.hpp"

#include <utility>

#include "workspace/field_reader.hpp"

namespace otm::workspace {

namespace {

using V = LadderVerdict;

// Each field by key and type, so a key is spelled once for reading.
constexpr std::pair<const char *, std::optional<std::string> V::*> kStringsOrNull[] = {
    {"reason", &V::reason},
    {"best_before_version", &V::best_before_version},
};
constexpr std::pair<const char *, std::optional<double> V::*> kNumbersOrNull[] = {
    {"improve_pct", &V::improve_pct},
    {"best_before_us", &V::best_before_us},
    {"best_after_us", &V::best_after_us},
};

} // namespace

Result<LadderVerdict> LadderVerdict::from_json(const json::Value &row) {
  FieldReader r("a ladder row", "otm-ladder");
  if (!r.members(row)) return r.error();
  LadderVerdict v;
  // Absent reads as the default; present, it must have the field's type.
  if (const auto *s = row.find("selection")) r.string("selection", *s, v.selection);
  for (const auto &[key, field] : kStringsOrNull)
    if (const auto *x = row.find(key)) r.string_or_null(key, *x, v.*field);
  for (const auto &[key, field] : kNumbersOrNull)
    if (const auto *x = row.find(key)) r.number_or_null(key, *x, v.*field);
  if (r.failed()) return r.error();
  return v;
}

Result<LadderVerdict> LadderVerdict::of(const VersionRow &row) { return from_json(row.later); }

void LadderVerdict::write_into(json::Value &row) const {
  row.set("selection", selection);
  row.set("reason", reason);
  row.set("improve_pct", improve_pct);
  row.set("best_before_us", best_before_us);
  row.set("best_before_version", best_before_version);
  row.set("best_after_us", best_after_us);
}

std::vector<LadderVerdict> read_ladder_verdicts(const std::vector<json::Value> &rows, std::string_view source) {
  return read_rows(rows, source, &LadderVerdict::from_json);
}

} // namespace otm::workspace
