#include "report/gate_report.hpp"

#include <sstream>

#include "text/regex.hpp"

namespace otm::report {

GateReport read_gate_report(const std::string &text) {
  // "== store gates" / "== trace gates" headers, one "  <gate> <status>
  // <note>" line per gate, findings indented deeper, a final verdict line.
  static const text::Regex gate_line(R"(^(?:==|  [a-z][a-z-]* +(?:PASS|FAIL|SKIP)))");
  static const text::Regex failed_line(R"(^  [a-z][a-z-]* +FAIL)");
  GateReport rep;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (auto verdict = gates::read_verdict(line)) {
      rep.verdict = verdict;
      rep.verdict_line = line;
    }
    if (gate_line.contains(line)) rep.lines.push_back(line);
    if (failed_line.contains(line)) ++rep.failed;
  }
  return rep;
}

} // namespace otm::report
