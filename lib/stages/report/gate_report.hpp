// otm-validate's saved text report (what Makefile.pipeline keeps in
// work/validate.txt), read back: the one reader, for the staging README and
// the archive table.
#pragma once

#include <string>
#include <vector>

namespace otm::report {

struct GateReport {
  std::vector<std::string> lines; // the "== ..." headers and one "  <gate> PASS|FAIL|SKIP ..." line per gate
  std::string verdict;            // the "ALL GATES PASS ...", "GATES FAILED ..." or "NOTHING TO VALIDATE ..."
                                  // line (gates/report.hpp), empty when missing
  std::size_t failed = 0;         // gate lines that say FAIL
  bool passed() const { return verdict.starts_with("ALL GATES PASS"); }
};

GateReport read_gate_report(const std::string &text);

} // namespace otm::report
