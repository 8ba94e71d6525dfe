#include "trace/step_record.hpp"

#include <algorithm>

#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/trace_files.hpp"
#include "trace/version_key.hpp"
#include "workspace/field_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::trace {
namespace {

// A step record is read with defaults: a field of another type reads as
// its default, and each is a sentence of the record's problems, naming the
// field by its path ("performance.latency_us is a string, not a number").
struct Reader {
  workspace::FieldReader fields;
  // A section object; a present non-object reads as {}.
  const json::Value &section(const json::Value &rec, const char *key) {
    const json::Value &v = rec.get(key);
    return v.is_null() || fields.is_object(key, v) ? v : json::null_value();
  }
  json::Value string_or_null(const json::Value &obj, const char *sec, const char *key) {
    const json::Value &v = obj.get(key);
    std::string s;
    if (v.is_null() || !fields.string(std::string(sec) + "." + key, v, s)) return nullptr;
    return s;
  }
  json::Value typed(const json::Value &v, const std::string &name, bool want_list) {
    json::Value empty = want_list ? json::Value::array() : json::Value::object();
    if (v.is_null()) return empty;
    return (want_list ? fields.is_list(name, v) : fields.is_object(name, v)) ? v : empty;
  }
};

// A usable latency: a non-zero number (booleans are not numbers here),
// returned as written so an integer stays an integer.
const json::Value *usable_latency(const json::Value *v, const std::string &name, Reader &r) {
  if (!v || v->is_null()) return nullptr;
  if (!r.fields.is_number(name, *v)) return nullptr;
  return v->truthy() ? v : nullptr; // zero is treated as corrupt (spec §3.1)
}

std::string text_of(const json::Value &v) {
  if (const auto *s = v.as_string()) return std::string(text::strip(*s));
  if (v.is_null()) return "";
  return v.is_array() || v.is_object() ? json::to_line(v) : v.python_str();
}

} // namespace

json::Value normalise_pitfall(const json::Value &entry) {
  if (!entry.is_object()) return entry;
  auto pick = [&](std::initializer_list<const char *> keys) -> json::Value {
    for (const char *k : keys)
      if (!text_of(entry.get(k)).empty()) return entry.get(k);
    return nullptr;
  };
  json::Value out = json::Value::object();
  out.set("pitfall", pick({"pitfall", "error_message", "error_type"}));
  json::Value explanation = pick({"explanation"});
  if (explanation.is_null()) {
    std::string root = text_of(entry.get("root_cause"));
    std::string lesson = text_of(entry.get("lesson"));
    if (!lesson.empty() && root.find(lesson) == std::string::npos) {
      if (!root.empty() && root.back() != '.') root += '.';
      root += (root.empty() ? "" : " ") + lesson;
    }
    if (!root.empty()) explanation = root;
  }
  out.set("explanation", explanation);
  out.set("fix", pick({"fix", "fix_applied"}));
  for (const auto &[k, v] : *entry.as_object())
    if (!out.contains(k)) out.set(k, v);
  return out;
}

json::Value step_record_fields(const std::string &file_name, const json::Value &rec, std::string &problems,
                               std::size_t max_pitfalls, std::string &limited) {
  Reader r;
  const json::Value &perf = r.section(rec, "performance");
  const json::Value &corr = r.section(rec, "correctness");
  const json::Value &gate = r.section(rec, "quality_gate");
  json::Value opt = rec.get("optimization");
  if (opt.truthy() && !opt.is_object()) {
    json::Value o = json::Value::object();
    o.set("action_description", opt.is_string() ? opt : json::Value(text_of(opt)));
    opt = o;
  } else if (!opt.is_object()) {
    opt = json::Value::object();
  }

  json::Value row = json::Value::object();
  row.set("memory_file", file_name);
  json::Value source = nullptr;
  const json::Value *geo = usable_latency(perf.find("latency_us_geomean"), "performance.latency_us_geomean", r);
  if (geo) {
    source = "latency_us_geomean";
  } else if ((geo = usable_latency(perf.find("latency_us"), "performance.latency_us", r))) {
    source = "latency_us";
  }
  row.set("geomean_us", geo ? *geo : json::Value());
  row.set("by_shape", r.typed(perf.get("latency_us_by_shape"), "performance.latency_us_by_shape", false));
  row.set("arith_mean_us", perf.get("latency_us_arith_mean"));
  row.set("speedup_vs_ref", perf.get("speedup_vs_ref_geomean"));
  row.set("correctness_status", r.string_or_null(corr, "correctness", "status"));
  row.set("max_abs_err", corr.get("max_abs_err"));
  row.set("max_rel_err", corr.get("max_rel_err"));
  row.set("gate_result", r.string_or_null(gate, "quality_gate", "result"));
  row.set("gate_failure", r.string_or_null(gate, "quality_gate", "failure_reason"));
  row.set("action_category", r.string_or_null(opt, "optimization", "action_category"));
  row.set("action_description", r.string_or_null(opt, "optimization", "action_description"));
  row.set("expected_impact", r.string_or_null(opt, "optimization", "expected_impact"));
  row.set("git_commit_hash", rec.get("git_commit_hash"));
  row.set("open_directions", r.typed(rec.get("open_directions"), "open_directions", true));
  json::Value pitfalls = json::Value::array();
  const json::Value raw_pitfalls = r.typed(rec.get("pitfalls_and_fixes"), "pitfalls_and_fixes", true);
  for (const auto &p : *raw_pitfalls.as_array()) {
    if (pitfalls.size() == max_pitfalls) {
      limited = "pitfalls_and_fixes has " + std::to_string(raw_pitfalls.size()) + " entries, the first " +
                std::to_string(max_pitfalls) + " are read (limits.max_pitfalls_per_version)";
      break;
    }
    pitfalls.push_back(normalise_pitfall(p));
  }
  row.set("pitfalls", pitfalls);
  row.set("search_log", r.typed(rec.get("search_log"), "search_log", true));
  row.set("profile_evidence", r.typed(rec.get("profile_evidence"), "profile_evidence", false));
  row.set("geomean_source", source);
  if (r.fields.failed()) problems += (problems.empty() ? "" : "; ") + r.fields.problems();
  return row;
}

std::string step_record_path(std::string_view field, std::string_view geomean_source) {
  // In step_record_fields' order.
  static const std::pair<std::string_view, std::string_view> kPaths[] = {
      {"by_shape", "performance.latency_us_by_shape"},
      {"arith_mean_us", "performance.latency_us_arith_mean"},
      {"speedup_vs_ref", "performance.speedup_vs_ref_geomean"},
      {"correctness_status", "correctness.status"},
      {"max_abs_err", "correctness.max_abs_err"},
      {"max_rel_err", "correctness.max_rel_err"},
      {"gate_result", "quality_gate.result"},
      {"gate_failure", "quality_gate.failure_reason"},
      {"action_category", "optimization.action_category"},
      {"action_description", "optimization.action_description"},
      {"expected_impact", "optimization.expected_impact"},
      {"git_commit_hash", "git_commit_hash"},
      {"open_directions", "open_directions"},
      {"pitfalls", "pitfalls_and_fixes"},
      {"search_log", "search_log"},
      {"profile_evidence", "profile_evidence"},
  };
  if (field == "geomean_us")
    return geomean_source.empty() ? std::string() : "performance." + std::string(geomean_source);
  for (const auto &[f, path] : kPaths)
    if (f == field) return std::string(path);
  return "";
}

namespace {
// Cuts every string of `v` longer than `max` bytes at a code-point
// boundary; returns how many it cut. A 100 MB action_description must not
// cost every later stage half a minute.
std::size_t cut_long_strings(json::Value &v, std::size_t max) {
  if (const auto *s = v.as_string()) {
    if (s->size() <= max) return 0;
    v = json::Value(text::prefix_bytes(*s, max));
    return 1;
  }
  std::size_t n = 0;
  if (auto *a = v.as_array())
    for (auto &e : *a) n += cut_long_strings(e, max);
  if (auto *o = v.as_object())
    for (auto &[_, e] : *o) n += cut_long_strings(e, max);
  return n;
}

json::Value same_version(const std::string &dropped, const std::string &key, const std::string &kept) {
  json::Value d = json::Value::object();
  d.set("file", dropped);
  d.set("version", key);
  d.set("why", "another file of the same version (" + kept + ", the name differs only in case) is read instead");
  return d;
}
} // namespace

StepRecordRead read_step_record(const std::string &name, std::string_view bytes, const config::Limits &limits) {
  static const text::Regex variant("(?i)^(v\\d+)([_-].+)$");
  static const text::Regex version("(?i)v\\d+");
  StepRecordRead out;
  json::Value desc = json::Value::object();
  desc.set("file", name);
  auto refuse = [&](const std::string &why) {
    desc.set("why", why);
    out.variant = std::move(desc);
    return out;
  };
  if (!text::is_valid_utf8(bytes)) return refuse("invalid UTF-8");
  json::Value rec;
  try {
    rec = json::parse(bytes, name);
  } catch (const json::ParseError &) {
    return refuse("unparseable");
  }
  if (json::nesting_depth(rec, limits.max_json_depth) > limits.max_json_depth)
    return refuse("nested deeper than " + std::to_string(limits.max_json_depth) + " levels (limits.max_json_depth)");
  std::string stem = name.substr(0, name.size() - 5);
  if (auto m = variant.match(stem)) {
    desc.set("base", text::to_lower((*m)[1]));
    desc.set("suffix", std::string(text::lstrip_chars((*m)[2], "_-")));
    // A variant is no version, but one that measured its version's code
    // again ("v65_retry.json": "re-measured after a noisy run") says what
    // that measurement is worth (kit 55, P22): its geomean and correctness
    // verdict, when it holds them.
    if (rec.is_object()) {
      const auto &g = rec.get("performance").get("latency_us_geomean");
      if (g.is_number() && *g.as_number() > 0) {
        desc.set("geomean_us", g);
        const auto &status = rec.get("correctness").get("status");
        if (status.is_string() || status.is_bool()) desc.set("correctness_status", status);
      }
    }
    out.variant = std::move(desc);
    return out;
  }
  if (!version.fullmatch(stem)) return refuse("not a version name");
  if (auto problem = version_key_problem(stem); !problem.empty()) return refuse(problem);
  std::string key = text::to_lower(stem);
  if (!rec.is_object()) return refuse(std::string("not a JSON object (") + workspace::kind_name(rec) + ")");
  std::string problems, limited;
  if (std::size_t cut = cut_long_strings(rec, limits.max_text_bytes))
    limited = std::to_string(cut) + " string(s) longer than " + std::to_string(limits.max_text_bytes) +
              " bytes cut (limits.max_text_bytes)";
  std::string pitfalls_cut;
  out.fields = step_record_fields(name, rec, problems, limits.max_pitfalls_per_version, pitfalls_cut);
  if (!pitfalls_cut.empty()) limited += (limited.empty() ? "" : "; ") + pitfalls_cut;
  out.key = key;
  if (!problems.empty() || !limited.empty()) {
    desc.set("version", key);
    std::string why = problems.empty() ? "" : "read with defaults: " + problems;
    if (!limited.empty()) why += (why.empty() ? "" : "; ") + std::string("read within limits: ") + limited;
    desc.set("why", why);
    out.variant = std::move(desc);
  }
  return out;
}

MemoryScan scan_memory(const TraceFiles &files) {
  MemoryScan scan;
  std::vector<std::pair<std::string, StepRecordRead>> reads;
  for (const auto &name : files.names("memory")) {
    // As the glob memory/*.json: no hidden files. Anything else the glob
    // matches that is not a regular file (a directory, a FIFO, a link out of
    // the trace) is a skip of the reading policy, listed in meta.json.
    if (name.size() <= 5 || name[0] == '.' || !name.ends_with(".json")) continue;
    const std::string rel = "memory/" + name;
    auto bytes = files.bytes(rel, TraceFiles::Seen::Listed);
    if (!bytes) continue; // a skip of the reading policy (meta.json skipped_files)
    reads.emplace_back(name, read_step_record(name, *bytes, files.limits()));
  }
  // Two names of one version (V0.json, v0.json) must not replace each other
  // silently: the producer's spelling (lower case) is read, else the first.
  std::map<std::string, std::string> reader;
  for (const auto &[name, r] : reads) {
    if (r.key.empty()) continue;
    auto [it, fresh] = reader.emplace(r.key, name);
    if (!fresh && it->second != r.key + ".json" && name == r.key + ".json") it->second = name;
  }
  for (auto &[name, r] : reads) {
    if (!r.key.empty() && reader.at(r.key) != name) {
      scan.variants.push_back(same_version(name, r.key, reader.at(r.key)));
      continue;
    }
    if (!r.key.empty()) scan.records[r.key] = std::move(r.fields);
    if (!r.variant.is_null()) scan.variants.push_back(std::move(r.variant));
  }
  return scan;
}

} // namespace otm::trace
