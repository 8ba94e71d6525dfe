// otm-validate's report formats: text (the reference's layout), jsonl (one
// finding per line), SARIF 2.1.0 (code-review tools) and JUnit XML (CI: one
// test case per gate).
#pragma once

#include <string>
#include <vector>

#include "gates/finding.hpp"
#include "gates/gates.hpp"

namespace otm::gates {

struct GateRun {
  const GateInfo *gate;
  GateResult result;
};

struct ValidationReport {
  std::string store;
  std::size_t records = 0, packets = 0;
  std::vector<GateRun> runs; // in all_gates() order; skipped store gates absent
  bool store_gates_skipped = false;
  bool trace_gates_skipped = false; // --store-gates
  std::size_t failed_groups() const;
  bool passed() const { return failed_groups() == 0; }
};

// The text report's verdict for a store without records when that is allowed
// (otm-validate --allow-empty); report/gate_report.cpp reads it back.
inline constexpr const char *kNothingToValidate = "NOTHING TO VALIDATE";

std::string format_text(const ValidationReport &r, bool verbose);
std::string format_jsonl(const ValidationReport &r);
std::string format_sarif(const ValidationReport &r, const std::string &tool_version);
std::string format_junit(const ValidationReport &r);

} // namespace otm::gates
