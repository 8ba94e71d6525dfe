#include "report/quality_section.hpp"

#include <sstream>

#include "report/added_cause.hpp"
#include "text/pyformat.hpp"

namespace otm::report {

namespace {

// A markdown table cell: no '|' or line break of the text ends it.
std::string cell(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out.empty() ? "-" : out;
}

std::string id_tail(const std::string &id) {
  auto dot = id.rfind('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

std::string signal_cell(const Signal &s) {
  switch (s.state) {
  case SignalState::Warn: return "**warn**: " + cell(s.fact);
  case SignalState::Ok: return cell(s.fact);
  case SignalState::NotRead: return s.fact == "-" || s.fact.empty() ? "-" : "(" + cell(s.fact) + ")";
  }
  return "-";
}

} // namespace

std::string quality_section(const QualityReport &q, const QualityRules &rules) {
  std::ostringstream os;
  os << "## Quality signals\n\n";
  if (q.records.empty()) {
    os << "No readable record is staged: no signals.\n\n";
    return os.str();
  }
  std::size_t warned = 0;
  for (const auto &r : q.records) warned += r.warnings() ? 1 : 0;
  os << "Which records to read first: facts read from each staged record and its packet, the records with the most "
        "warnings first. They decide nothing (the gates above decide what is staged) and a warned record may well "
        "be right; they say where a reviewer's time goes first (docs/record-quality.md). "
     << warned << " of " << q.records.size() << " record(s) have a warning.";
  if (q.without_packet)
    os << " No packet was found for " << q.without_packet
       << " record(s) (give the workspace that built them): their code signals are not read.";
  os << "\n\n| # | id tail | type | version | warnings |";
  for (const auto &n : kSignalNames) os << " " << n << " |";
  os << "\n|---|---|---|---|---|";
  for (std::size_t i = 0; i < kSignalNames.size(); ++i) os << "---|";
  os << "\n";
  for (std::size_t i = 0; i < q.records.size(); ++i) {
    const auto &r = q.records[i];
    os << "| " << i + 1 << " | " << cell(id_tail(r.id.empty() ? r.file : r.id)) << " | " << cell(r.type) << " | "
       << cell(r.version) << " | " << r.warnings() << " |";
    for (const auto &s : r.signals) os << " " << signal_cell(s) << " |";
    os << "\n";
  }
  if (warned) {
    os << "\nWhy, for each warning:\n\n";
    for (const auto &r : q.records) {
      if (!r.warnings()) continue;
      os << "* `" << id_tail(r.id.empty() ? r.file : r.id) << "`:";
      for (const auto &s : r.signals)
        if (s.state == SignalState::Warn)
          os << " **" << s.name << "**: " << cell(s.reason) << (s.reason.ends_with(".") ? "" : ".");
      os << "\n";
    }
  }
  const auto min = std::to_string(rules.boilerplate.template_min_steps);
  os << "\nLegend (a cell in parentheses or `-`: the signal does not apply to the record's type, or what it reads is "
        "missing):\n\n"
        "| signal | reads | warns when |\n|---|---|---|\n"
        "| claim in code | the levers the change text (an anti-strategy: the attempt) names before its cause, those "
        "with code forms for the DSL (`levers` in the configuration), and the packet diff's changed lines that run | "
        "a claimed lever's code is in no running change (an anti-strategy: none of the attempt's levers is) |\n"
        "| snippet runs | the snippet's changed lines in the packet's diff, judged against the kernel after the "
        "change (comments, docstrings, blank lines, stamps, assignments nothing reads, functions nothing calls run "
        "for nothing) | fewer than half of them run, or it quotes no running code of a claimed lever |\n"
        "| span | a strategy packet's `span`: the earlier kept steps its diff from the best-so-far also holds, whether "
        "the step's own change runs, and the step's own diff | the diff holds earlier kept steps, or the step's own "
        "change runs nothing |\n"
        "| boilerplate | the mechanism against the run's expected impact (how many steps state it) and the other "
        "staged records of its trace and type (the drafter's `boilerplate` rules) | it is the expected impact of "
     << min << " or more steps, or more of those records carry it than a share of "
     << text::fixed(rules.boilerplate.max_mechanism_share, 2)
     << " of them (at least one) allows |\n"
        "| duplicate | the other staged records of the same trace and type | one has the same mechanism (strategy) "
        "or lesson (anti-strategy) |\n"
        "| adds a cause | the mechanism's words beyond the words of what was done (the change's claim, the attempt) "
        "| fewer than "
     << kMinNewWords << " new words, and not even one with a causal connective |\n\n";
  return os.str();
}

} // namespace otm::report
