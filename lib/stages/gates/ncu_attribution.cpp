// gates.md §3.7, checking what the record itself cites: a record whose
// bottleneck basis is `profiler` must name its capture(s) in
// evidence.raw.evidence_extra.ncu_dirs (or as profiles/<dir>/... in
// evidence.raw.file_paths); each must be a usable capture of the trace and
// one its packet offered.
#include "gates/gates.hpp"

#include <algorithm>
#include <set>

#include "store/record_view.hpp"

namespace otm::gates {

std::vector<std::string> cited_captures(const json::Value &record) {
  std::set<std::string> out;
  const auto &raw = record.get("evidence").get("raw");
  const auto &dirs = raw.get("evidence_extra").get("ncu_dirs");
  if (const auto *s = dirs.as_string()) out.insert(*s);
  if (const auto *a = dirs.as_array())
    for (const auto &d : *a)
      if (const auto *s = d.as_string()) out.insert(*s);
  if (const auto *a = raw.get("file_paths").as_array())
    for (const auto &p : *a)
      if (const auto *s = p.as_string(); s && s->rfind("profiles/", 0) == 0) {
        auto rest = s->substr(9);
        auto slash = rest.find('/');
        if (slash != std::string::npos && slash > 0) out.insert(rest.substr(0, slash));
      }
  out.erase("");
  return {out.begin(), out.end()};
}

GateResult gate_ncu_attribution(const Context &ctx) {
  constexpr Gate g = Gate::NcuAttribution;
  GateResult out;
  std::size_t claims = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) continue;
    if (store::RecordView::shown(r.record).bottleneck_basis != "profiler") continue;
    ++claims;
    if (!ctx.have_captures) {
      out.findings.push_back(
          finding(g, r, "claims a profiler basis but no work/profiles.jsonl was given: cannot check it"));
      continue;
    }
    auto cited = cited_captures(r.record);
    if (cited.empty()) {
      out.findings.push_back(
          finding(g, r, "claims a profiler basis but cites no capture (evidence.raw.evidence_extra.ncu_dirs)"));
      continue;
    }
    auto lookup = find_packet(ctx, r.record);
    std::vector<std::string> offered;
    if (lookup.packet)
      if (auto prov = lookup.packet->provenance()) offered = std::move(prov->ncu_dirs);
    for (const auto &c : cited) {
      if (!ctx.usable_captures.count(c))
        out.findings.push_back(
            finding(g, r, "cites capture " + c + ", which is not a usable capture of the kernel under test", c));
      else if (std::find(offered.begin(), offered.end(), c) == offered.end())
        out.findings.push_back(finding(g, r, "cites capture " + c + ", which its packet did not offer", c));
    }
  }
  out.note = std::to_string(claims) + " profiler claim(s), " + std::to_string(ctx.usable_captures.size()) +
             " usable capture(s)";
  return out;
}

} // namespace otm::gates
