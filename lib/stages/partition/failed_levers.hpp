// Steps 2 and 3 of otm-partition, and issue 25's merge: the run's accounts
// of failed levers (dead-end items, prose dead-ends, curated pitfalls of
// versions that gave no dead end), merged into one anti-strategy segment per
// failed lever (levers::failed_lever_key), with every occurrence and the
// milestones that kept the same settings. Internal to lib/stages/partition.
#pragma once

#include <vector>

#include "partition/partition.hpp"
#include "partition/segment_builder.hpp"
#include "json/value.hpp"

namespace otm::partition {

// Appends the anti-strategy segments to `b`'s result; `rows` are in.rows
// typed, `ms` the run's milestones.
void failed_lever_segments(Builder &b, const Inputs &in, const std::vector<workspace::VersionRow> &rows,
                           const std::vector<Milestone> &ms, const RowsByVersion &by_version, Result &r);

} // namespace otm::partition
