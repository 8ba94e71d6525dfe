#include "config/config.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"
#include "record/format_tags.hpp"
#include "workspace/kernel_file.hpp"
#include "json/parse.hpp"

namespace otm::config {

json::Value merge(const json::Value &base, const json::Value &over) {
  if (!base.is_object() || !over.is_object()) return over;
  json::Value out = base;
  for (const auto &[k, v] : *over.as_object()) {
    const json::Value *b = base.find(k);
    out.set(k, b ? merge(*b, v) : v);
  }
  return out;
}

Config Config::load(const std::optional<std::filesystem::path> &override_file) {
  Config c;
  c.data_ = json::parse(default_config_text(), "<built-in configuration>");
  if (override_file) {
    json::Value over;
    try {
      over = json::parse_file(*override_file);
    } catch (const std::exception &e) {
      throw Error(ErrorKind::UnreadableInput, std::string("configuration override: ") + e.what());
    }
    if (!over.is_object())
      throw Error(ErrorKind::UnreadableInput,
                  override_file->string() + ": configuration override must be a JSON object");
    c.data_ = merge(c.data_, over);
    c.override_source_ = override_file->string();
  }
  // Validate the parts that decide records up front, so a typo fails now
  // rather than after distillation.
  (void)c.target_table();
  (void)c.ladder();
  (void)c.non_target_kernels();
  (void)c.kernel_files();
  (void)c.limits();
  (void)c.axis_aliases();
  for (const auto &t : c.target_table()) (void)c.sm_count(t.product), (void)c.shared_memory_per_block(t.product);
  return c;
}

Config Config::load(const Settings &settings) {
  auto file = settings.get(Setting::ConfigFile);
  return load(file ? std::optional<std::filesystem::path>(*file) : std::nullopt);
}

std::string Config::source_name() const {
  return override_source_.empty() ? std::string("built-in configuration") : override_source_;
}

namespace {
std::string where(const Config &c) { return c.source_name(); }
double number_at(const Config &c, const json::Value &obj, const char *key, double fallback) {
  const json::Value *v = obj.find(key);
  if (!v) return fallback;
  auto n = v->as_number();
  if (!n) throw Error(ErrorKind::UnreadableInput, where(c) + ": ladder." + key + " must be a number");
  return *n;
}

// A row's string fields, each key spelled once beside its member; absent or
// of another type reads as "" (the callers refuse the ones they require).
template <typename Row, std::size_t N>
void read_strings(const json::Value &e, const std::pair<const char *, std::string Row::*> (&fields)[N], Row &row) {
  for (const auto &[key, field] : fields) row.*field = e.string_or(key);
}
constexpr std::pair<const char *, std::string TargetEntry::*> kTargetFields[] = {
    {"key", &TargetEntry::key},
    {"vendor", &TargetEntry::vendor},
    {"arch", &TargetEntry::arch},
    {"product", &TargetEntry::product},
};
constexpr std::pair<const char *, std::string RegistryEntry::*> kRegistryFields[] = {
    {"path", &RegistryEntry::path},       {"vendor", &RegistryEntry::vendor}, {"arch", &RegistryEntry::arch},
    {"product", &RegistryEntry::product}, {"dsl", &RegistryEntry::dsl},       {"harness", &RegistryEntry::harness},
    {"note", &RegistryEntry::note},
};
} // namespace

std::string Config::builder_version() const { return data_.string_or("builder_version", record::kBuilderVersion); }

std::vector<TargetEntry> Config::target_table() const {
  std::vector<TargetEntry> out;
  const auto &t = data_.get("target_table");
  if (!t.is_array()) throw Error(ErrorKind::UnreadableInput, where(*this) + ": target_table must be a list");
  for (const auto &e : *t.as_array()) {
    TargetEntry te;
    read_strings(e, kTargetFields, te);
    if (te.key.empty() || te.vendor.empty() || te.arch.empty())
      throw Error(ErrorKind::UnreadableInput, where(*this) + ": every target_table entry needs key, vendor and arch");
    out.push_back(std::move(te));
  }
  return out;
}

std::optional<long> Config::sm_count(const std::string &product) const {
  const auto &table = data_.get("launch_grid").get("sm_count");
  if (!table.is_null() && !table.is_object())
    throw Error(ErrorKind::UnreadableInput,
                where(*this) + ": launch_grid.sm_count must be an object of product -> SMs");
  auto n = table.get(product).as_number();
  if (product.empty() || !n) return std::nullopt;
  if (*n < 1 || *n > 100000 || *n != static_cast<double>(static_cast<long>(*n)))
    throw Error(ErrorKind::UnreadableInput,
                where(*this) + ": launch_grid.sm_count." + product + " must be a whole number of SMs");
  return static_cast<long>(*n);
}

std::optional<long> Config::shared_memory_per_block(const std::string &product) const {
  const auto &table = data_.get("device_limits").get("shared_memory_per_block_bytes");
  if (!table.is_null() && !table.is_object())
    throw Error(ErrorKind::UnreadableInput,
                where(*this) + ": device_limits.shared_memory_per_block_bytes must be an object of product -> bytes");
  auto n = table.get(product).as_number();
  if (product.empty() || !n) return std::nullopt;
  if (*n < 1024 || *n > 1e9 || *n != static_cast<double>(static_cast<long>(*n)))
    throw Error(ErrorKind::UnreadableInput, where(*this) + ": device_limits.shared_memory_per_block_bytes." + product +
                                                " must be a whole number of bytes");
  return static_cast<long>(*n);
}

std::set<std::string> Config::products_without_fp8_matmul() const {
  std::set<std::string> out;
  const auto &list = data_.get("device_limits").get("products_without_fp8_matmul");
  if (list.is_null()) return out;
  const auto *items = list.as_array();
  if (!items)
    throw Error(ErrorKind::UnreadableInput,
                where(*this) + ": device_limits.products_without_fp8_matmul must be a list of product names");
  for (const auto &v : *items) {
    const auto *name = v.as_string();
    if (!name || name->empty())
      throw Error(ErrorKind::UnreadableInput,
                  where(*this) + ": device_limits.products_without_fp8_matmul must hold product names (strings)");
    out.insert(*name);
  }
  return out;
}

std::map<std::string, std::vector<std::string>> Config::axis_aliases() const {
  std::map<std::string, std::vector<std::string>> out;
  const auto &table = data_.get("shape_axes").get("aliases");
  if (table.is_null()) return out;
  const auto *axes = table.as_object();
  if (!axes)
    throw Error(ErrorKind::UnreadableInput, where(*this) + ": shape_axes.aliases must be an object of axis -> names");
  for (const auto &[axis, names] : *axes) {
    const auto *list = names.as_array();
    if (!list)
      throw Error(ErrorKind::UnreadableInput,
                  where(*this) + ": shape_axes.aliases." + axis + " must be a list of names");
    for (const auto &n : *list) {
      const auto *name = n.as_string();
      if (!name || name->empty())
        throw Error(ErrorKind::UnreadableInput, where(*this) + ": shape_axes.aliases." + axis + " must hold names");
      out[axis].push_back(*name);
    }
  }
  return out;
}

std::vector<std::string> Config::non_target_kernels() const {
  std::vector<std::string> out;
  const auto &t = data_.get("non_target_kernels");
  if (!t.is_array())
    throw Error(ErrorKind::UnreadableInput, where(*this) + ": non_target_kernels must be a list of strings");
  for (const auto &e : *t.as_array())
    if (auto s = e.as_string()) out.push_back(*s);
  return out;
}

std::vector<std::string> Config::kernel_files() const {
  const auto &t = data_.get("kernel_files");
  if (t.is_null()) return {workspace::kDefaultKernelFile};
  std::vector<std::string> out;
  if (t.is_array())
    for (const auto &e : *t.as_array()) {
      const auto *s = e.as_string();
      // A relative path inside the trace: no escape from it.
      if (!s || s->empty() || s->front() == '/' || s->find("..") != std::string::npos) {
        out.clear();
        break;
      }
      out.push_back(*s);
    }
  if (out.empty())
    throw Error(ErrorKind::UnreadableInput,
                where(*this) +
                    ": kernel_files must be a non-empty list of file paths inside the trace (\"kernel.py\")");
  return out;
}

LadderThresholds Config::ladder() const {
  LadderThresholds l;
  const auto &o = data_.get("ladder");
  if (o.is_null()) return l;
  if (!o.is_object()) throw Error(ErrorKind::UnreadableInput, where(*this) + ": ladder must be an object");
  l.milestone_pct = number_at(*this, o, "milestone_pct", l.milestone_pct);
  l.mega_pct = number_at(*this, o, "mega_pct", l.mega_pct);
  l.rebaseline_factor = number_at(*this, o, "rebaseline_factor", l.rebaseline_factor);
  l.final_tolerance = number_at(*this, o, "final_tolerance", l.final_tolerance);
  double d = number_at(*this, o, "deadend_min_chars", static_cast<double>(l.deadend_min_chars));
  if (d < 0) throw Error(ErrorKind::UnreadableInput, where(*this) + ": ladder.deadend_min_chars must not be negative");
  l.deadend_min_chars = static_cast<std::size_t>(d);
  if (const auto &list = o.get("measurement_change_commits"); !list.is_null())
    l.measurement_change_commits = levers::patterns_regex(
        list, true, where(*this) + ": ladder.measurement_change_commits", levers::PatternsMatch::Anywhere);
  if (l.rebaseline_factor <= 1.0)
    throw Error(ErrorKind::UnreadableInput, where(*this) + ": ladder.rebaseline_factor must exceed 1");
  return l;
}

Boilerplate Config::boilerplate() const {
  Boilerplate b;
  const auto &o = data_.get("boilerplate");
  const std::string here = where(*this) + ": boilerplate";
  if (o.is_null()) return b;
  if (!o.is_object()) throw Error(ErrorKind::Usage, here + " must be an object");
  const auto &steps = o.get("template_min_steps");
  if (!steps.is_null()) {
    if (!steps.is_int() || *steps.as_int() < 2)
      throw Error(ErrorKind::Usage, here + ".template_min_steps must be an integer of at least 2");
    b.template_min_steps = static_cast<std::size_t>(*steps.as_int());
  }
  const auto &share = o.get("max_mechanism_share");
  if (!share.is_null()) {
    if (!share.is_number() || *share.as_number() <= 0 || *share.as_number() > 1)
      throw Error(ErrorKind::Usage, here + ".max_mechanism_share must be a number in (0, 1]");
    b.max_mechanism_share = *share.as_number();
  }
  return b;
}

std::size_t Boilerplate::shared_limit(std::size_t strategies) const {
  return std::max<std::size_t>(1, static_cast<std::size_t>(max_mechanism_share * static_cast<double>(strategies)));
}

Limits Config::limits() const {
  Limits l;
  const auto &o = data_.get("limits");
  if (o.is_null()) return l;
  if (!o.is_object()) throw Error(ErrorKind::Usage, where(*this) + ": limits must be an object");
  auto count = [&](const char *key, std::size_t &field) {
    const json::Value *v = o.find(key);
    if (!v) return;
    auto n = v->as_number();
    if (!v->is_number() || !n || *n < 1 || *n > 9.0e15 || *n != static_cast<double>(static_cast<long long>(*n)))
      throw Error(ErrorKind::Usage, where(*this) + ": limits." + key + " must be a positive integer");
    field = static_cast<std::size_t>(*n);
  };
  count("max_file_bytes", l.max_file_bytes);
  count("max_input_bytes", l.max_input_bytes);
  count("max_line_bytes", l.max_line_bytes);
  count("max_json_depth", l.max_json_depth);
  count("max_text_bytes", l.max_text_bytes);
  count("max_subject_bytes", l.max_subject_bytes);
  count("max_message_bytes", l.max_message_bytes);
  count("max_name_bytes", l.max_name_bytes);
  count("max_pitfalls_per_version", l.max_pitfalls_per_version);
  count("max_segments_per_version", l.max_segments_per_version);
  count("max_journal_entries", l.max_journal_entries);
  count("max_reference_kernel_lines", l.max_reference_kernel_lines);
  count("max_explain_items", l.max_explain_items);
  return l;
}

std::optional<RegistryEntry> Config::registry_entry(const std::string &name) const {
  const json::Value *e = data_.get("traces").find(name);
  if (!e || !e->is_object()) return std::nullopt;
  RegistryEntry r;
  r.name = name;
  read_strings(*e, kRegistryFields, r);
  return r;
}

std::vector<std::string> Config::registry_names() const {
  std::vector<std::string> out;
  if (auto o = data_.get("traces").as_object())
    for (const auto &m : *o) out.push_back(m.first);
  return out;
}

} // namespace otm::config
