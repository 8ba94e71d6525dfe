#include "distill/draft_context.hpp"

#include <functional>
#include <map>
#include <set>

#include "code/identifiers.hpp"
#include "code/inert_code.hpp"
#include "code/jit_globals.hpp"
#include "code/kernel_loops.hpp"
#include "code/kernel_parameters.hpp"
#include "code/module_outline.hpp"
#include "code/repeated_passes.hpp"
#include "code/template_parameters.hpp"
#include "diff/diff_reading.hpp"
#include "distill/lever_prose.hpp"
#include "ladder/noise.hpp"
#include "levers/lever_settings.hpp"
#include "record/established_fact.hpp"
#include "record/leak_shapes.hpp"
#include "text/code_list.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace otm::distill::drafting {

namespace {

// Unscrubbed packet fields (harness, fixed axes) are copied only when no
// leak shape occurs in them (the one definition in record/leak_shapes),
// strict as for every trace-derived layer: no version id, no 8-hex hash.
bool leak_free(const std::string &s) { return record::find_leaks(s, true).empty(); }

Value scope_of(Context &c) {
  const auto &scope = c.target.get("scope");
  Value s = Value::object();
  for (const char *k : {"vendor", "arch"})
    s.set(k, required_string(scope.get(k), std::string("retrieval.scope.") + k,
                             std::string("target.scope.") + k + " is missing: the drafter never guesses hardware"));
  s.set("product", scope.get("product"));
  s.set("dsl", required_string(scope.get("dsl"), "retrieval.scope.dsl", "target.scope.dsl is missing"));
  s.set("operator_family", scope.get("operator_family"));
  Value sig = Value::object();
  if (const auto *axes = c.op.fixed_axes.as_object()) {
    for (const auto &[k, v] : *axes) {
      bool scalar = v.is_number() || v.is_bool() || v.is_string();
      if (scalar && leak_free(k) && (!v.is_string() || leak_free(*v.as_string()))) sig.set(k, v);
    }
  }
  if (sig.size()) s.set("shape_signature", sig);
  return s;
}

Value retrieval_of(Context &c) {
  Value r = Value::object();
  Value scope = scope_of(c);
  Value gen = Value::object();
  gen.set("arch", scope.get("arch"));
  gen.set("language", scope.get("dsl"));
  gen.set("workload_family", c.target.get("workload_family"));
  Value regime = Value::object();
  regime.set("predicate", "*");
  Value var_axes = Value::array();
  if (const auto *axes = c.af.get("operator").get("variable_axes").as_array())
    for (const auto &a : *axes)
      if (a.is_string() && leak_free(*a.as_string())) var_axes.push_back(a);
  regime.set("var_axes", var_axes);
  const auto &n = c.af.get("operator").get("n_benchmarked_shapes");
  regime.set("n_shapes", n.is_int() ? n : Value());
  Value signals = Value::object();
  signals.set("bottleneck", Value()); // rule 5: the drafter never classifies a bottleneck
  signals.set("metrics", Value::object());
  signals.set("shape_regime", regime);
  signals.set("symptoms", Value::array());
  r.set("scope", scope);
  r.set("generality", gen);
  r.set("signals", signals);
  r.set("technique_tags", Value::array());
  r.set("triggers", Value::array());
  return r;
}

Value measured_on(Context &c) {
  Value m = Value::object();
  auto harness = text_of(c.op.harness);
  if (harness && leak_free(*harness))
    m.set("harness", *harness);
  else
    c.out.thin.push_back("evidence.summary.measured_on.harness");
  m.set("gpu", c.gpu);
  return m;
}

} // namespace

void refuse(std::string field, std::string why) { throw Refused({std::move(field), std::move(why), ""}); }

std::string required_string(const Value &v, const std::string &field, const std::string &why) {
  const auto *s = v.as_string();
  if (!s || text::strip(*s).empty()) refuse(field, why);
  return *s;
}

std::optional<std::string> text_of(const Value &v) {
  const auto *s = v.as_string();
  if (!s || text::strip(*s).empty()) return std::nullopt;
  return *s;
}

void set_terms(Value &record, const RecordTerms &terms) { terms.write_to(*record.find("retrieval")); }

code::InertCode kernel_inert_code(std::string_view source, std::string_view path) {
  const auto language = code::language_of_path(path);
  // Functions only the kernel can call: JIT functions, and the CUDA
  // `__device__` helpers of a load_inline source (round 12: a reference
  // kernel built on an `__ldg` helper nothing calls).
  std::set<std::string> device;
  if (language == code::Language::Python) {
    auto outline = code::outline_module(source);
    for (const auto &s : outline.statements)
      if (code::is_jit_function(outline, s)) device.insert(s.name);
    for (const auto &c : outline.c_items)
      if (c.kind == code::CItem::Kind::Function && c.head.find("__device__") != std::string::npos &&
          c.head.find("__global__") == std::string::npos)
        device.insert(c.binds.begin(), c.binds.end());
  }
  return code::find_inert_code(source, language, device);
}

namespace {

// The lines of a kernel file that run: not comments, docstrings or stamps,
// no assignment nothing reads, no JIT function nothing calls or launches,
// no hint restating what the compiler knows (code/inert_code.hpp). A lever
// whose code only such lines hold is not in the kernel (round 9: a
// reference kernel tagged warp-specialised for a loader partition nothing
// launches).
std::string live_code_of(std::string_view source, std::string_view path) {
  const auto inert = kernel_inert_code(source, path);
  const auto lines = text::split_lines(source);
  std::vector<std::string> live(lines.begin(), lines.end());
  // An unread kernel parameter's name and the launch keyword passing it
  // run nothing either (round 18: "row-packing" tagged on a kernel whose
  // ROWS_PER_PROG the body never reads).
  if (code::language_of_path(path) == code::Language::Python)
    for (const auto &u : code::unread_parameter_texts(source))
      if (u.line < live.size())
        if (auto at = live[u.line].find(u.text); at != std::string::npos) live[u.line].erase(at, u.text.size());
  // So does a function template's parameter its function never reads (kit
  // 51, X06: `template <..., int VEC, ...>` tagged vectorised).
  if (code::language_of_path(path) == code::Language::CFamily)
    for (const auto &u : code::unread_template_parameters(source))
      if (u.line < live.size())
        for (const auto &id : code::identifier_spans(live[u.line]))
          if (live[u.line].compare(id.begin, id.end - id.begin, u.name) == 0) {
            live[u.line].erase(id.begin, id.end - id.begin);
            break;
          }
  std::string out;
  for (std::size_t i = 0; i < live.size(); ++i)
    if (!inert.is_inert(i)) out.append(live[i]) += '\n';
  return out;
}

} // namespace

std::vector<std::string> levers_applied_before(const Context &c) {
  std::string all;
  for (const auto &change : strings_at(c.af.get("kept_changes_of_its_lineage"), "change")) all += change + "\n";
  return levers_the_kernel_runs(c, c.rules.retrieval.levers.prose().tags_in(all));
}

namespace {

// Why the kernel the record stands on does not run each of `levers`
// (LeverNotRun), those it runs left out, in their order.
std::vector<LeverNotRun> why_not_run(const Context &c, const std::vector<std::string> &levers) {
  // A lever a later step undid is not applied: one with code forms for this
  // DSL that the kernel the record stands on no longer holds (round 8:
  // persistent-kernel listed after a step replaced the persistent grid).
  std::vector<LeverNotRun> out;
  std::string_view kernel = code_after(c).value_or(c.type == "reference-kernel" && c.af.get("kernel_file").is_string()
                                                       ? std::string_view(c.packet.code)
                                                       : std::string_view());
  if (kernel.empty()) return out;
  const auto &vocabulary = c.rules.retrieval.levers;
  const std::string dsl = c.op.dsl;
  const std::string live = live_code_of(kernel, c.kernel_block.kernel_file);
  const auto device = code::device_code(kernel);
  // A lever the kernel holds only as a compiler option its DSL leaves
  // unused there (a Gluon kernel's `num_stages`) does not run either: its
  // device code holds no other code of it (an imported `async_copy` nothing
  // calls is host code; round 12).
  auto unused_option = [&](const std::string &l) -> std::optional<std::string> {
    const auto *option = vocabulary.compiler_option(l);
    if (!option || !device) return std::nullopt;
    auto why = option->unused_because(dsl, *device);
    if (!why) return std::nullopt;
    auto forms = vocabulary.code_forms_in(l, *device, dsl);
    if (!std::all_of(forms.begin(), forms.end(), [&](const auto &f) { return f == option->name(); }))
      return std::nullopt;
    return why;
  };
  for (const auto &l : levers) {
    if (!vocabulary.checkable(l, dsl)) continue;
    if (!vocabulary.in_code(l, live, dsl))
      out.push_back({l, {}});
    else if (auto why = unused_option(l))
      out.push_back({l, std::move(*why)});
  }
  return out;
}

// Whether a change's first sentence drops what it names ("drop APPROX_RSQRT
// (__frsqrt_rn)", "Changed drop approximate rsqrt", "remove the mask").
bool drops_what_it_names(const std::string &change) {
  static const text::Regex drop(R"((?i)\b(?:drop(?:s|ped|ping)?|remov(?:e|es|ed|ing)|disabl(?:e|es|ed|ing))\b)");
  return drop.contains(levers::what_a_change_did(change));
}

} // namespace

std::vector<std::string> levers_the_kernel_runs(const Context &c, std::vector<std::string> levers) {
  const auto not_run = why_not_run(c, levers);
  std::erase_if(levers, [&](const std::string &l) {
    return std::any_of(not_run.begin(), not_run.end(), [&](const LeverNotRun &n) { return n.lever == l; });
  });
  // A kernel reading one pointer in two loops is no single-pass kernel,
  // whatever step made a pass fewer (kit 56, O01, O19: a two-pass kernel
  // tagged "single-pass"; the step that merged max and sum is still named
  // as the run wrote it where a record says what it builds on).
  std::string_view kernel = code_after(c).value_or(c.type == "reference-kernel" && c.af.get("kernel_file").is_string()
                                                       ? std::string_view(c.packet.code)
                                                       : std::string_view());
  const auto &vocabulary = c.rules.retrieval.levers;
  if (!kernel.empty() &&
      std::any_of(levers.begin(), levers.end(),
                  [&](const std::string &l) { return vocabulary.reads_each_input_once(l); }) &&
      code::pointer_read_in_two_passes(kernel))
    std::erase_if(levers, [&](const std::string &l) { return vocabulary.reads_each_input_once(l); });
  return levers;
}

code::Language kernel_language(const Context &c) { return code::language_of_path(c.kernel_block.kernel_file); }

const workspace::WhatTheRunSaid::StockText *stock_sentence(const Context &c, const std::string &text) {
  // A part shorter than this is a phrase any text may share.
  constexpr std::size_t kMinShared = 24;
  // "Because X." is the stock sentence of "... is slower because X".
  const std::string t = comparable_reason(text);
  if (t.size() < kMinShared) return nullptr;
  for (const auto &s : c.said.stock_texts) {
    if (s.steps < static_cast<std::int64_t>(c.rules.template_min_steps)) continue;
    const std::string stock = comparable_reason(s.text);
    if (stock.size() >= kMinShared && (stock.find(t) != std::string::npos || t.find(stock) != std::string::npos))
      return &s;
  }
  return nullptr;
}

bool kernel_holds_stated_values(const Context &c, const std::string &change) {
  std::string_view file =
      code_after(c).value_or(c.type == "reference-kernel" ? std::string_view(c.packet.code) : std::string_view());
  if (file.empty()) return true;
  // What runs, without comments or strings: a comment's "THREADS=128" is
  // no setting.
  const std::string live = live_code_of(file, c.kernel_block.kernel_file);
  // `with_literals`: the same with its string literals, where a lever's
  // code form may be written (`eviction_policy="evict_last"`).
  std::string kernel, with_literals;
  for (const auto &l : code::lex_source(live, kernel_language(c))) { // its lines are views into `live`
    for (const auto &sp : l.spans) {
      if (sp.kind == code::SpanKind::Code) kernel.append(l.text.substr(sp.begin, sp.end - sp.begin));
      if (sp.kind == code::SpanKind::Code || sp.kind == code::SpanKind::String)
        with_literals.append(l.text.substr(sp.begin, sp.end - sp.begin));
    }
    kernel += '\n';
    with_literals += '\n';
  }
  const auto &vocabulary = c.rules.retrieval.levers;
  const std::string dsl = c.op.dsl;
  static const text::Regex assigned(
      R"((?:^|[\s,(;])(?:constexpr\s+|const\s+|static\s+)*(?:int\s+|unsigned\s+|size_t\s+)?([A-Za-z_]\w*)\s*(?::\s*[\w.]+\s*)?=(?!=)\s*(\d+)\b)");
  // ... and what a C preprocessor defines, in a .cu file or a load_inline
  // source, where the lexer above sees a string (kit 35, X05: a kernel
  // with `#define GROUP_M 16` said to build on "GROUP_M 16->8").
  static const text::Regex defined(R"((?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?(\d+)\)?[ \t]*$)");
  // Calls `fn(name, value)` for each setting the kernel's running code makes.
  auto for_each_setting = [&](const std::function<void(std::string_view, std::string_view)> &fn) {
    assigned.for_each_match(kernel, [&](const text::Match &m) { fn(m[1], m[2]); });
    defined.for_each_match(live, [&](const text::Match &m) { fn(m[1], m[2]); });
  };
  static const text::Regex identifier(R"(\b[A-Za-z_]\w*\b)");
  for (const auto &s : levers::settings_in(vocabulary, levers::claim_of(change))) {
    if (s.value.empty() || s.value.find_first_not_of("0123456789") != std::string::npos) continue;
    // The names of the lever the change spells (`THREADS`), when it spells
    // any: another name of the lever (`BLOCK_K = 128`) is another setting.
    std::set<std::string> spelled;
    identifier.for_each_match(change, [&](const text::Match &m) {
      if (vocabulary.in_code(s.lever, m[0], dsl)) spelled.emplace(m[0]);
    });
    bool assigns = false, holds = false;
    for_each_setting([&](std::string_view name, std::string_view value) {
      if (!vocabulary.in_code(s.lever, name, dsl) || (!spelled.empty() && !spelled.count(std::string(name)))) return;
      assigns = true;
      holds = holds || value == s.value;
    });
    if (assigns && !holds) return false;
  }
  // A constant the change spells in code's own name with a value
  // ("WARPS_PER_BLOCK 4->1") that the kernel never assigns, while it
  // assigns another code name of the same lever that value (`NUM_WARPS =
  // 1`): the run's name for that setting, held (kit 39, K14: the step that
  // set the warp count left out of "what it kept since"). The name checks
  // below leave it be.
  const auto constants = levers::constant_settings_in(levers::claim_of(change));
  std::set<std::string> aliased;
  for (const auto &[name, value] : constants) {
    bool assigned_itself = false, another_holds = false;
    const auto its_levers = vocabulary.levers_in_code(name, dsl);
    for_each_setting([&](std::string_view n, std::string_view v) {
      if (n == name)
        assigned_itself = true;
      else if (v == value && std::any_of(its_levers.begin(), its_levers.end(),
                                         [&](const std::string &l) { return vocabulary.in_code(l, n, dsl); }))
        another_holds = true;
    });
    if (!assigned_itself && another_holds) aliased.insert(name);
  }
  // The code forms and code names of a lever the change spells are held
  // when the kernel's running code writes one of them: they are
  // alternatives ("ld.global.cs / __ldcs", kit 48, U02), and a lever may
  // run in another form (`evict_first`) but not as this change set it
  // (`evict_last`; round 15), whatever lever the words name ("enable
  // __frsqrt_rn" for `1.0 / gl.sqrt_rn(...)`, kit 32, U10). A change that
  // drops what it names is held when the kernel writes none of them (kit
  // 32, U25: "drop APPROX_RSQRT (__frsqrt_rn)").
  const bool drops = drops_what_it_names(change);
  std::map<std::string, bool> written; // by lever: one of its spelled forms is in the kernel
  auto spelled = [&](const std::string &lever, const std::string &form) {
    if (aliased.count(form)) return;
    written[lever] = written[lever] || diff::holds_name(with_literals, form);
  };
  for (const auto &lever : vocabulary.named_in(change))
    for (const auto &form : vocabulary.code_forms_in(lever, levers::claim_of(change), dsl)) spelled(lever, form);
  for (const auto &n : diff::names_of(levers::claim_of(change)))
    if (n.strong && diff::is_code_name(n.text))
      for (const auto &lever : vocabulary.levers_in_code(n.text, dsl)) spelled(lever, n.text);
  for (const auto &[lever, holds] : written)
    if (holds == drops) return false;
  // A constant the change spells in code's own name with the value it sets
  // ("MAX_BLOCK_N from 4096 to 8192", "NUM_SPLITS=16"), lever or not: the
  // kernel holds it when it assigns that name that value (round 14: a
  // reference kernel said to build on a cap the code never raised).
  for (const auto &[constant, value] : constants) {
    bool assigns = false, holds = false;
    for_each_setting([&](std::string_view name, std::string_view set) {
      if (name != constant) return;
      assigns = true;
      holds = holds || set == value;
    });
    if (assigns && !holds) return false;
  }
  return true;
}

std::vector<LeverNotRun> levers_not_run(const Context &c, const std::string &change) {
  // The levers its first sentence names: the rest says why (kit 25: "Set
  // STAGES 2->4. A deeper TMA/cp.async ring hides ..." read as a TMA
  // change the kernel does not run, so the record built on an older step).
  // A lever the change drops is not one the kernel should run.
  if (drops_what_it_names(change)) return {};
  return why_not_run(c, c.rules.retrieval.levers.prose().tags_in(levers::what_a_change_did(change)));
}

ChangeInKernel how_the_kernel_holds(const Context &c, const std::string &change) {
  if (c.rules.restores && c.rules.restores->contains(change)) return ChangeInKernel::Restores; // no technique
  if (!levers_not_run(c, change).empty()) return ChangeInKernel::LeverNotRun;
  return kernel_holds_stated_values(c, levers::what_a_change_did(change)) ? ChangeInKernel::Runs
                                                                          : ChangeInKernel::SettingNotHeld;
}

bool kernel_runs_all_levers_of(const Context &c, const std::string &change) {
  return how_the_kernel_holds(c, change) == ChangeInKernel::Runs;
}

namespace {

std::optional<std::string> latest_where(const std::vector<std::string> &changes,
                                        const std::function<bool(const std::string &)> &pred) {
  for (auto it = changes.rbegin(); it != changes.rend(); ++it)
    if (pred(*it)) return *it;
  return std::nullopt;
}

} // namespace

std::optional<std::string> latest_change_the_kernel_runs(const Context &c, const std::vector<std::string> &changes) {
  return latest_where(changes, [&](const std::string &change) { return kernel_runs_all_levers_of(c, change); });
}

std::optional<std::string> latest_change_the_kernel_holds(const Context &c, const std::vector<std::string> &changes) {
  return latest_where(changes, [&](const std::string &change) {
    switch (how_the_kernel_holds(c, change)) {
    case ChangeInKernel::Runs: return true;
    case ChangeInKernel::LeverNotRun: {
      // Not run only as a compiler option the DSL may leave unused.
      const auto not_run = levers_not_run(c, change);
      return std::all_of(not_run.begin(), not_run.end(),
                         [](const LeverNotRun &n) { return !n.unused_option.empty(); }) &&
             kernel_holds_stated_values(c, levers::what_a_change_did(change));
    }
    default: return false;
    }
  });
}

Symptoms symptoms_as(const Context &c) {
  return c.af.get("profiler").get("conclusion_is_from_the_kernel_under_test").truthy() ? Symptoms::Observed
                                                                                       : Symptoms::Stated;
}

std::optional<std::string_view> code_after(const Context &c) {
  if (c.packet.code_after.empty()) return std::nullopt;
  return std::string_view(c.packet.code_after);
}

std::string lever_words(const std::vector<std::string> &ids) {
  std::vector<std::string> words;
  for (auto w : ids) {
    std::replace(w.begin(), w.end(), '-', ' ');
    words.push_back(std::move(w));
  }
  return text::prose_list(words);
}

std::vector<std::string> strings_at(const Value &list, const char *key) {
  std::vector<std::string> out;
  if (const auto *a = list.as_array())
    for (const auto &e : *a)
      if (auto t = text_of(key ? e.get(key) : e)) out.push_back(*t);
  return out;
}

bool correctness_passed(const Value &af) {
  const auto &status = af.get("measurements").get("correctness").get("status");
  if (status.is_null() || (status.is_string() && text::strip(*status.as_string()).empty())) return false;
  auto gate = text_of(af.get("what_the_run_said").get("gate_verdict"));
  return !ladder::correctness_failed(status) && !(gate && record::gate_failed_on_results(*gate));
}

std::string range_of(const workspace::PacketProvenance &prov) {
  auto end = [](const auto &e) { return e ? e->version.value_or("") : std::string(); };
  auto from = end(prov.diff_from), to = end(prov.diff_to);
  if (from.empty() || to.empty()) return "in the step's diff";
  return "between " + from + " and " + to;
}

Value problem_of(Context &c) {
  Value p = Value::object();
  p.set("target", c.gpu);
  p.set("statement", c.what);
  if (!c.family.empty()) p.set("operator", c.family);
  if (auto dsl = text_of(c.op.dsl)) p.set("dsl", *dsl);
  p.set("bottleneck", Value());
  return p;
}

Value summary_of(Context &c, const char *confidence, const char *basis, const char *note) {
  Value s = Value::object();
  s.set("confidence", confidence);
  s.set("measured_on", measured_on(c));
  Value be = Value::object();
  be.set("basis", basis);
  // The tool of the capture the quote came from (the packet names it).
  if (std::string(basis) == "profiler") be.set("tool", c.af.get("profiler").get("tool"));
  be.set("note", note);
  s.set("bottleneck_evidence", be);
  return s;
}

Value raw_of(Context &c, Value effect, bool cite_captures) {
  Value raw = Value::object();
  raw.set("source_repo", c.prov.get("source_repo"));
  raw.set("version", c.prov.get("version"));
  raw.set("git_commit", c.prov.get("git_commit"));
  raw.set("effect", std::move(effect));
  Value extra = Value::object();
  if (cite_captures) extra.set("ncu_dirs", Value::strings({c.provenance.report_dir.value_or("")}));
  for (const char *k : {"diff_from", "diff_to"})
    if (c.prov.get(k).is_object() && c.af.get("diff_file").is_string()) extra.set(k, c.prov.get(k));
  if (extra.size()) raw.set("evidence_extra", extra);
  return raw;
}

Value qualitative_gain(const char *kind) {
  Value g = Value::object();
  g.set("kind", kind);
  g.set("basis", "qualitative");
  g.set("pct", Value());
  g.set("metrics", Value::array());
  g.set("regressions", Value::array());
  return g;
}

Value worth_of(Value gain) {
  Value worth = Value::object();
  Value rank = Value::object();
  rank.set("score", 0.0);
  rank.set("tier", "provisional");
  worth.set("rank", std::move(rank));
  worth.set("gain", std::move(gain));
  return worth;
}

Value effect_of(Context &c, bool with_delta) {
  const auto &m = c.af.get("measurements");
  Value e = Value::object();
  const auto &geo = m.get("geomean_us");
  e.set("basis", geo.is_number() ? "measured" : "qualitative");
  if (geo.is_number()) e.set("new_geomean_us", geo);
  if (with_delta && m.get("improve_pct_vs_best_so_far").is_number())
    e.set("delta_pct", m.get("improve_pct_vs_best_so_far"));
  if (m.get("comparable_with_the_store").is_bool()) e.set("comparable", m.get("comparable_with_the_store"));
  return e;
}

Value record_head(Context &c) {
  Value r = Value::object();
  r.set("schema", required_string(c.target.get("schema"), "schema", "target.schema is missing"));
  r.set("id", c.id);
  r.set("type", c.type);
  r.set("level", required_string(c.target.get("level"), "level", "target.level is missing"));
  r.set("status", "active");
  r.set("episode_key", required_string(c.target.get("episode_key"), "episode_key", "target.episode_key is missing"));
  r.set("retrieval", retrieval_of(c));
  return r;
}

} // namespace otm::distill::drafting
