#include "partition/segment_builder.hpp"

#include "text/regex.hpp"

namespace otm::partition {

json::Value or_null(const json::Value &v) { return v.is_null() ? json::Value() : v; }

// The version a milestone's gain is measured against (the ladder's
// best_before_version) and its commit: a strategy's diff starts there.
json::Value measured_against(const workspace::VersionRow &row, const RowsByVersion &rows) {
  const auto version = verdict_of(row).best_before_version;
  if (!version) return {};
  const workspace::VersionRow *before = rows.find(*version);
  if (!before) return {};
  json::Value on = json::Value::object();
  on.set("version", *version);
  on.set("sha", before->has_commit ? json::Value(before->sha) : json::Value());
  return on;
}

} // namespace otm::partition
