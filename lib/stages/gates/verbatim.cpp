// gates.md §3.4, strengthened: every non-blank line of implementation.snippet,
// implementation.dispatch_snippet and attempted_code must be a whole line of
// the packet's code (whitespace runs collapsed; a diff line also matches
// without its +/-/space marker). Lines are compared whole, so text can no
// longer match across line breaks or inside a longer line, and short lines
// are checked too.
#include "gates/gates.hpp"

#include <set>

#include "gates/record_text.hpp"
#include "text/lines.hpp"
#include "text/utf8.hpp"

namespace otm::gates {

namespace {

std::string norm(std::string_view s) { return collapse_whitespace(s); }

bool is_marker(char c) { return c == '+' || c == '-' || c == ' '; }

std::set<std::string> code_lines(const std::string &code) {
  std::set<std::string> out;
  for (auto line : text::split_lines(code)) {
    auto n = norm(line);
    if (!n.empty()) out.insert(n);
    if (!line.empty() && is_marker(line[0])) {
      auto bare = norm(line.substr(1));
      if (!bare.empty()) out.insert(bare);
    }
  }
  return out;
}

} // namespace

GateResult gate_verbatim(const Context &ctx) {
  if (!ctx.workspace)
    return cannot_run(Gate::Verbatim,
                      "no workspace given (--workspace / RTM_WORKSPACE): no packet code to compare with");
  GateResult out;
  std::size_t checked = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    auto quotes = quoted_code(r.record);
    if (quotes.empty()) continue;
    auto lookup = find_packet(ctx, r.record);
    if (!lookup.packet) {
      out.findings.push_back(finding(Gate::Verbatim, r,
                                     lookup.ambiguous
                                         ? "quotes code but several packets match its version: cannot check it"
                                         : "quotes code but has no packet to check it against"));
      continue;
    }
    ++checked;
    auto haystack = code_lines(lookup.packet->code_text);
    if (haystack.empty()) {
      out.findings.push_back(finding(Gate::Verbatim, r, "quotes code but the packet carries none"));
      continue;
    }
    for (const auto &[field, quote] : quotes) {
      std::size_t missing = 0;
      std::string first;
      for (auto line : text::split_lines(quote)) {
        auto n = norm(line);
        if (n.empty()) continue;
        bool found = haystack.count(n) || (is_marker(line[0]) && haystack.count(norm(line.substr(1))));
        if (!found && missing++ == 0) first = std::string(text::prefix_code_points(n, 90));
      }
      if (missing)
        out.findings.push_back(
            finding(Gate::Verbatim, r,
                    field + ": " + std::to_string(missing) + " line(s) are not lines of the packet's code", first));
    }
  }
  out.note = std::to_string(checked) + " record(s) with quoted code checked";
  return out;
}

} // namespace otm::gates
