// The staging README's "Quality signals" section (issue 25): one table row
// per staged record, most-warned first, each signal's short fact; then the
// reason for every warning, and a legend of what each signal reads and when
// it warns. Markdown; deterministic.
#pragma once

#include <string>

#include "report/quality_report.hpp"

namespace otm::report {

std::string quality_section(const QualityReport &report, const QualityRules &rules);

} // namespace otm::report
