// otm-gate-substance (issues 10 and 25): no change, no strategy. A strategy
// record's snippet must hold at least one changed line ('-' or '+') that
// runs: as the shared lexer (code/source_lexer.hpp) classifies it, not a
// comment, a docstring, a blank line or a version stamp; and, when its packet
// carries the kernel after the change, not an assignment of a name no live
// line reads nor a line of a new function nothing calls
// (code/inert_changes.hpp, judged on the packet's whole diff, whose lines the
// snippet quotes). A strategy whose quoted change runs for nothing credits
// its gain to nothing. Mechanical: it does not judge whether the quoted
// change is the one that bought the gain.
#include "gates/gates.hpp"

#include <set>

#include "code/inert_changes.hpp"
#include "code/source_lexer.hpp"
#include "store/record_view.hpp"
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

// When the packet carries the kernel after the change: the reason no
// changed code line of the snippet runs (the names they assign that nothing
// reads, the new functions nothing calls), judged on the packet's whole
// diff; nullopt when one runs or the packet cannot tell.
std::optional<std::string> inert_snippet(const Context &ctx, const json::Value &record,
                                         const std::vector<code::DiffLine> &snippet) {
  auto lookup = find_packet(ctx, record);
  if (!lookup.packet || lookup.packet->code_after.empty() || !code::is_unified_diff(lookup.packet->code_text))
    return std::nullopt;
  auto whole = code::lex_diff(lookup.packet->code_text);
  auto inert = code::inert_changes(whole, std::string_view(lookup.packet->code_after));
  std::set<std::string_view> running;
  std::set<std::string> owners;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    if (whole[i].role != code::DiffLine::Role::Added && whole[i].role != code::DiffLine::Role::Removed) continue;
    if (inert.runs(i)) running.insert(whole[i].text);
  }
  for (std::size_t i = 0; i < snippet.size(); ++i) {
    const auto &l = snippet[i];
    if (l.role != code::DiffLine::Role::Added && l.role != code::DiffLine::Role::Removed) continue;
    if (l.kind != code::LineKind::Code) continue;
    if (running.count(l.text)) return std::nullopt;
  }
  std::set<std::string_view> quoted;
  for (const auto &l : snippet) quoted.insert(l.text);
  std::set<std::string> hinted, untaken;
  for (std::size_t i = 0; i < whole.size(); ++i)
    if (!inert.owner[i].empty() && quoted.count(whole[i].text))
      (inert.lines[i] == code::InertCode::Why::RestatedHint    ? hinted
       : inert.lines[i] == code::InertCode::Why::UntakenBranch ? untaken
                                                               : owners)
          .insert(inert.owner[i]);
  auto listed = [](const std::set<std::string> &names) {
    std::string out;
    for (const auto &o : names) out += (out.empty() ? "`" : ", `") + o + "`";
    return out;
  };
  std::string why;
  if (!owners.empty())
    why = "its code lines only assign or define " + listed(owners) + ", which nothing in the kernel reads or calls";
  if (!hinted.empty())
    why += (why.empty() ? "its code lines only hint " : "; the rest hint ") + listed(hinted) + " with " +
           std::string(code::kRestatedHintReason);
  if (!untaken.empty())
    why += (why.empty() ? "its code lines sit under " : "; the rest sit under ") + listed(untaken) +
           ", which no compilation takes";
  return why.empty() ? std::string("its code lines change nothing the kernel runs") : why;
}

} // namespace

GateResult gate_substance(const Context &ctx) {
  GateResult out;
  std::size_t checked = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty() || store::RecordView::shown(r.record).type != "strategy") continue;
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
    auto lexed = code::lex_diff(diff);
    auto counts = code::count_changes(lexed);
    if (!counts.changes_code()) {
      out.findings.push_back(finding(
          Gate::Substance, r,
          "payload.implementation.snippet: no changed line of the snippet runs (" + std::to_string(counts.comment) +
              " comment or docstring, " + std::to_string(counts.version_stamp) + " version-stamp, " +
              std::to_string(counts.blank) + " blank): the gain is credited to no code change"));
      continue;
    }
    if (auto inert = inert_snippet(ctx, r.record, lexed))
      out.findings.push_back(finding(Gate::Substance, r,
                                     "payload.implementation.snippet: no changed line of the snippet runs: " + *inert +
                                         ": the gain is credited to code that does nothing"));
  }
  out.note = std::to_string(checked) + " strategy record(s) checked";
  return out;
}

} // namespace otm::gates
