// gates.md §2.4, checking keys structurally (a served string that happens to
// be "raw" is not a leak) and raw identifiers as whole tokens (a short trace
// label inside a word is not a leak); missing layers are findings, not
// crashes.
#include "gates/gates.hpp"

#include "json/write.hpp"

namespace otm::gates {

namespace {

json::Value served_projection(const json::Value &r) {
  json::Value s = json::Value::object();
  for (const char *k : {"id", "type", "level"}) s.set(k, r.get(k));
  json::Value retrieval = r.get("retrieval");
  retrieval.erase("locator");
  retrieval.erase("links");
  s.set("retrieval", retrieval);
  s.set("payload", r.get("payload"));
  json::Value ev = json::Value::object();
  ev.set("summary", r.get("evidence").get("summary"));
  s.set("evidence", ev);
  json::Value worth = json::Value::object(), rank = json::Value::object();
  rank.set("score", r.get("worth").get("rank").get("score"));
  rank.set("tier", r.get("worth").get("rank").get("tier"));
  worth.set("rank", rank);
  if (const auto *g = r.get("worth").find("gain")) worth.set("gain", *g);
  s.set("worth", worth);
  return s;
}

void forbidden_keys(const json::Value &v, const std::string &path, std::vector<std::string> &out) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o) {
      if (k == "locator" || k == "links" || k == "raw") out.push_back(path + k);
      forbidden_keys(child, path + k + ".", out);
    }
  } else if (const auto *a = v.as_array()) {
    for (const auto &item : *a) forbidden_keys(item, path, out);
  }
}

bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/';
}

// `needle` occurs in `hay` not glued to other identifier characters.
bool occurs_as_token(const std::string &hay, const std::string &needle) {
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
    bool left = pos == 0 || !token_char(hay[pos - 1]);
    auto end = pos + needle.size();
    bool right = end >= hay.size() || !token_char(hay[end]) ||
                 (hay[end] == '.' && (end + 1 >= hay.size() || !token_char(hay[end + 1])));
    if (left && right) return true;
  }
  return false;
}

} // namespace

std::unique_ptr<RecordPass> raw_isolation_pass(const Context &) {
  return make_pass([](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    const auto &rec = r.record;
    if (!rec.get("worth").get("rank").is_object()) {
      out.findings.push_back(finding("raw-isolation", r, "worth.rank is missing: the served projection has no rank"));
      return;
    }
    if (!rec.get("evidence").get("summary").is_object()) {
      out.findings.push_back(finding("raw-isolation", r, "evidence.summary is missing: nothing to serve as evidence"));
      return;
    }
    if (!rec.get("worth").contains("gain"))
      out.findings.push_back(finding("raw-isolation", r, "served worth keys are not exactly {gain, rank}", "gain"));
    for (const char *k : {"score", "tier"})
      if (!rec.get("worth").get("rank").contains(k))
        out.findings.push_back(finding("raw-isolation", r, std::string("served rank has no ") + k, k));
    auto served = served_projection(rec);
    std::vector<std::string> keys;
    forbidden_keys(served, "", keys);
    for (const auto &k : keys)
      out.findings.push_back(finding("raw-isolation", r, "engine-only or raw key served: " + k, k));
    // Strings as they appear in the served text (JSON-escaped), to compare like with like.
    std::string text = json::to_line(served);
    const auto &raw = rec.get("evidence").get("raw");
    for (const char *k : {"source_repo", "detail_file", "git_commit"}) {
      const auto *v = raw.get(k).as_string();
      if (v && !v->empty() && occurs_as_token(text, *v))
        out.findings.push_back(
            finding("raw-isolation", r, std::string("evidence.raw.") + k + " leaks into the served record", *v));
    }
    if (const auto *paths = raw.get("file_paths").as_array())
      for (const auto &p : *paths)
        if (const auto *s = p.as_string(); s && !s->empty() && occurs_as_token(text, *s))
          out.findings.push_back(
              finding("raw-isolation", r, "evidence.raw.file_paths entry leaks into the served record", *s));
  });
}

GateResult gate_raw_isolation(const Context &ctx) { return over_records(raw_isolation_pass(ctx), ctx); }

} // namespace otm::gates
