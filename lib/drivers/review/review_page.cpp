#include "review/review_page.hpp"

#include <map>
#include <set>

#include "gates/record_text.hpp"
#include "io/file.hpp"
#include "report/quality_report.hpp"
#include "store/record_view.hpp"
#include "store/refusal_row.hpp"
#include "store/staged_reports.hpp"
#include "text/markup.hpp"
#include "text/printable.hpp"
#include "text/utf8.hpp"
#include "workspace/layout.hpp"
#include "workspace/trace_meta.hpp"
#include "workspace/work_files.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::review {

namespace fs = std::filesystem;
using text::xml_escape;

namespace {

const char *kStyle = R"(
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 24px; color: #222; background: #fff; max-width: 1280px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin: 0 0 6px 0; word-break: break-all; }
h3 { font-size: 14px; margin: 14px 0 4px 0; }
.muted { color: #666; } .summary td, .summary th { padding: 2px 10px; text-align: left; }
table { border-collapse: collapse; font-size: 13px; } td, th { border-bottom: 1px solid #e4e4e4; vertical-align: top; padding: 3px 8px; }
th { background: #f3f3f3; }
.record { border: 1px solid #ccc; border-radius: 6px; padding: 12px 16px; margin: 18px 0; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; background: #e8eef8; margin-right: 6px; }
.chip { display: inline-block; font-size: 11px; padding: 1px 7px; margin: 2px 3px 2px 0; border-radius: 3px; border: 1px solid; }
.chip.pass { color: #1b7f3b; background: #eef8f0; } .chip.fail { color: #b3261e; background: #fdeceb; }
.chip.not-run { color: #8a6d00; background: #fdf6dc; } ul.findings { font-size: 13px; color: #b3261e; }
.pass { color: #1b7f3b; font-weight: bold; } .fail { color: #b3261e; font-weight: bold; } .not-run { color: #8a6d00; font-weight: bold; }
.fields td:first-child { color: #555; white-space: nowrap; font-family: monospace; }
pre.diff { font-size: 12px; background: #fafafa; border: 1px solid #e0e0e0; padding: 6px; overflow-x: auto; line-height: 1.35; }
pre.diff span { display: block; white-space: pre; }
.add { background: #e6f6e8; } .del { background: #fbe9e9; } .hunk { color: #6a4fb0; } .hdr { color: #888; }
.quoted { outline: 2px solid #f2c01e; background: #fff5cc; }
figure { margin: 12px 0; overflow-x: auto; } figcaption { font-size: 12px; color: #555; }
details summary { cursor: pointer; color: #1f4e99; font-size: 13px; }
.signals { border: 1px solid #e0d7b8; background: #fffdf5; border-radius: 4px; padding: 4px 8px; margin: 6px 0; }
.signals td.state { font-weight: bold; white-space: nowrap; } .signals tr.warn td.state { color: #a15c00; }
.signals tr.ok td.state { color: #1b7f3b; } .signals tr.not-read td.state { color: #888; font-weight: normal; }
)";

// No script of any origin, nothing fetched: the page is inline CSS and SVG
// (issue 27; a browser that honours it runs nothing even if markup slipped in).
const char *kContentSecurityPolicy =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
    "img-src data:; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'\">";

// Leaves of `v` as (dotted path, text), skipping code keys.
void leaves(const json::Value &v, const std::string &path, std::vector<std::pair<std::string, std::string>> &out) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o)
      if (!gates::is_code_key(k)) leaves(child, path.empty() ? k : path + "." + k, out);
  } else if (const auto *a = v.as_array()) {
    if (a->empty()) return;
    bool scalars = true;
    for (const auto &e : *a) scalars = scalars && !e.is_object() && !e.is_array();
    if (scalars) {
      std::string joined;
      for (const auto &e : *a)
        joined += (joined.empty() ? "" : " | ") + (e.is_string() ? *e.as_string() : e.python_str());
      out.emplace_back(path, joined);
    } else {
      for (std::size_t i = 0; i < a->size(); ++i) leaves((*a)[i], path + "[" + std::to_string(i) + "]", out);
    }
  } else if (!v.is_null()) {
    out.emplace_back(path, v.is_string() ? *v.as_string() : v.python_str());
  }
}

std::string fields_table(const json::Value &record) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const char *k : {"payload", "worth", "evidence"}) leaves(record.get(k), k, rows);
  std::string s = "<table class=\"fields\">\n";
  for (const auto &[path, value] : rows)
    s += "<tr><td>" + xml_escape(path) + "</td><td>" + xml_escape(value) + "</td></tr>\n";
  return s + "</table>\n";
}

// One chip per gate (green pass, red fail, amber not run), the findings
// of failed gates listed under them.
std::string verdicts_table(const std::vector<GateOutcome> &gates, const gates::RecordEntry &r) {
  std::string chips, findings;
  for (const auto &g : gates) {
    Verdict v = verdict_for(g, r);
    std::string label = v.state == "pass" ? "PASS" : v.state == "fail" ? "FAIL" : "NOT RUN";
    chips += "<span class=\"chip " + v.state + "\" data-gate=\"" + xml_escape(g.gate->name) + "\" data-verdict=\"" +
             v.state + "\" title=\"" + label + "\">" + xml_escape(g.gate->name) + " " + label + "</span>\n";
    if (v.state != "pass")
      for (const auto &m : v.messages)
        findings += "<li><b>" + xml_escape(g.gate->name) + "</b>: " + xml_escape(m) + "</li>\n";
  }
  return "<div class=\"verdicts\">\n" + chips + "</div>\n" +
         (findings.empty() ? std::string() : "<ul class=\"findings\">\n" + findings + "</ul>\n");
}

// The packet's code with every line the record quotes highlighted.
std::string code_block(const json::Value &record, const gates::PacketEntry *packet) {
  std::set<std::string> quoted;
  for (const auto &[field, text] : gates::quoted_code(record)) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
      auto nl = text.find('\n', pos);
      std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
      if (auto n = gates::collapse_whitespace(line); !n.empty()) quoted.insert(n);
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
  }
  if (!packet || packet->code_text.empty()) {
    if (quoted.empty()) return "<p class=\"muted\">No code: the record quotes none and no packet carries any.</p>\n";
    return "<p class=\"muted\">No packet in the workspace carries this record's code; the lines it quotes:</p>\n"
           "<pre class=\"diff\">" +
           xml_escape(gates::quoted_code(record).front().second) + "</pre>\n";
  }
  const std::string &code = packet->code_text;
  std::string s = "<pre class=\"diff\">";
  std::size_t pos = 0, marked = 0;
  while (pos < code.size()) {
    auto nl = code.find('\n', pos);
    std::string_view line(code.data() + pos, (nl == std::string::npos ? code.size() : nl) - pos);
    std::string cls;
    if (line.starts_with("@@"))
      cls = "hunk";
    else if (line.starts_with("diff --git") || line.starts_with("index ") || line.starts_with("--- ") ||
             line.starts_with("+++ "))
      cls = "hdr";
    else if (line.starts_with("+"))
      cls = "add";
    else if (line.starts_with("-"))
      cls = "del";
    bool is_quoted = cls != "hunk" && cls != "hdr" &&
                     (quoted.count(gates::collapse_whitespace(line)) ||
                      (!line.empty() && quoted.count(gates::collapse_whitespace(line.substr(1)))));
    if (is_quoted) ++marked, cls += cls.empty() ? "quoted" : " quoted";
    s += "<span" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">" + xml_escape(line) + "</span>";
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return "<p class=\"muted\">" + xml_escape(packet->file) + " &mdash; " + std::to_string(marked) +
         " line(s) quoted by the record are highlighted.</p>\n" + s + "</pre>\n";
}

// A record's quality signals: one row each, its state and why. Facts
// that say what to read first; they decide nothing.
std::string signals_box(const report::RecordSignals *q) {
  if (!q) return "";
  std::string s = "<h3>Quality signals (" + std::to_string(q->warnings()) +
                  " warning(s); they decide nothing)</h3>\n<table class=\"signals\">\n";
  for (const auto &sig : q->signals) {
    std::string state = report::state_name(sig.state);
    std::string label = sig.state == report::SignalState::Warn ? "warn"
                        : sig.state == report::SignalState::Ok ? "ok"
                                                               : "not read";
    s += "<tr class=\"" + state + "\" data-signal=\"" + xml_escape(sig.name) + "\" data-state=\"" + state + "\"><td>" +
         xml_escape(sig.name) + "</td><td class=\"state\">" + label + "</td><td>" + xml_escape(sig.reason) +
         "</td></tr>\n";
  }
  return s + "</table>\n";
}

// The records in the order to read them (most warnings first), by id (not
// a link: the page links nothing).
std::string read_first_section(const report::QualityReport &q) {
  std::string s = "<section id=\"quality\">\n<h2>Read first</h2>\n<p class=\"muted\">The records with the most "
                  "quality-signal warnings first. The signals are facts read from each record and its packet; they "
                  "decide nothing (the gates decide what is staged), and a warned record may be right.";
  if (q.without_packet)
    s += " No packet was found for " + std::to_string(q.without_packet) +
         " record(s) (give --workspace): their code signals are not read.";
  s += "</p>\n<table class=\"summary\" id=\"read-first\">\n<tr><th>read</th><th>record</th>"
       "<th>warnings</th><th>signals that warn</th></tr>\n";
  for (std::size_t i = 0; i < q.records.size(); ++i) {
    const auto &r = q.records[i];
    std::string warned;
    for (const auto &sig : r.signals)
      if (sig.state == report::SignalState::Warn) warned += (warned.empty() ? "" : ", ") + sig.name;
    s += "<tr data-record-id=\"" + xml_escape(r.id) + "\" data-warnings=\"" + std::to_string(r.warnings()) + "\"><td>" +
         std::to_string(i + 1) + "</td><td>" + xml_escape(r.id.empty() ? r.file : r.id) + "</td><td>" +
         std::to_string(r.warnings()) + "</td><td>" + xml_escape(warned) + "</td></tr>\n";
  }
  return s + "</table>\n</section>\n";
}

std::string record_section(const gates::RecordEntry &r, std::size_t n, const PageInputs &in,
                           const report::RecordSignals *signals) {
  std::string id = r.id().empty() ? r.file : r.id();
  std::string s = "<section class=\"record\" id=\"record-" + std::to_string(n) + "\" data-record-id=\"" +
                  xml_escape(id) + "\">\n<h2>" + xml_escape(id) + "</h2>\n";
  if (!r.parse_error.empty())
    return s + "<p class=\"fail\">Does not parse: " + xml_escape(r.parse_error) + "</p>\n" +
           verdicts_table(in.gates, r) + "</section>\n";
  const auto &rec = r.record;
  const auto &rank = rec.get("worth").get("rank");
  const auto view = store::RecordView::shown(rec); // as staged, a refused record too
  s += "<p><span class=\"badge\">" + xml_escape(view.type.value_or("")) + "</span><span class=\"badge\">tier " +
       xml_escape(view.tier.value_or("?")) + "</span><span class=\"badge\">score " +
       xml_escape(rank.get("score").is_null() ? "?" : rank.get("score").python_str()) +
       "</span><span class=\"muted\">" + xml_escape(r.file) + "</span></p>\n";
  s += "<h3>Gate verdicts</h3>\n" + verdicts_table(in.gates, r);
  s += signals_box(signals);
  s += "<h3>Fields</h3>\n" + fields_table(rec);
  s += "<h3>Code</h3>\n" + code_block(rec, gates::find_packet(*in.context, rec).packet);
  s += "<details><summary>The record as stored (JSON)</summary><pre>" + xml_escape(json::to_pretty(rec)) +
       "</pre></details>\n";
  return s + "</section>\n";
}

std::string refusals_section(const store::StagedReports &reports) {
  const auto &rows = reports.refusals;
  std::string s = "<section id=\"refusals\">\n<h2>Refused packets (" + std::to_string(rows.size()) + ")</h2>\n";
  for (const auto &p : reports.problems) s += "<p class=\"fail not-read\">Not read: " + xml_escape(p) + "</p>\n";
  if (rows.empty()) return s + "<p class=\"muted\">No refusal ledger records a refused packet.</p>\n</section>\n";
  s += "<table>\n<tr><th>segment</th><th>type</th><th>gate</th><th>refused field</th><th>why</th></tr>\n";
  for (const auto &line : rows) {
    const auto r = store::RefusalRow::from_json(line);
    s += "<tr class=\"refusal\" data-seg-id=\"" + xml_escape(r.seg_id) + "\"><td>" + xml_escape(r.seg_id) +
         "</td><td>" + xml_escape(r.record_type) + "</td><td>" + xml_escape(r.gate.value_or("-")) + "</td><td>" +
         xml_escape(r.refused.value_or("-")) + "</td><td>" + xml_escape(r.why) + "</td></tr>\n";
  }
  return s + "</table>\n</section>\n";
}

// The ladder, drawn here from the rows (report::ladder_svg escapes every
// text it writes); the store's own pictures are named, never inlined.
std::string ladders_section(const PageInputs &in, const store::StagedReports &reports) {
  std::string s;
  if (in.ladder) {
    std::string svg = report::ladder_svg(*in.ladder);
    if (svg.starts_with("<?xml")) svg = svg.substr(svg.find('\n') + 1);
    s += "<figure class=\"ladder\">\n" + svg + "<figcaption>drawn from " + xml_escape(in.ladder_source) +
         "</figcaption>\n</figure>\n";
  } else {
    s += "<p class=\"muted\">No ladder picture: " + xml_escape(in.ladder_source) + ".</p>\n";
  }
  if (!reports.ladder_slugs.empty()) {
    std::string names;
    for (const auto &slug : reports.ladder_slugs)
      names += (names.empty() ? "" : ", ") +
               workspace::StagingStore::report_relpath(text::escape_controls(slug),
                                                       workspace::StagingStore::kLadderPictureFileName);
    s += "<p class=\"muted staged-pictures\">The store's own picture(s), not embedded (a staged file is not "
         "trusted markup; open it as an image): " +
         xml_escape(names) + "</p>\n";
  }
  return "<section id=\"ladder\">\n<h2>The ladder</h2>\n" + s + "</section>\n";
}

} // namespace

std::optional<report::LadderPicture> workspace_ladder(const fs::path &ws, const config::Config &config,
                                                      std::string *why) {
  const workspace::Workspace w{ws};
  if (!io::is_regular_file(w.ladder_file())) {
    if (why) *why = "no " + w.ladder_file().string() + " (run otm-ladder)";
    return std::nullopt;
  }
  try {
    report::LadderPicture pic;
    pic.rows = workspace::read_ladder_rows(w.ladder_file().string(), config.limits());
    if (io::is_regular_file(w.meta_file()))
      pic.title = workspace::TraceMeta::from_json(workspace::read_meta(w.meta_file()).get("meta")).operator_name;
    pic.thresholds = config.ladder();
    if (why) *why = w.ladder_file().string();
    return pic;
  } catch (const std::exception &e) {
    if (why) *why = std::string("the work files are unreadable: ") + e.what();
    return std::nullopt;
  }
}

std::vector<GateOutcome> run_all_gates(const gates::Context &ctx) {
  std::vector<GateOutcome> out;
  for (const auto &g : gates::all_gates()) out.push_back({&g, gates::run_gate(g, ctx)});
  return out;
}

Verdict verdict_for(const GateOutcome &g, const gates::RecordEntry &r) {
  Verdict v{"pass", {}};
  if (g.result.crashed || g.result.note == "cannot run") {
    v.state = "not-run";
    for (const auto &f : g.result.findings) v.messages.push_back(f.message);
    return v;
  }
  for (const auto &f : g.result.findings)
    if ((!f.file.empty() && f.file == r.file) || (f.file.empty() && !f.record.empty() && f.record == r.id())) {
      v.state = "fail";
      v.messages.push_back(f.message + (f.token.empty() ? "" : " [" + f.token + "]"));
    }
  return v;
}

std::string review_page(const PageInputs &in) {
  const gates::Context &ctx = *in.context;
  std::string store = ctx.store_root ? ctx.store_root->string() : "<records>";
  std::map<std::string, std::size_t> types;
  for (const auto &r : ctx.records) ++types[store::RecordView::shown(r.record).type.value_or("unparseable")];
  std::string s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
                  std::string(kContentSecurityPolicy) + "\n<title>otm review: " + xml_escape(store) +
                  "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  s += "<h1>Review of a staging store</h1>\n<p class=\"muted\">" + xml_escape(store) +
       " &mdash; written by otm-review; nothing here is in the live store until otm-wiki-gate admits it.</p>\n";
  std::string counts;
  for (const auto &[t, n] : types) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + t;
  s += "<p id=\"counts\">" + std::to_string(ctx.records.size()) + " record(s)" +
       (counts.empty() ? "" : ": " + xml_escape(counts)) + "</p>\n";
  // The gates at a glance.
  s += "<table class=\"summary\" id=\"gates\">\n<tr><th>gate</th><th>verdict</th><th>note</th></tr>\n";
  for (const auto &g : in.gates) {
    std::string state = g.result.crashed || g.result.note == "cannot run" ? "not-run"
                        : g.result.passed()                               ? "pass"
                                                                          : "fail";
    std::string label = state == "pass"   ? "PASS"
                        : state == "fail" ? "FAIL (" + std::to_string(g.result.findings.size()) + ")"
                                          : "NOT RUN";
    std::string note =
        state == "not-run" && !g.result.findings.empty() ? g.result.findings.front().message : g.result.note;
    s += "<tr data-gate=\"" + xml_escape(g.gate->name) + "\" data-verdict=\"" + state + "\"><td>" +
         xml_escape(g.gate->name) + "</td><td class=\"" + state + "\">" + label + "</td><td>" + xml_escape(note) +
         "</td></tr>\n";
  }
  s += "</table>\n";
  const auto reports = ctx.store_root ? store::read_staged_reports(*ctx.store_root, in.limits) : store::StagedReports{};
  s += ladders_section(in, reports);
  const auto quality = report::quality_report(ctx, in.quality);
  std::vector<const report::RecordSignals *> by_entry(ctx.records.size(), nullptr);
  for (const auto &q : quality.records) by_entry[q.entry] = &q;
  if (!quality.records.empty()) s += read_first_section(quality);
  s += "<section id=\"records\">\n<h2>Records</h2>\n";
  for (std::size_t i = 0; i < ctx.records.size(); ++i) s += record_section(ctx.records[i], i + 1, in, by_entry[i]);
  s += "</section>\n";
  if (ctx.store_root) s += refusals_section(reports);
  s += "</body>\n</html>\n";
  return s;
}

} // namespace otm::review
