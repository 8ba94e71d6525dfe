// The distiller's names for a diff read for what it changes. The reading
// itself is diff/diff_reading.hpp, a layer down, so the quality report
// (a stage) reads a packet's diff exactly as the drafter does.
#pragma once

#include "diff/diff_reading.hpp"

namespace otm::distill {

using diff::ChangedLine;
using diff::ChangeName;
using diff::changes_name;
using diff::DiffReading;
using diff::holds_name;
using diff::HunkReading;
using diff::is_code_name;
using diff::named_in;
using diff::names_of;
using diff::read_diff;

} // namespace otm::distill
