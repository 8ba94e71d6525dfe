#include "workspace/trace_meta.hpp"

#include <utility>

namespace otm::workspace {

namespace {

// The string fields, by key: read the same way, one place.
constexpr std::pair<const char *, std::string TraceMeta::*> kStringFields[] = {
    {"operator_name", &TraceMeta::operator_name},
    {"operator_slug", &TraceMeta::operator_slug},
    {"workload_family", &TraceMeta::workload_family},
    {"final_dsl", &TraceMeta::final_dsl},
    {"vendor", &TraceMeta::vendor},
    {"arch", &TraceMeta::arch},
    {"product", &TraceMeta::product},
    {"arch_basis", &TraceMeta::arch_basis},
    {"dsl_default", &TraceMeta::dsl_default},
    {"harness", &TraceMeta::harness},
    {"source_repo", &TraceMeta::source_repo},
    {"head_sha", &TraceMeta::head_sha},
};

// The fields kept as JSON values, by key.
constexpr std::pair<const char *, json::Value TraceMeta::*> kValueFields[] = {
    {"description", &TraceMeta::description}, {"constants", &TraceMeta::constants},
    {"n_shapes", &TraceMeta::n_shapes},       {"target_hardware", &TraceMeta::target_hardware},
    {"languages", &TraceMeta::languages},
};

} // namespace

TraceMeta TraceMeta::from_json(const json::Value &meta) {
  TraceMeta m;
  for (const auto &[key, field] : kStringFields) m.*field = meta.string_or(key);
  for (const auto &[key, field] : kValueFields) m.*field = meta.get(key);
  if (const auto *axes = meta.get("var_axes").as_array())
    for (const auto &a : *axes)
      if (const auto *s = a.as_string()) m.var_axes.push_back(*s);
  m.kernel_file = meta.string_or("kernel_file", kDefaultKernelFile);
  if (m.kernel_file.empty()) m.kernel_file = kDefaultKernelFile;
  return m;
}

std::map<std::string, std::vector<TraceMeta::ReMeasurement>>
TraceMeta::re_measurements_in(const json::Value &memory_variants, const text::Regex *suffix) {
  std::map<std::string, std::vector<ReMeasurement>> out;
  if (const auto *variants = memory_variants.as_array(); variants && suffix)
    for (const auto &v : *variants)
      if (const auto g = v.get("geomean_us").as_number();
          g && *g > 0 && !v.string_or("base").empty() && suffix->contains(v.string_or("suffix")))
        out[v.string_or("base")].push_back({v.string_or("file"), *g, v.get("correctness_status")});
  return out;
}

json::Value TraceMeta::to_json() const {
  json::Value meta = json::Value::object();
  meta.set("operator_name", operator_name);
  meta.set("operator_slug", operator_slug);
  meta.set("workload_family", workload_family);
  meta.set("description", description);
  meta.set("constants", constants);
  meta.set("var_axes", json::Value::strings(var_axes));
  meta.set("n_shapes", n_shapes);
  meta.set("target_hardware", target_hardware);
  meta.set("languages", languages);
  meta.set("final_dsl", final_dsl);
  meta.set("vendor", vendor);
  meta.set("arch", arch);
  meta.set("product", product);
  meta.set("arch_basis", arch_basis);
  meta.set("dsl_default", dsl_default);
  meta.set("harness", harness);
  meta.set("source_repo", source_repo);
  meta.set("head_sha", head_sha);
  meta.set("kernel_file", kernel_file);
  return meta;
}

} // namespace otm::workspace
