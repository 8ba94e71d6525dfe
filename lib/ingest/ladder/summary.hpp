// The human-readable ladder summary otm-ladder prints on stderr: milestones
// with their improvement, dead-ends, and rejections grouped by reason.
#pragma once

#include <string>
#include <vector>

#include "ladder/ladder.hpp"
#include "json/value.hpp"

namespace otm::ladder {

std::string summary_text(const std::vector<json::Value> &rows, const Result &r);

} // namespace otm::ladder
