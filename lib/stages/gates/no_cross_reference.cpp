// gates.md §2.8, with a record-id pattern that covers every vendor, product
// and architecture of the target table (the reference knew only NVIDIA
// B200/B300): record/id_format.hpp spells it.
#include "gates/gates.hpp"

#include <algorithm>

#include "gates/record_text.hpp"
#include "record/id_format.hpp"
#include "record/leak_shapes.hpp"
#include "text/literal_search.hpp"
#include "text/regex.hpp"
#include "trace/hardware.hpp"
#include "json/write.hpp"

namespace otm::gates {

namespace {

json::Value blank_code(const json::Value &v, bool in_code) {
  if (const auto *o = v.as_object()) {
    json::Value out = json::Value::object();
    for (const auto &[k, child] : *o) out.set(k, blank_code(child, in_code || is_code_key(k)));
    return out;
  }
  if (const auto *a = v.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &item : *a) out.push_back(blank_code(item, in_code));
    return out;
  }
  if (in_code && v.is_string()) return json::Value("");
  return v;
}

// Whether the text the gate prints (the payload with its code blanked,
// the gain as it is) can hold one of `needles`, decided without printing
// it. Each needle is made of characters JSON writes as themselves, none a
// separator or quote (literal_needles), so an occurrence lies inside one
// key, string or scalar as written: a string with escapes is searched
// escaped ("\nvidia." holds "nvidia."), a number or literal printed when
// a needle could be part of one. `blank`: strings below a code key are
// printed empty (the payload), or as they are (the gain).
struct PrintedScan {
  const text::LiteralSet &needles;
  bool scalars; // a needle could lie in a printed number or literal

  bool piece(const std::string &s) const {
    return json::written_as_is(s) ? needles.any_in(s) : needles.any_in(json::quote(s));
  }
  bool may_hold(const json::Value &v, bool blank, bool in_code) const {
    if (const auto *o = v.as_object()) {
      for (const auto &[k, child] : *o)
        if (piece(k) || may_hold(child, blank, in_code || is_code_key(k))) return true;
    } else if (const auto *a = v.as_array()) {
      for (const auto &item : *a)
        if (may_hold(item, blank, in_code)) return true;
    } else if (const auto *s = v.as_string()) {
      return !(blank && in_code) && piece(*s);
    } else if (scalars) {
      return needles.any_in(json::to_line(v));
    }
    return false;
  }
};

// The needles qualify for PrintedScan: non-empty, none empty, none holding
// a quote, backslash, control character or JSON separator.
bool literal_needles(const std::vector<std::string> &needles) {
  if (needles.empty()) return false;
  for (const auto &n : needles) {
    if (n.empty()) return false;
    for (char c : n)
      if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\' || c == ' ' || c == ',' || c == ':' ||
          c == '{' || c == '}' || c == '[' || c == ']')
        return false;
  }
  return true;
}

// A needle made only of characters a printed number or literal can hold.
bool scalar_like(const std::vector<std::string> &needles) {
  return std::any_of(needles.begin(), needles.end(), [](const std::string &n) {
    return n.find_first_not_of("0123456789.eE+-truefalsn") == std::string::npos;
  });
}

} // namespace

std::unique_ptr<RecordPass> no_cross_reference_pass(const Context &ctx) {
  // The markdown page is the leak shape's (scrubbing.md: one definition),
  // so whatever the scrubber leaves this gate does not call a page.
  static const text::Regex repo_path(std::string(record::markdown_page_pattern()) + R"(|(?:docs|records)/[\w./-]+)");
  std::vector<std::string> products = ctx.id_products.empty() ? std::vector<std::string>{"any"} : ctx.id_products;
  // Compiled once per pass, not per record.
  auto record_id = record::id_mention_regex(trace::known_vendors(), products);
  // Literals each pattern's matches need: a text holding none of them is
  // not scanned (most payloads name no page, path or id).
  std::vector<std::string> path_needles; // empty: always scan
  for (const auto &shape : record::store_leak_shapes())
    if (shape.regex->pattern() == record::markdown_page_pattern() && !shape.needles.empty()) {
      path_needles = {"docs/", "records/"};
      path_needles.insert(path_needles.end(), shape.needles.begin(), shape.needles.end());
    }
  auto id_needles = record::id_mention_needles(trace::known_vendors());
  std::vector<std::string> all_needles = path_needles;
  all_needles.insert(all_needles.end(), id_needles.begin(), id_needles.end());
  // Both scans have needles of the kind PrintedScan can look for
  // without printing: most payloads are then never copied nor printed.
  bool unprinted = literal_needles(path_needles) && literal_needles(id_needles);
  bool scalars = scalar_like(all_needles);
  auto all = std::make_shared<const text::LiteralSet>(all_needles);
  auto paths = std::make_shared<const text::LiteralSet>(path_needles);
  auto ids = std::make_shared<const text::LiteralSet>(id_needles);
  return make_pass([record_id, all, paths, ids, unprinted, scalars](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    const auto &payload = r.record.get("payload");
    const auto &gain = r.record.get("worth").get("gain");
    PrintedScan printed{*all, scalars};
    bool scan = !unprinted || printed.piece("payload") || printed.piece("gain") ||
                printed.may_hold(payload, true, false) || (gain.truthy() && printed.may_hold(gain, false, false));
    json::Value doc = json::Value::object();
    if (scan) {
      doc.set("payload", blank_code(payload, false));
      doc.set("gain", gain.truthy() ? gain : json::Value::object());
      std::string text = json::to_line(doc);
      if (paths->any_in(text))
        for (const auto &m : repo_path.find_all(text))
          out.findings.push_back(finding(Gate::NoCrossReference, r, "names a repository path", std::string(m[0])));
      if (ids->any_in(text))
        for (const auto &m : record_id->find_all(text))
          out.findings.push_back(finding(Gate::NoCrossReference, r, "names another record by id", std::string(m[0])));
    }
    for (const char *k : {"source_text", "source_truncated"})
      if (payload.get("implementation").contains(k))
        out.findings.push_back(
            finding(Gate::NoCrossReference, r, std::string("serve-time field implementation.") + k + " is stored", k));
  });
}

GateResult gate_no_cross_reference(const Context &ctx) { return over_records(no_cross_reference_pass(ctx), ctx); }

} // namespace otm::gates
