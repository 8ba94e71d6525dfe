// The reviewer's summary of a staging store, <staging>/README.md (spec
// scoring.md §4, with its weaknesses fixed): counts by type and tier, the
// records table, the gate status as actually recorded, the quality signals
// (which records to read first, report/quality_report.hpp), the
// distiller's refusals, and what is not in the live store. Deterministic: the same
// inputs give the same bytes (a generation time only when asked for).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "report/record_signals.hpp"

namespace otm::report {

struct ReadmeInputs {
  std::filesystem::path staging_root;
  std::optional<std::filesystem::path> workspace_root; // for work/meta.json etc.
  std::optional<std::filesystem::path> gate_report;    // saved otm-validate console output
  std::optional<std::string> generated_at;             // printed only when given
  // What the quality signals read (the lever vocabulary, ...); the packets
  // they read are the workspace's.
  QualityRules quality = QualityRules::defaults();
};

struct Readme {
  std::string text;
  std::vector<std::string> warnings; // unreadable files, for stderr
};

// Throws a NegativeVerdict Error when there are neither staged records nor work files.
Readme make_readme(const ReadmeInputs &in);

} // namespace otm::report
