#include "explain/render.hpp"

#include "text/utf8.hpp"

namespace otm::explain {

namespace {

std::string short_sha(const std::string &sha) { return sha.substr(0, 12); }

std::string position(const CodeLine &l) {
  if (!l.explained()) return l.problem;
  std::string s;
  if (l.hunk) s = "hunk " + std::to_string(*l.hunk + 1) + " " + l.hunk_header + ", ";
  auto at = [&](std::optional<std::size_t> n, const std::string &commit) {
    return l.file + " line " + std::to_string(*n) + " at " + (commit.empty() ? "the working tree" : short_sha(commit));
  };
  if (l.role == '@') return s + "the hunk's header";
  if (l.role == '+') return s + "added: " + at(l.new_line, l.new_commit);
  if (l.role == '-') return s + "removed: " + at(l.old_line, l.old_commit);
  if (l.role == ' ')
    return s + "context: " + at(l.old_line, l.old_commit) + " = line " + std::to_string(*l.new_line) + " at " +
           short_sha(l.new_commit);
  return at(l.new_line, l.new_commit);
}

// A code line as shown: at most 72 code points.
std::string clip(const std::string &line) {
  auto head = text::prefix_code_points(line, 72);
  return std::string(head) + (head.size() < line.size() ? "..." : "");
}

json::Value opt(const std::optional<std::size_t> &n) {
  return n ? json::Value(static_cast<std::int64_t>(*n)) : json::Value();
}
json::Value or_null(const std::string &s) { return s.empty() ? json::Value() : json::Value(s); }

} // namespace

std::string to_text(const Explanation &e) {
  std::string s = "record " + e.id + " (" + e.type + ")" + (e.record_file.empty() ? "" : " - " + e.record_file) + "\n";
  const auto &p = e.provenance;
  s += "  provenance: trace " + p.label + ", " + p.version + ", commit " + short_sha(p.commit);
  if (!p.subject.empty()) s += " \"" + p.subject + "\" " + p.date;
  if (!p.verdict.empty()) s += ", " + p.verdict;
  s += p.resolves ? (p.in_history ? "; resolves in the trace\n" : "; resolves, but not as a commit of its version\n")
                  : "; does NOT resolve in the trace\n";
  if (e.ladder) s += "  ladder: " + e.ladder->text + "\n";
  s += "  segment: " + (e.segment.empty() ? std::string("none") : e.segment + " (rebuilt from the trace)") + "\n";
  for (const auto &n : e.notes) s += "  note: " + n + "\n";
  s += "  numbers (" + std::to_string(e.numbers.size()) + "):\n";
  for (const auto &n : e.numbers) {
    s += "    " + n.field + ": " + n.number;
    if (!n.explained()) {
      s += "  UNEXPLAINED: " + n.problem + "\n";
      continue;
    }
    s += "  <- " + n.source->file + (n.source->file.empty() ? "" : " ") + n.source->locator;
    if (!n.packet_path.empty()) s += " (packet " + n.packet_path + ")";
    s += "\n";
    if (!n.quote.empty()) s += "        \"" + n.quote + "\"\n";
    if (!n.derivation.empty()) s += "        derived: " + n.derivation + "\n";
  }
  if (!e.code_lines.empty()) {
    s += "  code (" + std::to_string(e.code_lines.size()) + " lines, " + e.diff_range + "):\n";
    for (const auto &l : e.code_lines)
      s += "    " + l.field + ":" + std::to_string(l.line) + "  " + (l.explained() ? "" : "UNEXPLAINED: ") +
           position(l) + "\n        " + clip(l.text) + "\n";
  }
  if (e.unexplained.empty()) {
    s += "  unexplained: nothing\n";
  } else {
    s += "  unexplained (" + std::to_string(e.unexplained.size()) + "):\n";
    for (const auto &u : e.unexplained) s += "    - " + u + "\n";
  }
  return s;
}

json::Value to_json(const Explanation &e) {
  json::Value o = json::Value::object();
  o.set("id", e.id);
  o.set("type", e.type);
  o.set("file", or_null(e.record_file));
  const auto &p = e.provenance;
  json::Value prov = json::Value::object();
  prov.set("source_repo", p.label);
  prov.set("trace_label", p.trace_label);
  prov.set("version", p.version);
  prov.set("git_commit", p.commit);
  prov.set("subject", or_null(p.subject));
  prov.set("date", or_null(p.date));
  prov.set("verdict", or_null(p.verdict));
  prov.set("resolves", p.resolves);
  prov.set("commit_of_version", p.in_history);
  o.set("provenance", prov);
  if (e.ladder) {
    json::Value l = json::Value::object();
    l.set("version", e.ladder->version);
    l.set("selection", e.ladder->selection);
    l.set("reason", or_null(e.ladder->reason));
    l.set("decision", e.ladder->text);
    o.set("ladder", l);
  } else {
    o.set("ladder", json::Value());
  }
  o.set("segment", or_null(e.segment));
  json::Value numbers = json::Value::array();
  for (const auto &n : e.numbers) {
    json::Value j = json::Value::object();
    j.set("field", n.field);
    j.set("number", n.number);
    j.set("explained", n.explained());
    j.set("packet_path", or_null(n.packet_path));
    if (n.source) {
      json::Value src = json::Value::object();
      src.set("kind", n.source->kind);
      src.set("file", or_null(n.source->file));
      src.set("locator", n.source->locator);
      j.set("source", src);
    } else {
      j.set("source", json::Value());
    }
    j.set("quote", or_null(n.quote));
    j.set("derivation", or_null(n.derivation));
    j.set("problem", or_null(n.problem));
    numbers.push_back(std::move(j));
  }
  o.set("numbers", numbers);
  o.set("code_range", or_null(e.diff_range));
  json::Value lines = json::Value::array();
  for (const auto &l : e.code_lines) {
    json::Value j = json::Value::object();
    j.set("field", l.field);
    j.set("line", static_cast<std::int64_t>(l.line));
    j.set("text", l.text);
    j.set("explained", l.explained());
    j.set("hunk", opt(l.hunk));
    j.set("hunk_header", or_null(l.hunk_header));
    j.set("role", l.role == 'k'   ? std::string("file")
                  : l.role == '+' ? "added"
                  : l.role == '-' ? "removed"
                  : l.role == '@' ? "hunk-header"
                                  : "context");
    j.set("file", l.file);
    j.set("old_commit", or_null(l.old_commit));
    j.set("new_commit", or_null(l.new_commit));
    j.set("old_line", opt(l.old_line));
    j.set("new_line", opt(l.new_line));
    j.set("problem", or_null(l.problem));
    lines.push_back(std::move(j));
  }
  o.set("code_lines", lines);
  o.set("notes", json::Value::strings(e.notes));
  o.set("unexplained", json::Value::strings(e.unexplained));
  return o;
}

} // namespace otm::explain
