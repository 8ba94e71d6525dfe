#include "recon/recon.hpp"

#include <algorithm>
#include <map>

#include "ladder/ladder.hpp"
#include "ladder/verdict.hpp"
#include "record/id_format.hpp"
#include "record/id_namespace.hpp"
#include "store/record_view.hpp"
#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "workspace/capture_row.hpp"
#include "workspace/kernel_file.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/version_row.hpp"

namespace otm::recon {

namespace {

using Counts = std::vector<std::pair<std::string, std::size_t>>;

Counts count_sorted(const std::vector<std::string> &items) {
  Counts out;
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

std::string join_counts(const Counts &c, bool backticks) {
  std::string out;
  for (const auto &[k, n] : c)
    out += (out.empty() ? "" : ", ") + (backticks ? "`" + k + "`" : k) + " x" + std::to_string(n);
  return out;
}

std::string two(long n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld", n);
  return buf;
}

std::string plural(std::size_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string value_text(const json::Value &v) {
  if (v.is_array() || v.is_object()) return "";
  return v.python_str();
}

using workspace::LadderVerdict;
using workspace::VersionRow;

struct Sel {
  std::size_t baseline = 0, milestone = 0, mega = 0, final_ = 0, deadend = 0, rejected = 0;
  std::size_t milestones() const { return baseline + milestone + mega + final_; }
};

Sel selections(const std::vector<LadderVerdict> &verdicts) {
  Sel s;
  for (const auto &v : verdicts) {
    const std::string &sel = v.selection;
    if (sel == "baseline")
      ++s.baseline;
    else if (sel == "milestone")
      ++s.milestone;
    else if (sel == "mega")
      ++s.mega;
    else if (sel == "final")
      ++s.final_;
    else if (sel == "deadend")
      ++s.deadend;
    else
      ++s.rejected;
  }
  return s;
}

void what_it_is(std::string &md, const Inputs &in, const std::vector<VersionRow> &versions) {
  const auto &meta = in.meta;
  md += "## What this trace is\n\n| | |\n|---|---|\n";
  md += "| operator | " + meta.operator_name + " |\n";
  md += "| slug / family | `" + meta.operator_slug + "` / `" + meta.workload_family + "` |\n";
  md += "| trace label | " + meta.source_repo + " |\n";
  md += "| HEAD | `" + meta.head_sha.substr(0, 12) + "` |\n";
  md += "| target | " + meta.vendor + " " + meta.arch + " " + meta.product + " |\n";
  md += "| target basis | " + meta.arch_basis + " |\n";
  md += "| benchmarked shapes | " + value_text(meta.n_shapes) + " |\n";
  std::string axes;
  if (const auto *c = meta.constants.as_object())
    for (const auto &[k, v] : *c) axes += (axes.empty() ? "" : ", ") + k + "=" + value_text(v);
  md += "| fixed axes | " + (axes.empty() ? "none" : axes) + " |\n";
  std::string vars;
  for (const auto &a : meta.var_axes) vars += (vars.empty() ? "" : ", ") + value_text(json::Value(a));
  md += "| variable axes | " + (vars.empty() ? "none" : vars) + " |\n\n";
  std::string dsl_line, last;
  for (const auto &v : versions) {
    if (v.dsl == last) continue;
    dsl_line += (dsl_line.empty() ? "" : " -> ") + v.version + ":`" + v.dsl + "`";
    last = v.dsl;
  }
  md += "**DSL per version**: " + (dsl_line.empty() ? "no versions" : dsl_line) + "\n\n";
}

void coverage_section(std::string &md, const Inputs &in, const std::vector<VersionRow> &versions) {
  std::size_t commit = 0, memory = 0, both = 0, kept = 0, reverted = 0;
  for (const auto &v : versions) {
    commit += v.has_commit;
    memory += v.has_memory;
    both += v.has_commit && v.has_memory;
    kept += v.has_commit && !v.reverted;
    reverted += v.reverted;
  }
  std::vector<std::string> filtered;
  if (const auto *vars = in.meta_file.get("memory_variants").as_array())
    for (const auto &v : *vars) filtered.push_back(v.contains("suffix") ? v.string_or("suffix") : v.string_or("why"));
  md += "## Version coverage\n\n| source | count |\n|---|---|\n";
  md += "| versions (union) | " + std::to_string(in.rows.size()) + " |\n";
  md += "| with a commit | " + std::to_string(commit) + " |\n";
  md += "| with a step record | " + std::to_string(memory) + " |\n";
  md += "| with both | " + std::to_string(both) + " |\n";
  md += "| kept (committed, not reverted) | " + std::to_string(kept) + " |\n";
  md += "| reverted | " + std::to_string(reverted) + " |\n";
  md += "| profile directories | " + std::to_string(in.profiles.size()) + " |\n";
  md += "| filtered re-measurement/variant files | " + std::to_string(filtered.size()) + " |\n\n";
  std::string fallback;
  std::size_t fallbacks = 0;
  for (const auto &v : versions)
    if (v.geomean_source == "latency_us") {
      ++fallbacks;
      fallback += (fallback.empty() ? "" : ", ") + ("`" + v.version + "`");
    }
  if (fallbacks)
    md += "Geomean fallback: " + plural(fallbacks, "step record has", "step records have") +
          " no `performance.latency_us_geomean`; ingest used the producer template's `performance.latency_us` "
          "instead (" +
          fallback + ").\n\n";
  if (!filtered.empty())
    md +=
        "Filtered suffixes: " + join_counts(count_sorted(filtered), true) +
        ". Re-measurements and variants belong to an existing version, and unparseable or misnamed files name none, so "
        "none of them is a version of its own.\n\n";
}

void ladder_section(std::string &md, const Inputs &in, const std::vector<VersionRow> &versions,
                    const std::vector<LadderVerdict> &verdicts, const Sel &sel) {
  std::size_t improved = 0, regressed = 0;
  std::optional<double> prev;
  auto running = ladder::running_minimum(in.rows);
  for (const auto &v : versions) {
    auto x = v.geomean();
    if (!x) continue;
    if (prev && *x < *prev) ++improved;
    if (prev && *x > *prev) ++regressed;
    prev = *x;
  }
  md += "## The performance ladder\n\n";
  if (!in.picture_link.empty())
    md += "![The ladder: geomean latency per version, the best-so-far ratchet and how each version was judged](" +
          in.picture_link + ")\n\n";
  md += plural(improved, "step", "steps") + " improved on the previous measured version and " +
        std::to_string(regressed) +
        " regressed; step-to-step deltas are noise-prone, so only the best-so-far "
        "ratchet below selects versions.\n\n";
  if (!running.empty()) {
    double first = running.front().second, last = running.back().second;
    md += "- running minimum: " + std::to_string(running.size()) + " points, " + text::fixed(first, 2) + "us -> " +
          text::fixed(last, 2) + "us, " + text::fixed(first / last, 2) + "x\n- ";
    for (std::size_t i = 0; i < running.size(); ++i)
      md += (i ? " -> " : "") + ("`" + running[i].first + "` " + text::fixed(running[i].second, 1));
    md += "\n\n";
  }
  md += "Ratchet constants: a milestone beats the best-so-far by at least " +
        text::fixed(in.thresholds.milestone_pct, 1) + "%, a mega milestone by at least " +
        text::fixed(in.thresholds.mega_pct, 1) + "%, and a jump worse than " +
        text::fixed(in.thresholds.rebaseline_factor, 1) + "x is a harness re-baselining.\n\n";
  md += "| outcome | count |\n|---|---|\n";
  for (auto [name, n] :
       {std::pair{"baseline", sel.baseline}, {"mega", sel.mega}, {"milestone", sel.milestone}, {"final", sel.final_}})
    if (n) md += "| " + std::string(name) + " | " + std::to_string(n) + " |\n";
  md += "| **distillable milestones** | **" + std::to_string(sel.milestones() - sel.baseline) + "** |\n";
  md += "| distillable dead-end versions | " + std::to_string(sel.deadend) + " |\n";
  md += "| rejected | " + std::to_string(sel.rejected) + " |\n\n";
  std::size_t with_geo = 0, total = 0;
  std::vector<std::string> reasons;
  std::string table;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    const LadderVerdict &v = verdicts[i];
    if (v.reason) reasons.push_back(ladder::reason_group(*v.reason));
    const std::string &s = v.selection;
    if (!v.accepted()) continue;
    ++total;
    auto geo = versions[i].geomean();
    with_geo += geo.has_value();
    double imp = (s == "baseline" || s == "final") ? 0.0 : v.improve_pct.value_or(0.0);
    table += "| " + versions[i].version + " | " + s + " | " + (geo ? text::fixed(*geo, 2) : "-") + " | " +
             (imp != 0 ? text::fixed(imp, 2) + "%" : "-") + " | " + versions[i].dsl + " |\n";
  }
  if (total) {
    md += "| version | kind | geomean us | vs best-so-far | dsl |\n|---|---|---|---|---|\n" + table + "\n";
    md += std::to_string(with_geo) + " of " + std::to_string(total) + " milestones carry a geomean, so " +
          std::to_string(with_geo) + " records may claim `worth.gain.basis=measured`.\n\n";
  }
  if (!reasons.empty()) md += "Rejection reasons: " + join_counts(count_sorted(reasons), false) + "\n\n";
}

void failed_section(std::string &md, const std::vector<VersionRow> &versions, const Sel &sel) {
  std::size_t reverted = 0, lists = 0, items = 0, prose = 0;
  const VersionRow *last_list = nullptr;
  for (const auto &v : versions) {
    if (!v.reverted) continue;
    ++reverted;
    if (v.deadend_items && !v.deadend_items->empty()) {
      ++lists;
      items += v.deadend_items->size();
      last_list = &v;
    } else {
      ++prose;
    }
  }
  md += "## Failed experiments\n\n| | count |\n|---|---|\n";
  md += "| reverted versions | " + std::to_string(reverted) + " |\n";
  md += "| of those, list form | " + std::to_string(lists) + " |\n";
  md += "| items split out | " + std::to_string(items) + " |\n";
  md += "| prose form | " + std::to_string(prose) + " |\n";
  md += "| mined as dead-ends by the ladder | " + std::to_string(sel.deadend) + " |\n\n";
  if (lists) {
    md += "Average items per list subject: " + text::fixed(static_cast<double>(items) / lists, 1) + ". Items of `" +
          last_list->version + "`:\n\n";
    for (const auto &i : *last_list->deadend_items) md += "- " + value_text(json::Value(i)) + "\n";
    md += "\n";
  }
  if (reverted)
    md += "Prose share: " + text::fixed(100.0 * prose / reverted, 0) +
          "%. Every failed lever must still clear the established-fact bar (a checkable condition and a cause) "
          "to become a record.\n\n";
}

void profiler_section(std::string &md, const Inputs &in) {
  md += "## Profiler availability (decides whether `bottleneck` may be filled)\n\n";
  if (in.profiles.empty()) {
    md += "The trace has no profiler captures: no record may claim a profiler basis, and bottleneck fields stay "
          "null.\n\n";
    return;
  }
  std::vector<std::string> kernels;
  std::size_t usable = 0, reports = 0;
  std::string whitelist;
  for (const auto &row : in.profiles) {
    const auto p = workspace::CaptureRow::from_json(row);
    bool u = p.ncu_usable;
    std::string k = p.profiled_kernel.value_or("(no summary)");
    kernels.push_back(k + (u ? " (usable)" : ""));
    usable += u;
    reports += p.has_report;
    if (u) whitelist += "- `" + p.dir + "` -> " + k + "\n";
  }
  md += "| profiled kernel | directories |\n|---|---|\n";
  for (const auto &[k, n] : count_sorted(kernels)) md += "| " + k + " | " + std::to_string(n) + " |\n";
  std::string non_target;
  for (const auto &k : in.non_target_kernels) non_target += (non_target.empty() ? "" : ", ") + ("`" + k + "`");
  md += "\nUsable: " + std::to_string(usable) + " of " + std::to_string(in.profiles.size()) + " directories (" +
        text::fixed(100.0 * usable / std::max<std::size_t>(1, in.profiles.size()), 0) +
        "%); a capture is usable when it profiled a kernel other than the non-target kernels (" +
        (non_target.empty() ? "none" : non_target) + ").\n\n";
  if (!whitelist.empty()) md += whitelist + "\n";
  md += std::to_string(reports) + " directories have a `REPORT.md`.\n\n";
}

void overlap_section(std::string &md, const Inputs &in) {
  const std::string &slug = in.meta.operator_slug, &family = in.meta.workload_family;
  const std::string &label = in.meta.source_repo;
  md += "## Overlap with the live store\n\n";
  if (!in.live) {
    md += "No live store configured (`--live DIR` / `RTM_LIVE`): overlap not checked; partition will number ids "
          "from the staging store alone.\n\n";
    return;
  }
  md += "Scanned `" + *in.live + "` (" + std::to_string(in.live_entries.size()) + " records).\n\n";
  if (in.coverage.records()) {
    md += std::to_string(in.coverage.records()) + " live records already cover `" + slug + "`.\n\n";
    md += "| source trace | records | versions |\n|---|---|---|\n";
    for (const auto &[source, recs] : in.coverage.by_source) {
      std::vector<std::string> vers;
      for (const auto &r : recs)
        if (!r.version.empty()) vers.push_back(r.version);
      auto num = [](const std::string &v) {
        std::string d;
        for (char c : v)
          if (c >= '0' && c <= '9') d += c;
        return d.empty() || d.size() > 9 ? 0L : std::stol(d);
      };
      std::stable_sort(vers.begin(), vers.end(), [&](auto &a, auto &b) { return num(a) < num(b); });
      vers.erase(std::unique(vers.begin(), vers.end()), vers.end());
      std::string vs;
      for (const auto &v : vers) vs += (vs.empty() ? "" : ", ") + v;
      md += "| " + source + " | " + std::to_string(recs.size()) + " | " + (vs.empty() ? "-" : vs) + " |\n";
    }
    bool mine = std::any_of(in.coverage.by_source.begin(), in.coverage.by_source.end(),
                            [&](auto &g) { return g.first == label; });
    md += mine ? "\nThis trace is already represented: prefer confirm over insert for what it repeats.\n\n"
               : "\nIndependent run: its percentages use its own baseline, so records should mark the gain as not "
                 "comparable and explain why in the note.\n\n";
  } else {
    md += "The namespace is empty: the live store holds no record of `" + slug + "`.\n\n";
  }
  std::vector<std::string> episodes, family_types;
  record::IdNamespace ns{slug, family};
  std::map<char, long> maxima;
  for (const auto &e : in.live_entries) {
    const auto view = store::RecordView::shown(e);
    if (view.scope.operator_family.value_or("") == slug && view.episode_key) episodes.push_back(*view.episode_key);
    std::string id = view.id.value_or("");
    if (view.workload_family.value_or("") == family || id.find("." + family + ".anti.") != std::string::npos)
      family_types.push_back(view.type.value_or("(untyped)"));
    if (ns.contains(id))
      if (auto d = record::parse_discriminator(id)) maxima[d->marker] = std::max<long>(maxima[d->marker], d->number);
  }
  if (!episodes.empty()) {
    auto c = count_sorted(episodes);
    md += "Episode keys already present:\n\n";
    for (std::size_t i = 0; i < c.size() && i < 12; ++i)
      md += "- `" + c[i].first + "`" + (c[i].second > 1 ? " x" + std::to_string(c[i].second) : "") + "\n";
    md += "\n";
  }
  std::sort(family_types.begin(), family_types.end());
  std::string hist;
  for (const auto &[t, n] : count_sorted(family_types))
    hist += (hist.empty() ? "" : ", ") + t + "=" + std::to_string(n);
  md += "Family `" + family + "` overall: " + (hist.empty() ? "no records" : hist) + ".\n\n";
  std::string seeds;
  for (const auto &[letter, n] : maxima)
    seeds += (seeds.empty() ? "" : ", ") + ("`" + std::string(1, letter) + "`->" + two(n));
  md += "Highest id suffix per marker in this operator's namespace: " + (seeds.empty() ? "none" : seeds) + ".\n\n";
}

void conclusion_section(std::string &md, const Inputs &in, const std::vector<VersionRow> &versions,
                        const std::vector<LadderVerdict> &verdicts, const Sel &sel) {
  std::size_t items = 0, prose = 0, usable = 0, megas = 0, megas_with_snapshot = 0, with_geo = 0;
  for (std::size_t i = 0; i < versions.size(); ++i) {
    const VersionRow &v = versions[i];
    const std::string &s = verdicts[i].selection;
    if (s == "deadend") {
      if (v.deadend_items && !v.deadend_items->empty())
        items += v.deadend_items->size();
      else
        ++prose;
    }
    if (s == "mega") {
      ++megas;
      if (in.snapshot_exists && in.snapshot_exists(workspace::snapshot_path(v.version, in.meta.kernel_file)))
        ++megas_with_snapshot;
    }
    if (verdicts[i].accepted() && v.geomean()) ++with_geo;
  }
  for (const auto &p : in.profiles) usable += p.get("ncu_usable").truthy();
  std::size_t refk = sel.milestones() ? 1 + (in.snapshot_exists ? megas_with_snapshot : megas) : 0;
  md += "## Conclusion\n\nExpected yield, before distillation and gates:\n\n";
  md += "- strategy: " + std::to_string(sel.milestones() - sel.baseline) + "\n";
  md += "- anti-strategy: up to " + std::to_string(items + prose) + " (" + std::to_string(items) + " list items + " +
        std::to_string(prose) + " prose versions), plus curated pitfalls\n";
  md += "- reference-kernel: up to " + std::to_string(refk) +
        (in.snapshot_exists ? " (the final kernel and the mega milestones with a snapshot)\n"
                            : " (the final kernel and every mega milestone)\n");
  md += "\n" + plural(usable, "usable capture directory", "usable capture directories") +
        " can back a profiler claim; " + std::to_string(with_geo) +
        " milestones with a geomean may claim `basis=measured` (anti-strategies: `qualitative`).\n";
}

} // namespace

std::string report(const Inputs &in) {
  const auto verdicts = workspace::read_ladder_verdicts(in.rows, "work/ladder.jsonl");
  Sel sel = selections(verdicts);
  std::string md = "# Recon: " + in.meta.operator_name + "\n\n";
  // What the run achieved, first: the ratchet's verdict, before any count.
  md += ladder::ratchet_verdict(in.rows, in.meta) + "\n\n";
  md += "Counts only, from `work/` and the live store; no model was involved and nothing is decided here.\n\n";
  const auto versions = workspace::read_version_rows(in.rows, "work/ladder.jsonl");
  what_it_is(md, in, versions);
  coverage_section(md, in, versions);
  ladder_section(md, in, versions, verdicts, sel);
  failed_section(md, versions, sel);
  profiler_section(md, in);
  overlap_section(md, in);
  conclusion_section(md, in, versions, verdicts, sel);
  return md;
}

std::string console_summary(const Inputs &in, const std::string &report_path, std::size_t report_lines) {
  Sel sel = selections(workspace::read_ladder_verdicts(in.rows, "work/ladder.jsonl"));
  std::size_t usable = 0;
  for (const auto &p : in.profiles) usable += p.get("ncu_usable").truthy();
  std::string out = "recon -> " + report_path + " (" + std::to_string(report_lines) + " lines)\n";
  out += "  milestones " + std::to_string(sel.milestones()) + ", dead-ends " + std::to_string(sel.deadend) +
         ", rejected " + std::to_string(sel.rejected) + "\n";
  out += "  usable captures " + std::to_string(usable) + " of " + std::to_string(in.profiles.size()) + "\n";
  out += in.live ? "  live records scanned " + std::to_string(in.live_entries.size()) + ", covering the operator " +
                       std::to_string(in.coverage.records()) + "\n"
                 : std::string("  no live store configured\n");
  return out;
}

} // namespace otm::recon
