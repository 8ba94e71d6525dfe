// otm-validate's saved text report (what Makefile.pipeline keeps in
// work/validate.txt), read back: the one reader, for the staging README and
// the archive table.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gates/report.hpp"

namespace otm::report {

struct GateReport {
  std::vector<std::string> lines;        // the "== ..." headers and one "  <gate> PASS|FAIL|SKIP ..." line per gate
  std::optional<gates::Verdict> verdict; // what its verdict line says (gates::read_verdict); none when missing
  std::string verdict_line;              // that line as written, empty when missing
  std::size_t failed = 0;                // gate lines that say FAIL
  bool passed() const { return verdict == gates::Verdict::Pass; }
};

GateReport read_gate_report(const std::string &text);

} // namespace otm::report
