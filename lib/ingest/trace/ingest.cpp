#include "trace/ingest.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <unordered_map>
#include <utility>

#include "error/error.hpp"
#include "git/repository.hpp"
#include "io/file.hpp"
#include "text/pyformat.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/captures.hpp"
#include "trace/dsl.hpp"
#include "trace/families.hpp"
#include "trace/step_record.hpp"
#include "trace/subject_grammar.hpp"
#include "trace/trace_files.hpp"
#include "trace/version_key.hpp"
#include "workspace/capture_row.hpp"
#include "workspace/trace_meta.hpp"
#include "workspace/version_row.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace otm::trace {

namespace fs = std::filesystem;
using config::Setting;

namespace {

constexpr const char *kDefaultHarness = "the trace's own benchmark harness";

// An optional JSON input: missing, unreadable, invalid or not an object
// reads as {} (spec §5); invalid or not an object leave a warning, a file
// the reading policy refuses is a skip (meta.json skipped_files).
json::Value optional_object(const TraceFiles &files, const std::string &rel, std::vector<std::string> &warnings) {
  auto bytes = files.bytes(rel);
  if (!bytes) return json::Value::object();
  try {
    json::Value v = json::parse(*bytes, rel);
    if (v.is_object()) return v;
    warnings.push_back(rel + " is not a JSON object; read as {}");
  } catch (const std::exception &e) {
    warnings.push_back(rel + " could not be read (" + e.what() + "); read as {}");
  }
  return json::Value::object();
}

// A commit message part cut to `max` bytes at a code-point boundary.
std::string bounded(std::string s, std::size_t max, const std::string &what, const std::string &sha, const char *limit,
                    std::vector<std::string> &warnings) {
  if (s.size() <= max) return s;
  std::string cut(text::prefix_bytes(s, max));
  warnings.push_back("commit " + sha.substr(0, 12) + ": " + what + " of " + std::to_string(s.size()) +
                     " bytes cut to " + std::to_string(cut.size()) + " (" + limit + ")");
  return cut;
}

std::optional<std::string> setting_or(const TraceLocation &loc, Setting s, const std::string &registry_value) {
  if (auto v = loc.settings.get(s)) return v;
  if (!registry_value.empty()) return registry_value;
  return std::nullopt;
}

std::string source_of(const TraceLocation &loc, Setting s, const char *env_flag, const char *field) {
  if (loc.settings.get(s)) return env_flag;
  return "registry entry '" + (loc.registry ? loc.registry->name : std::string()) + "' field " + field;
}

// DSL of the kernel file in each commit of items[from, to), keyed by blob
// id so an unchanged kernel file is classified once.
std::vector<std::string> kernel_dsls(const git::Repository &repo, const std::string &kernel_file,
                                     const std::vector<std::pair<std::string, std::string>> &items, std::size_t from,
                                     std::size_t to) {
  std::vector<std::string> out;
  std::unordered_map<std::string, std::string> by_blob;
  for (std::size_t k = from; k < to; ++k) {
    auto blob = repo.blob_id(items[k].second, kernel_file);
    if (!blob) {
      out.push_back(detect_dsl(""));
    } else if (auto hit = by_blob.find(*blob); hit != by_blob.end()) {
      out.push_back(hit->second);
    } else {
      // Raw bytes: the keywords are ASCII, and replacing invalid UTF-8 (as
      // the reference's decoding does) never adds or removes an ASCII byte.
      repo.with_blob(*blob, [&out](std::string_view source) { out.push_back(detect_dsl(source)); });
      by_blob.emplace(*blob, out.back());
    }
  }
  return out;
}

} // namespace

ConfiguredTarget configured_target(const TraceLocation &loc) {
  config::RegistryEntry reg = loc.registry.value_or(config::RegistryEntry{});
  ConfiguredTarget c;
  c.vendor = setting_or(loc, Setting::Vendor, reg.vendor);
  c.arch = setting_or(loc, Setting::Arch, reg.arch);
  c.product = setting_or(loc, Setting::Product, reg.product);
  c.vendor_source = source_of(loc, Setting::Vendor, "RTM_VENDOR / --vendor", "vendor");
  c.arch_source = source_of(loc, Setting::Arch, "RTM_ARCH / --arch", "arch");
  c.product_source = source_of(loc, Setting::Product, "RTM_PRODUCT / --product", "product");
  validate_configured(c);
  return c;
}

namespace {

// The configured DSL (RTM_DSL, else the registry's), refused when the store
// schema does not know it.
std::optional<std::string> configured_dsl_of(const TraceLocation &loc, const config::RegistryEntry &reg) {
  auto dsl = setting_or(loc, Setting::Dsl, reg.dsl);
  if (dsl && std::find(known_dsls().begin(), known_dsls().end(), *dsl) == known_dsls().end()) {
    std::string known;
    for (const auto &d : known_dsls()) known += (known.empty() ? "" : ", ") + d;
    throw Error(ErrorKind::Refused, source_of(loc, Setting::Dsl, "RTM_DSL / --dsl", "dsl") + " is '" + *dsl +
                                        "', not a DSL the store schema knows (" + known + ")");
  }
  return dsl;
}

// definition.json's "name", else the trace directory's name; refused when
// longer than limits.max_name_bytes.
std::string operator_name_of(const json::Value &definition, const TraceFiles &files, const fs::path &trace) {
  const config::Limits &limits = files.limits();
  const json::Value &name_v = definition.get("name");
  std::string operator_name = name_v.is_string() && !name_v.as_string()->empty()
                                  ? *name_v.as_string()
                                  : files.valid_utf8(trace.filename().string(), "the trace directory's name");
  if (operator_name.size() > limits.max_name_bytes)
    throw Error(ErrorKind::UnreadableInput, (name_v.is_string() ? "definition.json: the operator name (\"name\")"
                                                                : "the trace directory's name (the operator name)") +
                                                std::string(" is ") + std::to_string(operator_name.size()) +
                                                " bytes, over limits.max_name_bytes (" +
                                                std::to_string(limits.max_name_bytes) +
                                                "); shorten it, or raise the limit in a configuration override");
  return operator_name;
}

struct History {
  std::vector<git::Commit> commits;               // oldest first, text made valid and bounded
  std::map<std::string, std::size_t> last_commit; // version key → index into commits
  json::Value non_version = json::Value::array(); // subjects of the other commits
  // Per version commit (index into commits), the subjects of the other
  // commits since the version commit before it: a harness change made
  // between two versions is read where it was made.
  std::map<std::size_t, std::vector<std::string>> others_before;
};

// History: the last commit of a version in topological order wins. Commit
// text is untrusted like any file: valid UTF-8, within the limits.
History read_history(const git::Repository &repo, const TraceFiles &files, std::vector<std::string> &warnings) {
  const config::Limits &limits = files.limits();
  History h;
  h.commits = repo.commits_oldest_first();
  std::vector<std::string> others; // since the last version commit
  for (std::size_t i = 0; i < h.commits.size(); ++i) {
    git::Commit &c = h.commits[i];
    const std::string source = "commit " + c.sha.substr(0, 12);
    c.subject = bounded(files.valid_utf8(c.subject, source + " subject"), limits.max_subject_bytes, "subject", c.sha,
                        "limits.max_subject_bytes", warnings);
    c.body = bounded(files.valid_utf8(c.body, source + " body"), limits.max_message_bytes, "body", c.sha,
                     "limits.max_message_bytes", warnings);
    auto prefix = subject_version_prefix(c.subject);
    if (prefix && version_number(*prefix)) {
      // The commits before the first version set the trace up: no
      // measurement before them compares with one after.
      if (!others.empty() && !h.last_commit.empty()) h.others_before[i] = others;
      others.clear();
      h.last_commit[text::to_lower(*prefix)] = i;
      continue;
    }
    if (prefix)
      warnings.push_back(source + " is not read as a version: " + version_key_problem(*prefix) + " (subject '" +
                         std::string(text::prefix_code_points(c.subject, 60)) + "')");
    h.non_version.push_back(std::string(text::prefix_code_points(c.subject, 90)));
    others.push_back(std::string(text::prefix_code_points(c.subject, 90)));
  }
  return h;
}

// Each committed version's DSL, from the kernel file in its commit. The second
// half is classified on another thread with its own repository handle
// (libgit2 handles are not shared across threads).
std::map<std::string, std::string> commit_dsls(const fs::path &trace, const git::Repository &repo,
                                               const std::string &kernel_file, const History &h,
                                               const std::optional<std::string> &configured_dsl) {
  std::vector<std::pair<std::string, std::string>> committed; // key, sha
  for (const auto &[key, index] : h.last_commit) committed.emplace_back(key, h.commits[index].sha);
  const std::size_t half = committed.size() / 2;
  auto second_half = std::async(std::launch::async, [&trace, &kernel_file, &committed, half] {
    git::Repository own = git::Repository::open(trace);
    return kernel_dsls(own, kernel_file, committed, half, committed.size());
  });
  std::vector<std::string> dsls = kernel_dsls(repo, kernel_file, committed, 0, half);
  for (auto &d : second_half.get()) dsls.push_back(std::move(d));
  std::map<std::string, std::string> commit_dsl;
  for (std::size_t k = 0; k < committed.size(); ++k) {
    // A configured DSL names what keyword detection could not.
    if (dsls[k] == "any" && configured_dsl) dsls[k] = *configured_dsl;
    commit_dsl.emplace(committed[k].first, std::move(dsls[k]));
  }
  return commit_dsl;
}

// Every version, numbered: those of commit subjects, then those only a
// memory/ file has; every key here passed version_number (commit subjects
// in read_history, memory/ files in read_step_record).
std::vector<std::pair<std::int64_t, std::string>> version_order(const History &h, const MemoryScan &memory) {
  std::vector<std::pair<std::int64_t, std::string>> order;
  for (const auto &[k, _] : h.last_commit) order.emplace_back(*version_number(k), k);
  for (const auto &[k, _] : memory.records)
    if (!h.last_commit.count(k)) order.emplace_back(*version_number(k), k);
  std::sort(order.begin(), order.end());
  return order;
}

// One work/versions.jsonl row (§9.1): the version, its captures, its commit
// (if any) with the subject's fields, then its step record (if any).
json::Value version_row(std::int64_t n, const std::string &key, const git::Commit *c, const json::Value *step,
                        const std::string &dsl, const std::vector<const json::Value *> *captures,
                        const std::vector<std::string> *others_before) {
  workspace::VersionRow row;
  row.version = key;
  row.n = n;
  row.has_commit = c != nullptr;
  row.has_memory = step != nullptr;
  row.dsl = dsl;
  if (captures) {
    for (const json::Value *p : *captures) {
      const std::string *dir = p->get("dir").as_string(); // scan_captures names each by its directory
      row.profile_dirs.push_back(*dir);
      if (p->get("ncu_usable").truthy()) row.ncu_usable_dirs.push_back(*dir);
      if (p->get("has_report").truthy()) row.report_dirs.push_back(*dir);
    }
  }
  if (c) {
    row.sha = c->sha;
    if (!c->parents.empty()) row.parent = c->parents.front();
    row.date = c->author_date;
    row.subject = c->subject;
    row.body = std::string(text::strip(c->body));
    CommitFields f = parse_commit_message(c->subject, row.body);
    row.reverted = f.reverted;
    row.subject_before_us = f.before_us;
    row.subject_after_us = f.after_us;
    row.subject_pct = f.pct;
    row.subject_baseline_us = f.baseline_us;
    row.deadend_blob = std::move(f.deadend_blob);
    row.deadend_items = std::move(f.deadend_items);
    row.deadend_streak = f.deadend_streak;
    row.next_direction = std::move(f.next_direction);
    row.stated_change = std::move(f.stated_change);
    if (others_before) row.other_commits_before = *others_before;
  }
  // step_record_fields writes each §3.1 field with the type the row reads.
  if (step) return row.with_members(*step->as_object()).value().to_json();
  return row.to_json();
}

// Non-blank lines of workload.jsonl: the number of shapes.
std::size_t count_shapes(const TraceFiles &files) {
  std::size_t n_shapes = 0;
  if (auto workload = files.bytes("workload.jsonl")) {
    std::string_view w = *workload;
    while (!w.empty()) {
      auto nl = w.find('\n');
      if (!text::strip(w.substr(0, nl)).empty()) ++n_shapes;
      if (nl == std::string_view::npos) break;
      w = w.substr(nl + 1);
    }
  }
  return n_shapes;
}

struct MetaInputs {
  const json::Value &definition;
  const json::Value &solution;
  const std::string &operator_name;
  const TraceFiles &files;
  const HardwareTarget &target;
  const std::string &final_dsl;
  const std::string &dsl_default;
  std::string harness;
  std::string source_repo;
  std::string head_sha;
  std::string kernel_file;
};

// The "meta" object of work/meta.json (§9.3).
json::Value trace_meta(const MetaInputs &in, std::vector<std::string> &warnings) {
  workspace::TraceMeta meta;
  std::string normalised = normalise(in.operator_name);
  meta.constants = json::Value::object();
  if (const auto *axes = in.definition.get("axes").as_object()) {
    for (const auto &[axis, spec] : *axes) {
      const std::string type = spec.string_or("type");
      if (type == "const" && !spec.get("value").is_null()) meta.constants.set(axis, spec.get("value"));
      if (type == "var") meta.var_axes.push_back(axis);
    }
  }
  const json::Value &spec = in.solution.get("spec");
  auto list_of = [](const json::Value &v) {
    if (v.is_array()) return v;
    json::Value a = json::Value::array();
    if (v.is_string()) a.push_back(v);
    return a;
  };
  const std::string &operator_name = in.operator_name;
  meta.operator_name = operator_name;
  const std::string operator_slug = slugify(normalised);
  if (std::any_of(operator_name.begin(), operator_name.end(),
                  [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    warnings.push_back("the operator name '" + operator_name +
                       "' has characters outside ASCII, which its slug (part of every record id) drops: '" +
                       operator_slug + "'" +
                       (operator_slug == "unknown" ? "; give definition.json an ASCII \"name\"" : ""));
  meta.operator_slug = operator_slug;
  meta.workload_family = family_of(normalised);
  meta.description = in.definition.get("description");
  meta.n_shapes = count_shapes(in.files);
  meta.target_hardware = list_of(spec.get("target_hardware"));
  meta.languages = list_of(spec.get("languages"));
  meta.final_dsl = in.final_dsl;
  meta.vendor = in.target.vendor;
  meta.arch = in.target.arch;
  meta.product = in.target.product;
  meta.arch_basis = in.target.arch_basis;
  meta.dsl_default = in.dsl_default;
  meta.harness = in.harness.empty() ? std::string(kDefaultHarness) : in.harness;
  meta.source_repo = in.source_repo;
  meta.head_sha = in.head_sha;
  meta.kernel_file = in.kernel_file;
  return meta.to_json();
}

} // namespace

IngestResult ingest(const TraceLocation &loc, const config::Config &config) {
  IngestResult res;
  const fs::path &trace = loc.trace;
  config::RegistryEntry reg = loc.registry.value_or(config::RegistryEntry{});

  // Everything that can refuse the run is decided before the history is read.
  ConfiguredTarget configured = configured_target(loc);
  auto configured_dsl = configured_dsl_of(loc, reg);
  TraceFiles files(trace, config.limits());
  json::Value definition = optional_object(files, "definition.json", res.warnings);
  json::Value solution = optional_object(files, "solution.json", res.warnings);
  std::string operator_name = operator_name_of(definition, files, trace);
  std::vector<std::string> tokens = hardware_tokens(definition, solution);
  HardwareTarget target = resolve_hardware(tokens, config.target_table(), configured);

  // The working-tree reads (step records, captures) overlap the git reads;
  // they share nothing but thread-safe compiled regexes.
  auto non_target = non_target_kernels(loc.settings, config);
  auto scans = std::async(std::launch::async, [&files, non_target] {
    return std::make_pair(scan_memory(files), scan_captures(files, non_target));
  });

  git::Repository repo = git::Repository::open(trace);
  History history = read_history(repo, files, res.warnings);

  // The kernel file, decided at HEAD (the working tree's when the history
  // has none).
  const auto head = repo.head();
  const std::string kernel_file =
      workspace::kernel_file_of(config.kernel_files(), [&](const std::string &path) -> std::optional<std::string> {
        if (head) return repo.read_at(*head, path);
        return files.bytes(path);
      });
  // Raw bytes, as for the committed kernels.
  std::string final_dsl = detect_dsl(files.bytes(kernel_file).value_or(""));
  std::string dsl_default = configured_dsl ? *configured_dsl : final_dsl;
  auto commit_dsl = commit_dsls(trace, repo, kernel_file, history, configured_dsl);

  auto [memory, profiles] = scans.get();
  res.profiles = std::move(profiles);

  std::map<std::string, std::vector<const json::Value *>> captures_of;
  for (const auto &p : res.profiles) captures_of[workspace::CaptureRow::from_json(p).version].push_back(&p);

  for (const auto &[n, key] : version_order(history, memory)) {
    auto ci = history.last_commit.find(key);
    auto mi = memory.records.find(key);
    const git::Commit *c = ci == history.last_commit.end() ? nullptr : &history.commits[ci->second];
    std::string dsl = c ? commit_dsl.at(key) : (dsl_default.empty() ? "any" : dsl_default);
    auto cap = captures_of.find(key);
    auto others = c ? history.others_before.find(ci->second) : history.others_before.end();
    res.versions.push_back(version_row(n, key, c, mi == memory.records.end() ? nullptr : &mi->second, dsl,
                                       cap == captures_of.end() ? nullptr : &cap->second,
                                       others == history.others_before.end() ? nullptr : &others->second));
  }

  MetaInputs meta_in{
      definition, solution,          operator_name, files,
      target,     final_dsl,         dsl_default,   loc.settings.get(Setting::Harness).value_or(reg.harness),
      loc.label,  head.value_or(""), kernel_file};
  json::Value meta = trace_meta(meta_in, res.warnings);
  res.meta = json::Value::object();
  res.meta.set("meta", meta);
  res.meta.set("memory_variants", memory.variants);
  res.meta.set("non_version_commits", history.non_version);
  // What the reading policy did not read, and what it had to repair
  // (docs/security.md): never silent.
  const json::Value skipped = files.skipped_json();
  res.meta.set("skipped_files", skipped);
  res.meta.set("invalid_utf8", files.invalid_utf8_json());
  res.meta.set("warnings", json::Value::strings(res.warnings));
  for (const auto &e : *skipped.as_array())
    res.warnings.push_back("skipped " + e.string_or("file") + ": " + e.string_or("why"));
  if (auto n = files.replaced_count())
    res.warnings.push_back(std::to_string(n) + " invalid UTF-8 byte(s) replaced by U+FFFD (meta.json invalid_utf8)");
  return res;
}

std::string summary_text(const TraceLocation &loc, const IngestResult &r) {
  const auto m = workspace::TraceMeta::from_json(r.meta.get("meta"));
  std::size_t with_commit = 0, with_memory = 0, both = 0, reverted = 0, kept = 0, lists = 0, items = 0;
  std::map<std::string, std::size_t> dsl_counts;
  std::size_t geomean_fallback = 0;
  for (const auto &v : workspace::read_version_rows(r.versions, "work/versions.jsonl")) {
    with_commit += v.has_commit;
    with_memory += v.has_memory;
    both += v.has_commit && v.has_memory;
    if (v.has_commit) (v.reverted ? reverted : kept)++;
    if (v.deadend_items) {
      ++lists;
      items += v.deadend_items->size();
    }
    ++dsl_counts[v.dsl];
    if (v.geomean_source == "latency_us") ++geomean_fallback;
  }
  std::vector<std::pair<std::string, std::size_t>> dsls(dsl_counts.begin(), dsl_counts.end());
  std::stable_sort(dsls.begin(), dsls.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  std::string dsl_text;
  for (const auto &[d, n] : dsls) dsl_text += (dsl_text.empty() ? "" : ", ") + d + " x" + std::to_string(n);
  std::size_t usable = 0;
  for (const auto &p : r.profiles) usable += p.get("ncu_usable").truthy();
  double pct = 100.0 * static_cast<double>(usable) / static_cast<double>(std::max<std::size_t>(1, r.profiles.size()));

  std::string s;
  s += "trace:      " + loc.trace.string() + "\n";
  s += "slug:       " + loc.slug + "\n";
  s += "operator:   " + m.operator_name + " -> " + m.operator_slug + " / " + m.workload_family + " (" +
       m.n_shapes.python_str() + " shapes)\n";
  s += "target:     " + m.vendor + "/" + m.arch + "/" + m.product + " [" + m.arch_basis + "]\n";
  s += "dsl:        final " + m.final_dsl + "; per version: " + (dsl_text.empty() ? "none" : dsl_text) + "\n";
  s += "versions:   " + std::to_string(r.versions.size()) + " total, " + std::to_string(with_commit) +
       " with commit, " + std::to_string(with_memory) + " with memory, " + std::to_string(both) + " with both\n";
  s += "verdicts:   " + std::to_string(reverted) + " reverted, " + std::to_string(kept) + " kept\n";
  s += "dead-ends:  " + std::to_string(lists) + " subjects with a parsed list, " + std::to_string(items) + " items\n";
  s += "filtered:   " + std::to_string(r.meta.get("memory_variants").size()) + " step-record files\n";
  if (geomean_fallback)
    s += "geomean:    " + std::to_string(geomean_fallback) +
         " versions read performance.latency_us (no latency_us_geomean)\n";
  s += "captures:   " + std::to_string(r.profiles.size()) + ", " + std::to_string(usable) + " usable (" +
       text::fixed(pct, 0) + "%)\n";
  for (const auto &w : r.warnings) s += "warning:    " + w + "\n";
  return s;
}

void write_ingest(const TraceLocation &loc, const IngestResult &r, const std::string &versions_out) {
  const auto &ws = loc.workspace;
  fs::create_directories(ws.work_dir());
  fs::create_directories(ws.packets_dir());
  // Scratch files (docs/durability.md): atomic, flushed once at the end.
  io::write_output(versions_out.empty() ? ws.versions_file().string() : versions_out, json::to_lines(r.versions),
                   io::FileClass::Scratch);
  io::write_file_atomic(ws.profiles_file(), json::to_lines(r.profiles), io::FileClass::Scratch);
  io::write_file_atomic(ws.meta_file(), json::to_pretty(r.meta), io::FileClass::Scratch);
  io::sync_file_system(ws.work_dir());
}

} // namespace otm::trace
