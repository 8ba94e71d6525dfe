// What otm-explain answers about one record: where each number, each
// snippet line and the provenance come from in the trace, how derived
// values were derived, and what could not be explained (named, so a record
// that cannot be re-derived from its trace stands out).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace otm::explain {

// One place in the trace a value is read from.
struct Source {
  std::string kind;    // step-record, commit, capture-report, definition, workload, workload-axes, setting, ladder,
                       // code, geomean-change, arithmetic (otm's on step records' figures), otm
  std::string file;    // trace-relative file ("memory/v5.json", "profiles/v5_ncu/REPORT.md"); "git" for commit fields
  std::string locator; // JSON path, "line N", "commit <sha> subject", ...
  std::string text;    // the raw text there (what the number was found in)
};

struct NumberOrigin {
  std::string field;       // record path, "worth.gain.pct"
  std::string number;      // as written in the record
  std::string packet_path; // the packet field it was taken from ("" when none)
  std::optional<Source> source;
  std::string quote;      // the trace text around the number at the source
  std::string derivation; // how a derived value follows (gains, counts); "" when quoted
  std::string problem;    // why it is unexplained; "" when explained
  bool explained() const { return problem.empty(); }
};

struct CodeLine {
  std::string field;                             // "payload.implementation.snippet"
  std::size_t line = 0;                          // 1-based line of the snippet
  std::string text;                              // the snippet line
  std::optional<std::size_t> hunk;               // 0-based hunk of the diff (diffs only)
  std::string hunk_header;                       // "@@ -12,7 +12,9 @@"
  char role = ' ';                               // '+', '-', ' ' (diff) or 'k' (a whole kernel file)
  std::string old_commit, new_commit;            // the commit pair (old empty for a kernel file)
  std::string file;                              // the file in the trace
  std::optional<std::size_t> old_line, new_line; // line numbers in that file at each commit
  std::string problem;                           // "" when the line was found and verified
  bool explained() const { return problem.empty(); }
};

struct Provenance {
  std::string label, version, commit, subject, date, verdict;
  bool resolves = false;   // the commit is an object of the trace
  bool in_history = false; // ...and reachable from HEAD as a commit of `version`
  std::string trace_label; // the trace's own label
};

struct LadderDecision {
  std::string version, selection, reason;
  std::string text; // the decision in words: floor before, improvement, the threshold that decided it
};

struct Explanation {
  std::string record_file; // as given, or "<stdin>:N"
  std::string id, type;
  std::string segment; // the segment it was matched to ("" when none)
  Provenance provenance;
  std::optional<LadderDecision> ladder;
  std::string diff_range; // "v3 (d5cc276c27ec) .. v5 (00df8fe34e10)" when the record carries code
  std::vector<NumberOrigin> numbers;
  std::vector<CodeLine> code_lines;
  std::vector<std::string> notes;       // said, not a failure (hardware fallback, packet on disk)
  std::vector<std::string> unexplained; // each a sentence naming the field
  bool complete() const { return unexplained.empty(); }
};

} // namespace otm::explain
