#include "store/record_view.hpp"

#include <string_view>

#include "workspace/field_reader.hpp"

namespace otm::store {

namespace {

using V = RecordView;
using Text = std::optional<std::string>;

// Each string field by its path in the record, so a path is spelled once.
struct TextField {
  const char *path;
  Text *(*at)(V &);
};
constexpr TextField kTexts[] = {
    {"id", [](V &v) { return &v.id; }},
    {"type", [](V &v) { return &v.type; }},
    {"level", [](V &v) { return &v.level; }},
    {"episode_key", [](V &v) { return &v.episode_key; }},
    {"retrieval.scope.vendor", [](V &v) { return &v.scope.vendor; }},
    {"retrieval.scope.arch", [](V &v) { return &v.scope.arch; }},
    {"retrieval.scope.product", [](V &v) { return &v.scope.product; }},
    {"retrieval.scope.dsl", [](V &v) { return &v.scope.dsl; }},
    {"retrieval.scope.operator_family", [](V &v) { return &v.scope.operator_family; }},
    {"evidence.raw.source_repo", [](V &v) { return &v.source_repo; }},
    {"evidence.raw.version", [](V &v) { return &v.version; }},
    {"evidence.raw.git_commit", [](V &v) { return &v.git_commit; }},
    {"worth.rank.tier", [](V &v) { return &v.tier; }},
    {"worth.gain.basis", [](V &v) { return &v.gain_basis; }},
    {"payload.implementation.snippet", [](V &v) { return &v.snippet; }},
    {"payload.implementation.format", [](V &v) { return &v.format; }},
    {"payload.goal", [](V &v) { return &v.goal; }},
    {"payload.mechanism", [](V &v) { return &v.mechanism; }},
    {"payload.lesson", [](V &v) { return &v.lesson; }},
    {"payload.attempted", [](V &v) { return &v.attempted; }},
    {"payload.verdict", [](V &v) { return &v.verdict; }},
    {"payload.established_fact.mechanism", [](V &v) { return &v.fact_mechanism; }},
    {"retrieval.generality.workload_family", [](V &v) { return &v.workload_family; }},
    {"evidence.summary.bottleneck_evidence.basis", [](V &v) { return &v.bottleneck_basis; }},
};
constexpr std::pair<const char *, std::optional<V::DiffEnd> V::*> kDiffEnds[] = {
    {"evidence.raw.evidence_extra.diff_from", &V::diff_from},
    {"evidence.raw.evidence_extra.diff_to", &V::diff_to},
};

// The value at a dotted path, or null when it or an object on the way is
// absent; an object on the way of another type is a problem named by its
// path.
const json::Value *at_path(const json::Value &record, std::string_view path, workspace::FieldReader &r) {
  const json::Value *cur = &record;
  std::size_t start = 0;
  for (std::size_t dot; (dot = path.find('.', start)) != std::string_view::npos; start = dot + 1) {
    cur = cur->find(path.substr(start, dot - start));
    if (!cur || cur->is_null()) return nullptr;
    if (!r.is_object(path.substr(0, dot), *cur)) return nullptr;
  }
  return cur->find(path.substr(start));
}

void read(const json::Value &record, workspace::FieldReader &r, V &v) {
  if (!r.members(record)) return;
  for (const auto &f : kTexts)
    if (const auto *x = at_path(record, f.path, r)) r.string_or_null(f.path, *x, *f.at(v));
  for (const auto &[path, end] : kDiffEnds) {
    const auto *x = at_path(record, path, r);
    if (!x || x->is_null() || !r.is_object(path, *x)) continue;
    V::DiffEnd e;
    const std::string key(path);
    if (const auto *s = x->find("version")) r.string_or_null(key + ".version", *s, e.version);
    if (const auto *s = x->find("git_commit")) r.string_or_null(key + ".git_commit", *s, e.git_commit);
    v.*end = std::move(e);
  }
}

} // namespace

Result<RecordView> RecordView::from_json(const json::Value &record) {
  workspace::FieldReader r("a record");
  RecordView v;
  read(record, r, v);
  if (r.failed()) return r.error();
  return v;
}

RecordView RecordView::shown(const json::Value &record) {
  // The same reading; its sentences are the gates' to report, not a page's.
  workspace::FieldReader r("a record");
  RecordView v;
  read(record, r, v);
  return v;
}

} // namespace otm::store
