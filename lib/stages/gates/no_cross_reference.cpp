// gates.md §2.8, with a record-id pattern that covers every vendor, product
// and architecture of the target table (the reference knew only NVIDIA
// B200/B300): record/id_format.hpp spells it.
#include "gates/gates.hpp"

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
  return make_pass([record_id, path_needles, id_needles](const RecordEntry &r, GateResult &out) {
    if (!r.parse_error.empty()) return;
    const auto &payload = r.record.get("payload");
    json::Value doc = json::Value::object();
    doc.set("payload", blank_code(payload, false));
    const auto &gain = r.record.get("worth").get("gain");
    doc.set("gain", gain.truthy() ? gain : json::Value::object());
    std::string text = json::to_line(doc);
    if (text::contains_any(text, path_needles))
      for (const auto &m : repo_path.find_all(text))
        out.findings.push_back(finding("no-cross-reference", r, "names a repository path", std::string(m[0])));
    if (text::contains_any(text, id_needles))
      for (const auto &m : record_id->find_all(text))
        out.findings.push_back(finding("no-cross-reference", r, "names another record by id", std::string(m[0])));
    for (const char *k : {"source_text", "source_truncated"})
      if (payload.get("implementation").contains(k))
        out.findings.push_back(
            finding("no-cross-reference", r, std::string("serve-time field implementation.") + k + " is stored", k));
  });
}

GateResult gate_no_cross_reference(const Context &ctx) { return over_records(no_cross_reference_pass(ctx), ctx); }

} // namespace otm::gates
