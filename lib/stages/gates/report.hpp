// otm-validate's report formats: text (the reference's layout), jsonl (one
// finding per line), SARIF 2.1.0 (code-review tools) and JUnit XML (CI: one
// test case per gate).
#pragma once

#include <optional>
#include <string>
#include <string_view>
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

// The verdict of a validation, as a value. Its text (the last line of the
// text report, the head of otm-validate's summary) is written by
// verdict_text and read back from a saved report by read_verdict, both here,
// so no other code matches the words.
enum class Verdict {
  Pass,              // ALL GATES PASS
  Fail,              // GATES FAILED (<k> groups)
  NothingToValidate, // NOTHING TO VALIDATE: no records, allowed (--allow-empty)
};
Verdict verdict_of(const ValidationReport &r);
// The words that open the verdict line: "ALL GATES PASS", "GATES FAILED",
// "NOTHING TO VALIDATE".
std::string verdict_text(Verdict v);
// The verdict a line of a saved text report states, if it is the verdict line.
std::optional<Verdict> read_verdict(std::string_view line);

std::string format_text(const ValidationReport &r, bool verbose);
std::string format_jsonl(const ValidationReport &r);
std::string format_sarif(const ValidationReport &r, const std::string &tool_version);
std::string format_junit(const ValidationReport &r);

} // namespace otm::gates
