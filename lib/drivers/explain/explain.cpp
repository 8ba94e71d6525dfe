#include "explain/explain.hpp"

#include <cmath>
#include <set>

#include "explain/code_lines.hpp"
#include "explain/sources.hpp"
#include "gates/record_numbers.hpp"
#include "gates/record_text.hpp"
#include "io/file.hpp"
#include "store/record_view.hpp"
#include "text/pyformat.hpp"
#include "trace/step_record.hpp"
#include "workspace/ladder_verdict.hpp"
#include "workspace/layout.hpp"
#include "workspace/packet_provenance.hpp"
#include "workspace/trace_meta.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::explain {

namespace {

std::string short_sha(const std::string &sha) { return sha.substr(0, 12); }
std::string num(const json::Value &v) { return v.is_null() ? "null" : v.python_str(); }
std::string num(std::optional<double> v) { return num(json::Value(v)); }

// "memory/v5.json performance.latency_us_geomean" for a row's geomean.
std::string geomean_origin(const workspace::VersionRow *row) {
  std::string path = row ? trace::step_record_path("geomean_us", row->geomean_source.value_or("")) : "";
  if (path.empty()) return "no step record";
  return "memory/" + row->memory_file + " " + path;
}

Provenance provenance_of(const store::RecordView &record, const TraceModel &m, std::vector<std::string> &unexplained) {
  Provenance p;
  p.label = record.source_repo.value_or("");
  p.version = record.version.value_or("");
  p.commit = record.git_commit.value_or("");
  p.trace_label = m.location().label;
  if (p.label != p.trace_label)
    unexplained.push_back("evidence.raw.source_repo '" + p.label + "' is not this trace (" + p.trace_label + ")");
  const json::Value *row = m.row(p.version);
  if (!row) {
    unexplained.push_back("evidence.raw.version '" + p.version + "' is not a version of the trace");
  } else {
    const workspace::VersionRow &v = *m.version_row(p.version);
    p.verdict = !v.has_commit ? "no commit" : v.reverted ? "reverted" : "kept";
  }
  if (p.commit.empty()) {
    unexplained.push_back("evidence.raw.git_commit is missing");
    return p;
  }
  try {
    p.resolves = p.commit.size() == 40 && m.repo().has_commit(p.commit);
  } catch (const std::exception &) {
    p.resolves = false;
  }
  for (const auto &c : m.commits().of(p.version))
    if (c.sha == p.commit) {
      p.in_history = true;
      p.subject = c.subject;
      p.date = c.author_date;
    }
  if (!p.resolves)
    unexplained.push_back("evidence.raw.git_commit " + p.commit + " does not resolve in the trace");
  else if (!p.in_history) {
    std::string owner = m.commits().version_of(p.commit);
    unexplained.push_back("evidence.raw.git_commit " + short_sha(p.commit) +
                          (owner.empty() ? std::string(" is not a commit of the trace's history")
                                         : " is a commit of " + owner + ", not of " + p.version));
  }
  return p;
}

LadderDecision decision_of(const json::Value &row, const workspace::VersionRow &version,
                           const config::LadderThresholds &t) {
  const auto verdict = workspace::LadderVerdict::from_json(row).value();
  LadderDecision d;
  d.version = version.version;
  d.selection = verdict.selection;
  d.reason = verdict.reason.value_or("");
  const auto &geo = version.geomean_us;
  const auto best = verdict.best_before_us, imp = verdict.improve_pct;
  std::string vs = "the best-so-far " + num(best) + " us (" + verdict.best_before_version.value_or("") + ")";
  std::string measured = num(geo) + " us (" + geomean_origin(&version) + ")";
  if (d.selection == "baseline") {
    d.text =
        "baseline: the first version with a usable geomean and a commit, " + measured + "; it sets the best-so-far";
  } else if (d.selection == "milestone" || d.selection == "mega") {
    d.text = d.selection + ": " + measured + " is " + num(imp) + "% below " + vs + "; " + num(imp) +
             "% >= milestone_pct " + text::fixed(t.milestone_pct, 1) + "%" +
             (d.selection == "mega" ? " and >= mega_pct " + text::fixed(t.mega_pct, 1) + "%"
                                    : " and < mega_pct " + text::fixed(t.mega_pct, 1) + "%");
  } else if (d.selection == "final") {
    d.text = "final: " + measured + " holds the floor (the best-so-far after the run, " + num(verdict.best_after_us) +
             " us, x final_tolerance " + text::fixed(t.final_tolerance, 4) +
             "), the latest version that does; judged on its own: " + (d.reason.empty() ? "accepted" : d.reason);
  } else if (d.selection == "deadend") {
    d.text = "dead-end: reverted, and its text is longer than deadend_min_chars (" +
             std::to_string(t.deadend_min_chars) + "), so its failed lever is mined";
  } else {
    d.text = "rejected: " + d.reason + (best ? "; compared with " + vs : "");
  }
  return d;
}

// How the ladder's improvement follows from the two geomeans: the
// ladder's verdict in `row`, the version's own fields in `mine`.
std::string improve_derivation(const TraceModel &m, const json::Value &row, const workspace::VersionRow &mine,
                               std::string &problem) {
  const auto verdict = workspace::LadderVerdict::from_json(row).value();
  const std::string &version = mine.version;
  const auto &geo = mine.geomean_us;
  auto g = geo.as_number(), b = verdict.best_before_us, imp = verdict.improve_pct;
  if (!g || !b || !imp || *b == 0) {
    problem = "the ladder compared " + version + " with no best-so-far: nothing to derive";
    return "";
  }
  const std::string before_version = verdict.best_before_version.value_or("");
  const workspace::VersionRow *before = m.version_row(before_version);
  double recomputed = text::round_to((*b - *g) / *b * 100.0, 2);
  if (std::fabs(recomputed - *imp) > 1e-9)
    problem = "the ladder's improvement " + num(imp) + " does not follow from its geomeans";
  return "(best_before - geomean) / best_before x 100 = (" + num(b) + " - " + num(geo) + ") / " + num(b) +
         " x 100 = " + text::fixed(recomputed, 2) + " (rounded to 2 places); " + num(b) + " us is " + before_version +
         "'s geomean (" + (before ? geomean_origin(before) : "?") + "), " + num(geo) + " us is " + version + "'s (" +
         geomean_origin(&mine) + "); the best-so-far ratchet of lib/ingest/ladder";
}

std::string one_line(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

// The source text around the first number of `text` sharing a key with `keys`.
std::string excerpt(const std::string &text, const std::vector<std::string> &keys) {
  for (const auto &t : gates::number_tokens(text))
    for (const auto &k : t.keys)
      if (std::find(keys.begin(), keys.end(), k) != keys.end()) {
        std::size_t from = t.offset > 50 ? t.offset - 50 : 0;
        std::size_t to = std::min(text.size(), t.offset + t.text.size() + 50);
        while (from > 0 && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) --from;
        while (to < text.size() && (static_cast<unsigned char>(text[to]) & 0xC0) == 0x80) ++to;
        return (from ? "..." : "") + one_line(text.substr(from, to - from)) + (to < text.size() ? "..." : "");
      }
  return "";
}

bool shares_key(const std::string &text, const std::vector<std::string> &keys) {
  std::set<std::string> have;
  gates::number_keys(text, have);
  for (const auto &k : keys)
    if (have.count(k)) return true;
  return false;
}

struct PacketScalar {
  std::string path, text;
};

class NumberExplainer {
public:
  NumberExplainer(const TraceModel &m, const json::Value &segment, const packet::Built &built)
      : m_(m), typed_(m.typed(segment)), built_(built),
        provenance_(built.provenance), ctx_{m, typed_, built.packet, provenance_} {
    for (const char *layer : gates::kPacketNumberLayers)
      gates::walk_scalars(built.packet.get(layer), layer, false, [&](const std::string &p, const json::Value &v, bool) {
        if (v.is_string() || v.is_number()) scalars_.push_back({p, text_of_value(v)});
      });
  }

  NumberOrigin explain(const std::string &field, const std::string &value_text, const gates::NumberToken &tok,
                       bool numeric) const {
    NumberOrigin o;
    o.field = field;
    o.number = tok.text;
    const PacketScalar *pick = choose(value_text, tok, numeric);
    if (!pick) return from_code(o, tok);
    o.packet_path = pick->path;
    auto sources = sources_of(pick->path, ctx_);
    for (const auto &s : sources) {
      if (s.kind == "otm") continue;
      if (!shares_key(s.text, tok.keys)) continue;
      o.source = s;
      o.quote = excerpt(s.text, tok.keys);
      if (s.kind == "ladder")
        o.derivation = improve_derivation(m_, *m_.row(typed_.version), *m_.version_row(typed_.version), o.problem);
      if (s.kind == "workload") o.derivation = "counted by otm-ingest: the non-blank lines of workload.jsonl";
      if (s.kind == "label")
        o.derivation = "a shape label the scrubber allocated for a workload key: it numbers shapes, it measures "
                       "nothing";
      if (s.kind == "shape-change") o.derivation = shape_change_derivation(pick->path, o.problem);
      if (s.kind == "geomean-change") o.derivation = geomean_change_derivation(pick->path, o.problem);
      return o;
    }
    if (!sources.empty() && sources.front().kind == "otm")
      o.problem = "only in otm's own text (" + pick->path + "), not in the trace";
    else if (sources.empty())
      o.problem = "in the packet's " + pick->path + ", whose trace source is gone";
    else
      o.problem = "in the packet's " + pick->path + " but not in its trace source (" + sources.front().file + " " +
                  sources.front().locator + ")";
    return o;
  }

private:
  const TraceModel &m_;
  const workspace::Segment &typed_;
  const packet::Built &built_;
  workspace::PacketProvenance provenance_;
  SourceContext ctx_;
  std::vector<PacketScalar> scalars_;

  // The packet field a number was taken from: one holding the widest run of
  // the record's text around the number; for a bare numeric value, the
  // measurements first.
  const PacketScalar *choose(const std::string &value_text, const gates::NumberToken &tok, bool numeric) const {
    std::vector<const PacketScalar *> with;
    for (const auto &s : scalars_)
      if (shares_key(s.text, tok.keys)) with.push_back(&s);
    if (with.empty()) return nullptr;
    // The number of a shape label ("(shape-4)") is the label's, not a
    // number some packet text also holds ("(4)").
    if (tok.offset >= 6 && value_text.compare(tok.offset - 6, 6, "shape-") == 0)
      for (const auto *s : with)
        if (s->path.ends_with(".shape") && s->text == "shape-" + tok.text) return s;
    // Around the number, then the number and what follows it, then what
    // precedes it and the number: a record joins packet texts ("...; "),
    // so the widest window may straddle two of them.
    for (std::size_t w : {40, 24, 12}) {
      if (numeric) break;
      std::size_t from = tok.offset > w ? tok.offset - w : 0;
      std::size_t end = std::min(value_text.size(), tok.offset + tok.text.size() + w);
      for (auto [b, e] : {std::pair{from, end}, std::pair{tok.offset, end},
                          std::pair{from, std::min(value_text.size(), tok.offset + tok.text.size())}}) {
        std::string window = value_text.substr(b, e - b);
        for (const auto *s : with)
          if (s->text.find(window) != std::string::npos) return s;
      }
    }
    for (const auto *s : with)
      if (s->path.rfind("agent_facing.measurements.", 0) == 0) return s;
    return with.front();
  }

  // slower_than_tried_on_pct: the attempt's geomean against the one of the
  // version it was tried on (packet.cpp), each from its step record.
  std::string geomean_change_derivation(const std::string &path, std::string &problem) const {
    const std::string against = typed_.measured_from().version.value_or("");
    const auto *mine = m_.version_row(typed_.version);
    const auto *base = m_.version_row(against);
    // Plain doubles, NaN when absent (GCC's -Wmaybe-uninitialized misreads
    // three std::optional<double> here).
    auto number = [](const json::Value &v) { return v.as_number().value_or(std::nan("")); };
    const double after = mine ? number(mine->geomean_us) : std::nan("");
    const double before = base ? number(base->geomean_us) : std::nan("");
    const double stated = number(gates::at_path(built_.packet, path));
    if (std::isnan(after) || std::isnan(before) || std::isnan(stated) || before == 0) {
      problem = "the change at " + path + " has no two geomeans to derive it from";
      return "";
    }
    double recomputed = text::round_to((after / before - 1.0) * 100.0, 2);
    if (std::fabs(recomputed - stated) > 1e-9)
      problem = "the change " + num(gates::at_path(built_.packet, path)) + " does not follow from the two geomeans";
    return "(after / before - 1) x 100 = (" + num(mine->geomean_us) + " / " + num(base->geomean_us) +
           " - 1) x 100 = " + text::fixed(recomputed, 2) + " (rounded to 2 places); before is " + against +
           "'s geomean, after " + typed_.version + "'s (memory/<version>.json performance)";
  }

  // How a per-shape change follows from the entry's two latencies, each
  // a step record's number (sources_of names their files).
  std::string shape_change_derivation(const std::string &path, std::string &problem) const {
    const auto entry_path = path.substr(0, path.rfind('.'));
    const auto &entry = gates::at_path(built_.packet, entry_path);
    auto before = entry.get("before_us").as_number(), after = entry.get("after_us").as_number();
    auto change = entry.get("change_pct").as_number();
    if (!before || !after || !change || *before == 0) {
      problem = "the per-shape change at " + path + " has no two latencies to derive it from";
      return "";
    }
    double recomputed = text::round_to((*after - *before) / *before * 100.0, 2);
    if (std::fabs(recomputed - *change) > 1e-9)
      problem = "the per-shape change " + num(entry.get("change_pct")) + " does not follow from its latencies";
    return "(after - before) / before x 100 = (" + num(entry.get("after_us")) + " - " + num(entry.get("before_us")) +
           ") / " + num(entry.get("before_us")) + " x 100 = " + text::fixed(recomputed, 2) +
           " (rounded to 2 places); before is " + typed_.measured_from().version.value_or("") +
           "'s latency on the shape, after " + typed_.version +
           "'s (memory/<version>.json performance.latency_us_by_shape)";
  }

  NumberOrigin &from_code(NumberOrigin &o, const gates::NumberToken &tok) const {
    std::size_t n = 0, pos = 0;
    const std::string &code = built_.code;
    while (pos < code.size()) {
      auto nl = code.find('\n', pos);
      std::string line = code.substr(pos, (nl == std::string::npos ? code.size() : nl) - pos);
      ++n;
      if (shares_key(line, tok.keys)) {
        o.packet_path = built_.code_name;
        o.source = Source{"code", built_.code_name, "line " + std::to_string(n) + " of the packet's code", line};
        o.quote = one_line(line);
        return o;
      }
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
    o.problem = "not in the packet rebuilt from the trace";
    return o;
  }
};

void explain_code(const json::Value &record, const store::RecordView &view, const json::Value &seg,
                  const packet::Built &built, const TraceModel &m, Explanation &e) {
  auto quotes = gates::quoted_code(record);
  if (quotes.empty()) return;
  // A diff's packet names both ends.
  const auto from = built.provenance.diff_from.value_or(workspace::PacketProvenance::End{});
  const auto to = built.provenance.diff_to.value_or(workspace::PacketProvenance::End{});
  CodeFile code;
  code.path = workspace::TraceMeta::from_json(m.meta()).kernel_file;
  code.text = built.code;
  code.is_diff = built.code_name.ends_with(".diff");
  if (code.is_diff) {
    code.old_commit = from.git_commit.value_or("");
    code.new_commit = to.git_commit.value_or("");
    e.diff_range = from.version.value_or("root") + " (" + short_sha(code.old_commit) + ") .. " +
                   to.version.value_or("") + " (" + short_sha(code.new_commit) + ")";
    // Each end the record cites against the rebuilt diff's.
    auto check = [&](const char *end, const std::optional<store::RecordView::DiffEnd> &cited_end,
                     const std::string &rebuilt) {
      const std::optional<std::string> cited = cited_end ? cited_end->git_commit : std::nullopt;
      if (!cited_end)
        e.notes.push_back(std::string("the record does not name its ") + end + "; the rebuilt range is " +
                          e.diff_range);
      else if (!cited || *cited != rebuilt)
        e.unexplained.push_back(std::string("evidence.raw.evidence_extra.") + end + " (" +
                                (cited ? short_sha(*cited) : std::string("null")) + ") is not the rebuilt diff's (" +
                                short_sha(rebuilt) + ")");
    };
    check("diff_from", view.diff_from, code.old_commit);
    check("diff_to", view.diff_to, code.new_commit);
  } else {
    auto source = packet::reference_source(m.repo(), code.path, m.typed(seg));
    code.path = source.path;
    code.new_commit = source.commit;
    e.diff_range = code.path + " at " + short_sha(code.new_commit);
  }
  const std::size_t max_items = m.config().limits().max_explain_items;
  for (const auto &[field, quote] : quotes) {
    std::size_t budget = max_items > e.code_lines.size() ? max_items - e.code_lines.size() : 0, past = 0;
    for (auto &l : locate_code_lines("payload." + field, quote, code, m.repo(), budget, &past)) {
      if (!l.explained())
        e.unexplained.push_back("payload." + field + " line " + std::to_string(l.line) + ": " + l.problem);
      e.code_lines.push_back(std::move(l));
    }
    if (past)
      e.unexplained.push_back("payload." + field + ": " + std::to_string(past) +
                              " more line(s) not located, past limits.max_explain_items (" + std::to_string(max_items) +
                              "): the output summarises them");
  }
}

void compare_with_workspace(const std::filesystem::path &ws, const packet::Built &built, Explanation &e) {
  auto file = workspace::Workspace{ws}.packets_dir() / (built.seg_id + ".json");
  if (!io::is_regular_file(file)) return;
  try {
    auto disk = json::parse_file(file);
    std::string differs;
    for (const char *k : {"target", "agent_facing", "provenance"})
      if (json::to_line(disk.get(k)) != json::to_line(built.packet.get(k)))
        differs += (differs.empty() ? "" : ", ") + std::string(k);
    auto code_file = workspace::Workspace{ws}.packets_dir() / built.code_name;
    if (!built.code_name.empty() && (!io::is_regular_file(code_file) || io::read_file(code_file) != built.code))
      differs += (differs.empty() ? "" : ", ") + built.code_name;
    e.notes.push_back(
        differs.empty() ? "the workspace's packet " + file.string() + " is the one rebuilt from the trace"
                        : "the workspace's packet " + file.string() + " differs from the one rebuilt from the trace (" +
                              differs + "): the trace changed since it was built; this explanation follows the trace");
  } catch (const std::exception &ex) {
    e.notes.push_back("the workspace's packet " + file.string() + " is unreadable (" + ex.what() + ")");
  }
}

} // namespace

std::vector<std::string> explained_sections() {
  auto s = gates::audited_sections();
  s.push_back("evidence.raw.effect");
  return s;
}

Explanation explain_record(const json::Value &record, const std::string &record_file, const TraceModel &m,
                           const std::optional<std::filesystem::path> &workspace) {
  Explanation e;
  e.record_file = record_file;
  // A field of another type is no record to explain: its Error is thrown.
  const auto view = store::RecordView::from_json(record).value();
  e.id = view.id.value_or("");
  e.type = view.type.value_or("");
  if (!m.hardware_note().empty()) e.notes.push_back(m.hardware_note());
  e.provenance = provenance_of(view, m, e.unexplained);
  const json::Value *seg = m.segment_for(view);
  if (const json::Value *row = m.row(e.provenance.version))
    e.ladder = decision_of(*row, *m.version_row(e.provenance.version), m.config().ladder());
  if (!seg) {
    e.unexplained.push_back("no segment of the trace rebuilt by otm yields a " + e.type + " record of " +
                            e.provenance.version + ": its numbers and code cannot be re-derived");
    return e;
  }
  e.segment = m.typed(*seg).seg_id;
  packet::Built built = m.packet_for(*seg);
  if (workspace) compare_with_workspace(*workspace, built, e);

  NumberExplainer numbers(m, *seg, built);
  const std::size_t max_items = m.config().limits().max_explain_items;
  std::size_t numbers_past = 0;
  for (const auto &section : explained_sections())
    gates::walk_scalars(gates::at_path(record, section), section, false,
                        [&](const std::string &path, const json::Value &v, bool in_code) {
                          if (in_code || v.is_bool()) return;
                          std::string text = gates::audited_text(v);
                          for (const auto &tok : gates::number_tokens(text)) {
                            if (e.numbers.size() >= max_items) {
                              ++numbers_past;
                              continue;
                            }
                            auto o = numbers.explain(path, text, tok, v.is_number());
                            if (!o.explained()) e.unexplained.push_back(path + ": " + o.number + " " + o.problem);
                            e.numbers.push_back(std::move(o));
                          }
                        });
  if (numbers_past)
    e.unexplained.push_back(std::to_string(numbers_past) +
                            " more number(s) not explained, past limits.max_explain_items (" +
                            std::to_string(max_items) + "): the output summarises them");
  explain_code(record, view, *seg, built, m, e);
  return e;
}

} // namespace otm::explain
