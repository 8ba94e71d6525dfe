#include "workspace/packet_provenance.hpp"

#include <utility>

#include "workspace/field_reader.hpp"

namespace otm::workspace {

namespace {

using P = PacketProvenance;
using L = P::Lever;
using Versions = std::vector<std::optional<std::string>>;

// Each field by key and type, so a key is spelled once for reading.
constexpr std::pair<const char *, std::string P::*> kStrings[] = {
    {"source_repo", &P::source_repo},
    {"version", &P::version},
    {"shape_label_note", &P::shape_label_note},
};
constexpr std::pair<const char *, std::optional<std::string> P::*> kStringsOrNull[] = {
    {"git_commit", &P::git_commit},
    {"report_dir", &P::report_dir},
    {"later_kernel_of_its_dsl", &P::later_kernel_of_its_dsl},
    {"builds_on_version", &P::builds_on_version},
};
constexpr std::pair<const char *, std::optional<P::End> P::*> kEnds[] = {
    {"diff_from", &P::diff_from},
    {"diff_to", &P::diff_to},
};
constexpr std::pair<const char *, std::vector<std::string> P::*> kLists[] = {
    {"ncu_dirs", &P::ncu_dirs},
    {"lineage_versions", &P::lineage_versions},
    {"kept_after_it_without_a_new_best", &P::kept_after_it_without_a_new_best},
    {"kept_after_it_unmeasured", &P::kept_after_it_unmeasured},
    {"dram_captures", &P::dram_captures},
    {"span_versions", &P::span_versions},
    {"reverted_earlier_tries_of_this_change", &P::reverted_earlier_tries_of_this_change},
};
constexpr std::pair<const char *, Versions L::*> kLeverVersions[] = {
    {"accounts_of_this_lever", &L::accounts},
    {"kept_in_the_run_with_the_same_setting", &L::kept_with_the_same_setting},
    {"kept_in_the_run_with_other_settings", &L::kept_with_other_settings},
};
constexpr const char *kPassed = "other_accounts_that_passed_correctness";

// A list whose items are each a version or null.
void read_versions(FieldReader &r, const std::string &key, const json::Value &v, Versions &out) {
  if (!r.is_list(key, v)) return;
  out.clear();
  for (std::size_t i = 0; i < v.size(); ++i)
    r.string_or_null(key + "[" + std::to_string(i) + "]", v[i], out.emplace_back());
}

json::Value versions(const Versions &items) {
  json::Value out = json::Value::array();
  for (const auto &v : items) out.push_back(v);
  return out;
}

json::Value range_end(const std::optional<P::End> &e) {
  if (!e) return {};
  json::Value out = json::Value::object();
  out.set("version", e->version);
  out.set("git_commit", e->git_commit);
  return out;
}

void read(const json::Value &packet, FieldReader &r, PacketProvenance &p) {
  const auto *prov = packet.find("provenance");
  if (!prov || prov->is_null() || !r.members(*prov)) return;
  for (const auto &[key, field] : kStrings)
    if (const auto *x = prov->find(key)) r.string(key, *x, p.*field);
  for (const auto &[key, field] : kStringsOrNull)
    if (const auto *x = prov->find(key)) r.string_or_null(key, *x, p.*field);
  if (const auto *x = prov->find("code_truncated")) r.boolean("code_truncated", *x, p.code_truncated);
  for (const auto &[key, field] : kEnds) {
    const auto *x = prov->find(key);
    if (!x || x->is_null() || !r.is_object(key, *x)) continue;
    const std::string k(key);
    auto &e = (p.*field).emplace();
    if (const auto *s = x->find("version")) r.string_or_null(k + ".version", *s, e.version);
    if (const auto *s = x->find("git_commit")) r.string_or_null(k + ".git_commit", *s, e.git_commit);
  }
  for (const auto &[key, field] : kLists)
    if (const auto *x = prov->find(key)) r.strings(key, *x, p.*field);
  for (const auto &[key, field] : kLeverVersions)
    if (const auto *x = prov->find(key)) read_versions(r, key, *x, (p.lever ? *p.lever : p.lever.emplace()).*field);
  if (const auto *x = prov->find(kPassed))
    r.strings(kPassed, *x, (p.lever ? *p.lever : p.lever.emplace()).other_accounts_that_passed_correctness);
}

} // namespace

Result<PacketProvenance> PacketProvenance::from_json(const json::Value &packet) {
  FieldReader r("a packet's provenance", "otm-packet");
  PacketProvenance p;
  read(packet, r, p);
  if (r.failed()) return r.error();
  return p;
}

json::Value PacketProvenance::to_json(std::string_view record_type) const {
  const bool strategy = record_type == "strategy";
  json::Value out = json::Value::object();
  out.set("source_repo", source_repo);
  out.set("version", version);
  out.set("git_commit", git_commit);
  out.set("ncu_dirs", json::Value::strings(ncu_dirs));
  out.set("report_dir", report_dir);
  out.set("shape_label_note", shape_label_note);
  out.set("diff_from", range_end(diff_from));
  out.set("diff_to", range_end(diff_to));
  out.set("code_truncated", code_truncated);
  if (strategy || record_type == "reference-kernel")
    out.set("lineage_versions", json::Value::strings(lineage_versions));
  if (later_kernel_of_its_dsl) out.set("later_kernel_of_its_dsl", *later_kernel_of_its_dsl);
  if (!kept_after_it_without_a_new_best.empty())
    out.set("kept_after_it_without_a_new_best", json::Value::strings(kept_after_it_without_a_new_best));
  if (!kept_after_it_unmeasured.empty())
    out.set("kept_after_it_unmeasured", json::Value::strings(kept_after_it_unmeasured));
  if (!dram_captures.empty()) out.set("dram_captures", json::Value::strings(dram_captures));
  if (strategy) {
    out.set("span_versions", json::Value::strings(span_versions));
    if (!reverted_earlier_tries_of_this_change.empty())
      out.set("reverted_earlier_tries_of_this_change", json::Value::strings(reverted_earlier_tries_of_this_change));
    out.set("builds_on_version", builds_on_version);
  }
  if (lever) {
    out.set("accounts_of_this_lever", versions(lever->accounts));
    out.set("kept_in_the_run_with_the_same_setting", versions(lever->kept_with_the_same_setting));
    if (!lever->kept_with_other_settings.empty())
      out.set("kept_in_the_run_with_other_settings", versions(lever->kept_with_other_settings));
    out.set(kPassed, json::Value::strings(lever->other_accounts_that_passed_correctness));
  }
  return out;
}

PacketProvenance PacketProvenance::shown(const json::Value &packet) {
  // The same reading; its sentences are the packet gates' to report.
  FieldReader r("a packet's provenance", "otm-packet");
  PacketProvenance p;
  read(packet, r, p);
  return p;
}

} // namespace otm::workspace
