// What every step of otm-partition builds segments with: the Builder
// (common fields, discriminators, ids and episode keys, the per-version
// limit), the rows by version, where a gain is measured from, and a memo of
// per-text derivations. Internal to lib/stages/partition.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "partition/id_allocation.hpp"
#include "partition/partition.hpp"
#include "record/id_format.hpp"
#include "text/utf8.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/segment.hpp"
#include "workspace/version_row.hpp"
#include "json/value.hpp"

namespace otm::partition {

// A null stays null; anything else is copied.
json::Value or_null(const json::Value &v);

// What a step says it changed: its step record's description, else its
// commit subject.
inline std::string change_of(const workspace::VersionRow &row) {
  std::string change = row.action_description.value_or("");
  return text::strip(change).empty() ? row.subject : change;
}

// The ladder's verdict on a row of work/ladder.jsonl (what its `later`
// kept); a field of another type is thrown.
inline workspace::LadderVerdict verdict_of(const workspace::VersionRow &row) {
  return workspace::LadderVerdict::of(row).value();
}

class Builder {
public:
  Builder(const Inputs &in, Result &r)
      : in_(in), r_(r), alloc_(in.known, in.meta.source_repo), slug_(in.meta.operator_slug),
        family_(in.meta.workload_family) {
    r_.other_sources = in.coverage.other_sources(in.meta.source_repo);
    r_.comparable = r_.other_sources.empty();
    r_.seeds = alloc_.seeds();
  }

  workspace::Segment common(const workspace::VersionRow &row) const {
    workspace::Segment s;
    s.version = row.version;
    s.n = row.n;
    if (row.has_commit) { // a row without a commit has none of its fields (null here)
      s.sha = row.sha;
      s.parent = row.parent;
      s.date = row.date;
    }
    s.dsl = row.dsl.empty() ? "any" : row.dsl;
    s.operator_slug = slug_;
    s.workload_family = family_;
    s.vendor = in_.meta.vendor;
    s.arch = in_.meta.arch;
    s.product = in_.meta.product;
    s.source_repo = in_.meta.source_repo;
    s.comparable = r_.comparable;
    s.ncu_dirs = row.ncu_usable_dirs;
    s.report_dirs = row.report_dirs;
    return s;
  }

  // The discriminator of a segment of `record_type` and `technique`; once
  // the caller has filled the rest, `finish` adds id and episode key.
  int allocate(const workspace::Segment &seg, const std::string &record_type, const std::string &technique) {
    record::IdParts p = parts(seg, record_type, technique, 0);
    std::string id = record::make_id(p);
    return alloc_.allocate(id.substr(0, id.rfind('-')), p.marker, seg.version);
  }

  void finish(workspace::Segment &seg) {
    if (++per_version_[seg.version] > in_.max_segments_per_version) {
      ++r_.over_limit[seg.version];
      return;
    }
    auto p = parts(seg, seg.record_type, seg.technique, static_cast<int>(seg.disc));
    seg.id = record::make_id(p);
    seg.episode_key = record::make_episode_key(seg.arch, seg.dsl, slug_, seg.technique);
    r_.segments.push_back(seg.to_json());
  }

  void flag(const std::string &reason, const std::string &text) {
    if (reason != "ok") r_.flagged.push_back({reason, std::string(text::prefix_code_points(text, 110))});
  }

private:
  record::IdParts parts(const workspace::Segment &seg, const std::string &record_type, const std::string &technique,
                        int disc) const {
    return record::IdParts{seg.vendor, seg.product.empty() ? "any" : seg.product, seg.dsl, slug_, family_, record_type,
                           technique,  record::marker_for(record_type),           disc};
  }

  const Inputs &in_;
  Result &r_;

public:
  IdAllocator alloc_;
  std::map<std::string, std::size_t> per_version_;

private:
  std::string slug_, family_;
};

// The first row of each version, found without a search of every row per
// segment (that search was a fifth of the stage at 3,000 versions).
class RowsByVersion {
public:
  explicit RowsByVersion(const std::vector<workspace::VersionRow> &rows) {
    for (const auto &row : rows) first_.try_emplace(row.version, &row);
  }
  const workspace::VersionRow *find(const std::string &version) const {
    auto it = first_.find(version);
    return it == first_.end() ? nullptr : it->second;
  }

private:
  std::unordered_map<std::string_view, const workspace::VersionRow *> first_;
};

// Pure derivations of a text (its technique slug, its fact pre-check),
// computed once per distinct input: a trace repeats its pitfalls and
// dead-end items version after version, and each costs a dozen regexes.
class TextMemo {
public:
  template <typename F> const std::string &get(const std::string &key, F compute) {
    auto it = memo_.find(key);
    if (it == memo_.end()) it = memo_.emplace(key, compute()).first;
    return it->second;
  }

private:
  std::unordered_map<std::string, std::string> memo_;
};

// The version a row's gain is measured against (the ladder's
// best_before_version) and its commit: a strategy's diff starts there.
json::Value measured_against(const workspace::VersionRow &row, const RowsByVersion &rows);

} // namespace otm::partition
