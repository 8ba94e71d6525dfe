#include "distill/refusal.hpp"

#include <functional>
#include <optional>

#include "gates/gates.hpp"
#include "text/regex.hpp"

namespace otm::distill {

namespace {

// A path named in a gate message: dotted record paths as the gates write
// them ("implementation.snippet: ...", "evidence.raw.git_commit is ...").
std::optional<std::string> path_in_message(const std::string &message) {
  static const text::Regex dotted(R"(\b((?:payload|retrieval|evidence|worth|implementation|established_fact|)"
                                  R"(attempted_code)(?:\.\w+|\[\d+\])*))");
  auto m = dotted.search(message);
  if (!m) return std::nullopt;
  std::string path((*m)[1]);
  for (const char *inner : {"implementation", "established_fact", "attempted_code"})
    if (path.rfind(inner, 0) == 0) return "payload." + path;
  return path;
}

// A schema error path ("payload/trace/builds_on", the schema and profile
// gates' token) as a dotted path.
std::optional<std::string> schema_path(const GateFinding &f) {
  const auto *gate = gates::find_gate(f.gate);
  if (!gate || !gate->token_is_schema_path || f.token.empty() || f.token == "<root>") return std::nullopt;
  const std::string &token = f.token;
  std::string out;
  std::size_t pos = token[0] == '/' ? 1 : 0;
  while (pos <= token.size()) {
    auto slash = token.find('/', pos);
    std::string part = token.substr(pos, (slash == std::string::npos ? token.size() : slash) - pos);
    bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + part + "]" : (out.empty() ? "" : ".") + part;
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  return out;
}

// The first string under `v` (depth first, in key order) that contains
// `token`, as a dotted path below `prefix`.
std::optional<std::string> holding(const json::Value &v, const std::string &token, const std::string &prefix) {
  if (const auto *s = v.as_string()) {
    if (s->find(token) != std::string::npos) return prefix;
    return std::nullopt;
  }
  if (const auto *obj = v.as_object()) {
    for (const auto &[k, e] : *obj)
      if (auto p = holding(e, token, prefix.empty() ? k : prefix + "." + k)) return p;
  } else if (const auto *arr = v.as_array()) {
    for (std::size_t i = 0; i < arr->size(); ++i)
      if (auto p = holding((*arr)[i], token, prefix + "[" + std::to_string(i) + "]")) return p;
  }
  return std::nullopt;
}

// The field the registry says a gate's findings are about, else the record.
std::string gate_field(const std::string &gate) {
  const auto *g = gates::find_gate(gate);
  return g && !g->field.empty() ? g->field : "record";
}

} // namespace

std::string finding_field(const json::Value &record, const GateFinding &f) {
  if (auto p = schema_path(f)) return *p;
  if (auto p = path_in_message(f.message)) return *p;
  if (!f.token.empty()) {
    // The served layers first: that is where the gates look.
    for (const char *layer : {"payload", "retrieval", "evidence", "worth"})
      if (auto p = holding(record.get(layer), f.token, layer)) return *p;
    if (auto p = holding(record, f.token, "")) return *p;
  }
  return gate_field(f.gate);
}

DraftRefusal gate_refusal(const json::Value &record, const std::vector<GateFinding> &findings) {
  DraftRefusal r;
  if (findings.empty()) return r;
  r.gate = findings.front().gate;
  r.field = finding_field(record, findings.front());
  for (const auto &f : findings) r.why += (r.why.empty() ? "" : "; ") + ("[" + f.gate + "] " + f.message);
  return r;
}

json::Value refusal_line(const Packet &packet, const DraftRefusal &refusal, const std::string &by) {
  json::Value v = json::Value::object();
  v.set("seg_id", packet.seg_id());
  v.set("id", packet.target().get("id"));
  v.set("record_type", packet.record_type());
  v.set("refused", refusal.field);
  v.set("why", refusal.why);
  if (!refusal.gate.empty()) v.set("gate", refusal.gate);
  v.set("by", by);
  return v;
}

} // namespace otm::distill
