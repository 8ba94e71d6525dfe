// gates.md §2.4, checking keys structurally (a served string that happens to
// be "raw" is not a leak) and raw identifiers as whole tokens (a short trace
// label inside a word is not a leak); missing layers are findings, not
// crashes.
#include "gates/gates.hpp"
#include "gates/served_projection.hpp"

#include <algorithm>
#include <functional>

#include "json/write.hpp"

namespace otm::gates {

namespace {

bool links_key(const std::string &k) { return k == "locator" || k == "links"; }

void forbidden_keys(const json::Value &v, const std::string &path, bool skip_links, std::vector<std::string> &out) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o) {
      if (skip_links && links_key(k)) continue;
      if (k == "locator" || k == "links" || k == "raw") out.push_back(path + k);
      forbidden_keys(child, path + k + ".", false, out);
    }
  } else if (const auto *a = v.as_array()) {
    for (const auto &item : *a) forbidden_keys(item, path, false, out);
  }
}

bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/';
}

// `needle` occurs in `hay` not glued to other identifier characters.
bool occurs_as_token(std::string_view hay, std::string_view needle) {
  for (auto pos = hay.find(needle); pos != std::string_view::npos; pos = hay.find(needle, pos + 1)) {
    bool left = pos == 0 || !token_char(hay[pos - 1]);
    auto end = pos + needle.size();
    bool right = end >= hay.size() || !token_char(hay[end]) ||
                 (hay[end] == '.' && (end + 1 >= hay.size() || !token_char(hay[end + 1])));
    if (left && right) return true;
  }
  return false;
}

// The needles among `needles` that occur as tokens in the served text (the
// served projection as json::to_line writes it, strings JSON-escaped).
// A needle of token characters only cannot span two keys or scalars of
// that text (quotes, ", " and ": " lie between them), so each key and
// scalar is searched alone, in its written form: a string that needs no
// escape is itself between quotes. Any other needle is searched in the
// printed text.
std::vector<bool> served_occurrences(const json::Value &rec, const std::vector<const std::string *> &needles) {
  std::vector<bool> found(needles.size(), false);
  std::vector<std::size_t> plain;
  bool any_other = false;
  for (std::size_t i = 0; i < needles.size(); ++i) {
    if (std::all_of(needles[i]->begin(), needles[i]->end(), token_char))
      plain.push_back(i);
    else
      any_other = true;
  }
  auto piece = [&](std::string_view text) {
    for (auto i : plain)
      if (!found[i] && occurs_as_token(text, *needles[i])) found[i] = true;
  };
  auto string_piece = [&](const std::string &s) {
    if (json::written_as_is(s))
      piece(s);
    else
      piece(json::quote(s));
  };
  std::function<void(const json::Value &, bool)> walk = [&](const json::Value &v, bool skip_links) {
    if (const auto *o = v.as_object()) {
      for (const auto &[k, child] : *o) {
        if (skip_links && links_key(k)) continue;
        string_piece(k);
        walk(child, false);
      }
    } else if (const auto *a = v.as_array()) {
      for (const auto &item : *a) walk(item, false);
    } else if (const auto *str = v.as_string()) {
      string_piece(*str);
    } else {
      piece(json::to_line(v));
    }
  };
  if (!plain.empty()) {
    for (const char *k : kServedKeys) piece(k);
    if (rec.get("worth").contains("gain")) piece("gain");
    for (const auto &part : served_parts(rec)) walk(*part.value, part.skip_links);
  }
  if (any_other) {
    std::string text = json::to_line(served_projection(rec));
    for (std::size_t i = 0; i < needles.size(); ++i)
      if (!found[i]) found[i] = occurs_as_token(text, *needles[i]);
  }
  return found;
}

} // namespace

std::unique_ptr<RecordPass> raw_isolation_pass(const Context &) {
  return make_pass([](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    const auto &rec = r.record;
    if (!rec.get("worth").get("rank").is_object()) {
      out.findings.push_back(
          finding(Gate::RawIsolation, r, "worth.rank is missing: the served projection has no rank"));
      return;
    }
    if (!rec.get("evidence").get("summary").is_object()) {
      out.findings.push_back(
          finding(Gate::RawIsolation, r, "evidence.summary is missing: nothing to serve as evidence"));
      return;
    }
    if (!rec.get("worth").contains("gain"))
      out.findings.push_back(finding(Gate::RawIsolation, r, "served worth keys are not exactly {gain, rank}", "gain"));
    for (const char *k : {"score", "tier"})
      if (!rec.get("worth").get("rank").contains(k))
        out.findings.push_back(finding(Gate::RawIsolation, r, std::string("served rank has no ") + k, k));
    std::vector<std::string> keys;
    for (const auto &part : served_parts(rec))
      forbidden_keys(*part.value, std::string(part.key_path) + ".", part.skip_links, keys);
    for (const auto &k : keys)
      out.findings.push_back(finding(Gate::RawIsolation, r, "engine-only or raw key served: " + k, k));
    // The raw identifiers, each compared with the served text as written
    // (JSON-escaped), like with like.
    const auto &raw = rec.get("evidence").get("raw");
    std::vector<const std::string *> needles;
    std::vector<std::string> messages;
    for (const char *k : {"source_repo", "detail_file", "git_commit"})
      if (const auto *v = raw.get(k).as_string(); v && !v->empty()) {
        needles.push_back(v);
        messages.push_back(std::string("evidence.raw.") + k + " leaks into the served record");
      }
    if (const auto *paths = raw.get("file_paths").as_array())
      for (const auto &p : *paths)
        if (const auto *v = p.as_string(); v && !v->empty()) {
          needles.push_back(v);
          messages.push_back("evidence.raw.file_paths entry leaks into the served record");
        }
    auto found = served_occurrences(rec, needles);
    for (std::size_t i = 0; i < needles.size(); ++i)
      if (found[i]) out.findings.push_back(finding(Gate::RawIsolation, r, messages[i], *needles[i]));
  });
}

GateResult gate_raw_isolation(const Context &ctx) { return over_records(raw_isolation_pass(ctx), ctx); }

} // namespace otm::gates
