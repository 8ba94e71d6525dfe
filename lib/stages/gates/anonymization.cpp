// gates.md §2.3 with otm's fixes: the private denylist is enforced here too,
// and trace-derived records (those citing a commit) are also held to the
// strict shapes (version ids, 8-hex workload hashes) in their prose.
#include "gates/gates.hpp"

#include "gates/record_text.hpp"
#include "record/leak_shapes.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::gates {

namespace {

// Comment text of code strings, line by line (gates.md §2.3).
void add_comments(const std::string &code, std::string &out) {
  std::size_t pos = 0;
  while (pos <= code.size()) {
    auto nl = code.find('\n', pos);
    std::string_view line(code.data() + pos, (nl == std::string::npos ? code.size() : nl) - pos);
    auto t = text::strip(line);
    if (t.rfind("#", 0) == 0 || t.rfind("//", 0) == 0 || t.rfind("*", 0) == 0 || t.rfind("/*", 0) == 0) {
      out.append(t);
      out += '\n';
    } else if (auto hash = line.find('#'); hash != std::string_view::npos) {
      out.append(line.substr(hash + 1));
      out += '\n';
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
}

} // namespace

bool is_trace_derived(const json::Value &record) {
  return record.get("evidence").get("raw").get("git_commit").truthy();
}

std::unique_ptr<RecordPass> anonymization_pass(const Context &ctx) {
  auto total = std::make_shared<std::size_t>(0);
  auto body = [&ctx, total](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    std::string prose, comments;
    auto collect = [&](const std::string &s, bool in_code) {
      if (in_code) {
        add_comments(s, comments);
      } else {
        prose += s;
        prose += '\n';
      }
    };
    walk_strings(r.record.get("payload"), false, collect);
    walk_strings(r.record.get("retrieval"), false, collect);
    walk_strings(r.record.get("evidence").get("summary"), false, collect);
    walk_strings(r.record.get("worth").get("gain"), false, collect);
    auto leaks = record::find_leaks(prose, is_trace_derived(r.record), ctx.denylist.get());
    for (auto &l : record::find_leaks(comments, false, ctx.denylist.get())) leaks.push_back(std::move(l));
    for (const auto &l : leaks)
      out.findings.push_back(
          finding(Gate::Anonymization, r, "dangling " + l.label + " in an agent-facing layer", l.token));
    *total += leaks.size();
  };
  return make_pass(body, [&ctx, total](GateResult &out) {
    out.note = std::to_string(*total) + " leak(s)" + (ctx.denylist ? "; private denylist applied" : "; no denylist");
  });
}

GateResult gate_anonymization(const Context &ctx) { return over_records(anonymization_pass(ctx), ctx); }

} // namespace otm::gates
