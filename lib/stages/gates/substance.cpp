// otm-gate-substance (issue 10): no change, no strategy. A strategy record's
// snippet must hold at least one changed line ('-' or '+') that runs, as the
// shared lexer (code/source_lexer.hpp) classifies it: not a comment, a
// docstring, a blank line or a version stamp. A strategy whose quoted change
// is comment-only, or that quotes no change at all, credits its gain to
// nothing that runs. Mechanical: it does not judge whether the quoted change
// is the one that bought the gain.
#include "gates/gates.hpp"

#include "code/source_lexer.hpp"
#include "text/utf8.hpp"

namespace otm::gates {

namespace {

// The language of the packet's code file (its diff header's path), Python
// when there is no packet or no header.
std::string file_header_of(const Context &ctx, const json::Value &record) {
  auto lookup = find_packet(ctx, record);
  if (!lookup.packet) return "";
  const auto &code = lookup.packet->code_text;
  if (!code.starts_with("diff --git ")) return "";
  return code.substr(0, code.find('\n') + 1);
}

} // namespace

GateResult gate_substance(const Context &ctx) {
  GateResult out;
  std::size_t checked = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty() || r.record.string_or("type") != "strategy") continue;
    ++checked;
    const auto *snippet = r.record.get("payload").get("implementation").get("snippet").as_string();
    if (!snippet || text::strip(*snippet).empty()) {
      out.findings.push_back(finding(Gate::Substance, r,
                                     "payload.implementation.snippet: a strategy quotes no code change (no change, "
                                     "no strategy)"));
      continue;
    }
    // A snippet is a hunk body (or several hunks with their headers): read
    // it as a diff of the packet's file.
    std::string diff = file_header_of(ctx, r.record);
    if (!snippet->starts_with("@@")) diff += "@@ -1 +1 @@\n";
    diff += *snippet;
    auto counts = code::count_changes(code::lex_diff(diff));
    if (!counts.changes_code())
      out.findings.push_back(finding(
          Gate::Substance, r,
          "payload.implementation.snippet: no changed line of the snippet runs (" + std::to_string(counts.comment) +
              " comment or docstring, " + std::to_string(counts.version_stamp) + " version-stamp, " +
              std::to_string(counts.blank) + " blank): the gain is credited to no code change"));
  }
  out.note = std::to_string(checked) + " strategy record(s) checked";
  return out;
}

} // namespace otm::gates
