// reports/<slug>/partition.md (spec partition.md §10) and the console summary.
#include <algorithm>
#include <map>

#include "ladder/ladder.hpp"
#include "partition/partition.hpp"
#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/segment.hpp"

namespace otm::partition {

namespace {

std::string two(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d", n);
  return buf;
}

using workspace::Segment;

std::string id_tail(const Segment &s) { return "`-" + s.marker + two(static_cast<int>(s.disc)) + "`"; }

std::string last_dotted(const std::string &id) { return id.substr(id.rfind('.') + 1); }

std::vector<std::pair<std::string, std::size_t>> count_sorted(const std::vector<std::string> &items) {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (const auto &i : items) {
    auto it = std::find_if(out.begin(), out.end(), [&](auto &p) { return p.first == i; });
    if (it == out.end())
      out.emplace_back(i, 1);
    else
      ++it->second;
  }
  std::stable_sort(out.begin(), out.end(), [](auto &a, auto &b) { return a.second > b.second; });
  return out;
}

std::string seeds_text(const std::map<char, int> &seeds) {
  if (seeds.empty()) return "namespace empty";
  std::string out;
  for (const auto &[letter, n] : seeds) out += (out.empty() ? "" : ", ") + std::string("`") + letter + "`>" + two(n);
  return out;
}

std::size_t count_type(const std::vector<Segment> &segments, const std::string &type) {
  return std::count_if(segments.begin(), segments.end(), [&](const Segment &s) { return s.record_type == type; });
}

std::vector<Segment> typed(const Result &r) { return workspace::read_segments(r.segments, "partition's segments"); }

} // namespace

// Versions that had more segments than limits.max_segments_per_version:
// one line naming them, or "".
static std::string over_limit_text(const Result &r, const std::string &indent) {
  if (r.over_limit.empty()) return "";
  std::size_t total = 0;
  std::string which;
  for (const auto &[v, n] : r.over_limit) {
    total += n;
    if (which.size() < 200) which += (which.empty() ? "" : ", ") + v + " (" + std::to_string(n) + ")";
  }
  return indent + "not made: " + std::to_string(total) + " segment(s) over limits.max_segments_per_version, of " +
         which + "\n";
}

std::string report(const Inputs &in, const Result &r) {
  const auto segments = typed(r);
  std::string md;
  md += "# Partition: " + (in.meta.operator_name.empty() ? in.meta.operator_slug : in.meta.operator_name) + "\n\n";
  md += "Derived mechanically from the ladder over `work/versions.jsonl`, `work/meta.json` and the store indexes; "
        "no model was involved.\n\n";
  md += "| record type | count | marker |\n|---|---|---|\n";
  for (auto [type, marker] : {std::pair{"strategy", "s"}, {"anti-strategy", "t"}, {"reference-kernel", "r"}})
    md += "| " + std::string(type) + " | " + std::to_string(count_type(segments, type)) + " | `" + marker + "` |\n";
  md += "| **total** | **" + std::to_string(r.segments.size()) + "** | |\n\n";
  if (!r.over_limit.empty()) md += over_limit_text(r, "**Limit:** ") + "\n";
  md += "Ids have the shape `<vendor>.<product>.<dsl>.<slug|family.anti>.<technique>-<marker><NN>`, numbered above "
        "other traces' maxima in the live and staging stores for this operator: " +
        seeds_text(r.seeds) + ".";
  if (!r.reused.empty())
    md += " " + std::to_string(r.reused.size()) +
          " id(s) were kept from records (or the previous run) already derived from the same version of this "
          "trace.";
  md += "\n\n";
  md += std::string("`worth.gain.comparable` = **") + (r.comparable ? "True" : "False") + "**";
  if (!r.comparable) {
    md += ": the live store already holds this operator from ";
    for (std::size_t i = 0; i < r.other_sources.size(); ++i) md += (i ? ", " : "") + ("`" + r.other_sources[i] + "`");
    md += ", measured against other baselines";
  }
  md += ".\n\n## strategy: the ratchet milestones\n\n";
  md += "| version | kind | geomean us | improvement | dsl | technique | id tail |\n|---|---|---|---|---|---|---|\n";
  for (const auto &s : segments) {
    if (s.record_type != "strategy") continue;
    auto geo = s.geomean_us.as_number();
    auto imp = s.improve_pct.as_number();
    md += "| " + s.version + " | " + s.kind + " | " + (geo ? text::fixed(*geo, 2) : "-") + " | " +
          (imp && *imp != 0 ? text::fixed(*imp, 2) + "%" : "-") + " | " + s.dsl + " | " + s.technique + " | " +
          id_tail(s) + " |\n";
  }
  md += "\n## anti-strategy: one record per failed lever\n\n";
  std::map<std::string, std::size_t> by_split;
  std::size_t anti = 0, flagged = 0;
  std::vector<const Segment *> mechanical, curated;
  for (const auto &s : segments) {
    if (s.record_type != "anti-strategy") continue;
    ++anti;
    ++by_split[s.split_by];
    if (s.fact_precheck != "ok") ++flagged;
    if (s.split_by == "mechanical") mechanical.push_back(&s);
    if (s.split_by == "curated") curated.push_back(&s);
  }
  md += "| source | segments | what it is |\n|---|---|---|\n";
  md += "| mechanical | " + std::to_string(by_split["mechanical"]) +
        " | one item of a commit subject's dead-end list |\n";
  md += "| agent | " + std::to_string(by_split["agent"]) +
        " | prose of a reverted version; the distiller picks the most substantial lever |\n";
  md += "| curated | " + std::to_string(by_split["curated"]) + " | a recorded pitfall of a step record |\n\n";
  if (r.merged_occurrences)
    md += std::to_string(r.merged_occurrences) +
          " further account(s) of a failed lever already segmented (the same levers at the same stated values, "
          "or the same words) are listed in its segment's `occurrences`, not segmented again.\n\n";
  md += std::to_string(flagged) + " of " + std::to_string(anti) +
        " anti-strategy segments carry a `fact_precheck` other than `ok`; each must still clear the "
        "established-fact bar or yield no record.\n";
  if (!mechanical.empty()) {
    md += "\nMechanical examples:\n\n";
    for (std::size_t i = 0; i < mechanical.size() && i < 5; ++i)
      md += "- `" + mechanical[i]->version + "` -> " + mechanical[i]->deadend_text.value_or("") + "\n";
  }
  if (!curated.empty()) {
    md += "\nCurated examples:\n\n";
    for (std::size_t i = 0; i < curated.size() && i < 5; ++i)
      md += "- `" + curated[i]->version + "` -> " +
            std::string(text::prefix_code_points(curated[i]->deadend_text.value_or(""), 150)) + "\n";
  }
  md += "\n## reference-kernel\n\n";
  for (const auto &s : segments)
    if (s.record_type == "reference-kernel")
      md += "- `" + last_dotted(s.id) + "` " + s.seg_kind + ", `" + s.kernel_file + "`\n";
  std::size_t usable = 0, reports = 0, neither = 0, usable_dirs = 0;
  for (const auto &s : segments) {
    bool u = !s.ncu_dirs.empty(), rep = !s.report_dirs.empty();
    usable += u;
    reports += rep;
    neither += !u && !rep;
  }
  for (const auto &p : in.profiles) usable_dirs += p.get("ncu_usable").truthy();
  md += "\n## Evidence availability\n\n| evidence | segments |\n|---|---|\n";
  md += "| usable profiler capture (profiler basis allowed) | " + std::to_string(usable) + " |\n";
  md += "| a `REPORT.md` | " + std::to_string(reports) + " |\n";
  md += "| neither | " + std::to_string(neither) + " |\n\n";
  md += "The trace holds " + std::to_string(usable_dirs) + " usable capture director" +
        (usable_dirs == 1 ? "y" : "ies") + ".\n";
  std::vector<std::string> reasons;
  for (const auto &verdict : workspace::read_ladder_verdicts(in.rows, "work/ladder.jsonl"))
    if (verdict.reason) reasons.push_back(ladder::reason_group(*verdict.reason));
  md += "\n## Rejected versions\n\n";
  if (reasons.empty()) {
    md += "None.\n";
  } else {
    md += "| reason | count |\n|---|---|\n";
    for (const auto &[reason, n] : count_sorted(reasons)) md += "| " + reason + " | " + std::to_string(n) + " |\n";
  }
  return md;
}

std::string console_summary(const Result &r, const std::string &segments_path) {
  const auto segments = typed(r);
  std::string out = std::to_string(r.segments.size()) + " segments -> " + segments_path + "\n";
  for (const char *type : {"strategy", "anti-strategy", "reference-kernel"})
    out += "  " + std::string(type) + ": " + std::to_string(count_type(segments, type)) + "\n";
  std::vector<std::string> splits, reasons;
  for (const auto &s : segments)
    if (s.record_type == "anti-strategy") splits.push_back(s.split_by); // only an account is split
  for (const auto &f : r.flagged) reasons.push_back(f.reason);
  if (r.merged_occurrences)
    out += "  accounts merged into an earlier one of the same failed lever: " + std::to_string(r.merged_occurrences) +
           "\n";
  out += "  split by:";
  for (const auto &[k, n] : count_sorted(splits)) out += " " + k + "=" + std::to_string(n);
  out += "\n  flagged by the fact pre-check: " + std::to_string(r.flagged.size());
  for (const auto &[k, n] : count_sorted(reasons)) out += "; " + k + " x" + std::to_string(n);
  out += "\n";
  for (std::size_t i = 0; i < r.flagged.size() && i < 3; ++i)
    out += "    e.g. [" + r.flagged[i].reason + "] " + r.flagged[i].text + "\n";
  out += over_limit_text(r, "  ");
  out += std::string("  gain.comparable: ") + (r.comparable ? "True" : "False") + "\n";
  out += "  seeds: " + seeds_text(r.seeds) + "; ids kept: " + std::to_string(r.reused.size()) + "\n";
  return out;
}

} // namespace otm::partition
