#include "record_maker.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "random.hpp"
#include "record/format_tags.hpp"
#include "record/id_format.hpp"
#include "scoring/worth_model.hpp"
#include "text_maker.hpp"

namespace otm::bench {

namespace {

// Proportions follow the real store (mostly cards and documents seeded from
// pages) plus the types the pipeline adds from traces.
const std::vector<std::string> kTypes = {"technique-card", "anti-strategy",    "doc",           "strategy",
                                         "symptom-card",   "reference-kernel", "numerics-rule", "dispatch-rule"};
const std::vector<unsigned> kTypeWeights = {40, 22, 17, 10, 3, 4, 2, 2};

struct ScopeRow {
  std::string vendor, arch;
  std::vector<std::string> products, dsls;
  unsigned weight;
};
const std::vector<ScopeRow> &scopes() {
  static const std::vector<ScopeRow> rows = {
      {"nvidia", "blackwell", {"b200", "gb200"}, {"any", "triton", "cutedsl", "gluon", "cuda"}, 38},
      {"amd", "cdna3", {"mi300x", "mi308x"}, {"flydsl", "gluon", "any", "triton", "aiter"}, 17},
      {"nvidia", "blackwell-geforce", {"sm120"}, {"cutedsl", "cuda", "triton"}, 12},
      {"nvidia", "generic", {}, {"any", "cutedsl", "triton", "gluon"}, 9},
      {"amd", "generic", {}, {"any", "flydsl"}, 8},
      {"nvidia", "hopper", {"h100", "h200"}, {"gluon", "any", "cutedsl", "triton", "cuda"}, 7},
      {"amd", "cdna4", {"mi355x"}, {"gluon", "flydsl", "any"}, 4},
      {"generic", "generic", {}, {"any"}, 3},
      {"nvidia", "blackwell-ultra", {"b300"}, {"any", "triton"}, 1},
      {"nvidia", "ampere", {"a100"}, {"cuda", "triton"}, 1},
      {"amd", "rdna4", {}, {"any"}, 1},
  };
  return rows;
}

struct Family {
  std::string name, workload;
};
const std::vector<Family> &families() {
  static const std::vector<Family> rows = {{"gemm", "gemm-projection"},
                                           {"grouped-gemm", "moe"},
                                           {"flash-attention", "attention"},
                                           {"paged-attention", "attention"},
                                           {"mla", "attention"},
                                           {"moe-dispatch", "moe"},
                                           {"rmsnorm", "norm"},
                                           {"layernorm", "norm"},
                                           {"softmax", "misc"},
                                           {"rope", "rope"},
                                           {"gated-delta", "ssm-linear-attention"},
                                           {"selective-scan", "ssm-linear-attention"},
                                           {"conv2d", "conv-vision"},
                                           {"topk", "mask-index"},
                                           {"sort", "misc"},
                                           {"allreduce", "misc"},
                                           {"gemv", "gemm-projection"},
                                           {"quantize", "gemm-projection"},
                                           {"swiglu", "mlp-activation"},
                                           {"decoder-block", "decoder-layer"}};
  return rows;
}

const std::vector<std::string> kWorkloads = {"attention",  "conv-vision", "decoder-layer",        "gemm-projection",
                                             "mask-index", "misc",        "mlp-activation",       "moe",
                                             "norm",       "rope",        "ssm-linear-attention", "any"};
const std::vector<std::string> kArchs = {"ampere", "hopper", "blackwell", "blackwell-ultra", "blackwell-geforce",
                                         "cdna3",  "cdna4",  "rdna4"};
const std::vector<std::string> kBottlenecks = {
    "launch-overhead", "host-sync-stall",           "store-bandwidth-bound",  "alu-saturated",
    "tiny-m-gemm",     "occupancy-register-capped", "precision-gate-failure", "vendor-library-floor",
    "tail-effect",     "moe-load-imbalance"};
const std::vector<std::string> kVerdicts = {"accuracy-gate/ceiling", "api-limitation", "not-worth-it-here",
                                            "performance-ceiling"};
const char *kDiffFormat = "unified-diff (verbatim; '-' = before this step, '+' = after)";
const char *kSourceFormat = "source (verbatim)";

char marker(const std::string &type) {
  if (type == "technique-card") return 'k';
  if (type == "symptom-card") return 'y';
  if (type == "doc") return 'd';
  if (type == "numerics-rule" || type == "dispatch-rule") return 'u';
  return record::marker_for(type);
}

std::string level_for(Random &rng, const std::string &type) {
  if (type == "strategy" || type == "reference-kernel") return rng.chance(90) ? "operator" : "cross-operator";
  if (type == "doc") return rng.chance(50) ? "generic" : "cross-operator";
  if (type == "anti-strategy") return rng.chance(80) ? "cross-operator" : "operator";
  if (type == "symptom-card") return rng.chance(60) ? "cross-operator" : "generic";
  if (type == "technique-card") return rng.chance(85) ? "cross-operator" : "generic";
  return "cross-operator";
}

RecordPlan base_plan(std::uint64_t seed, std::size_t n) {
  Random rng = Random::stream(seed, n);
  RecordPlan p;
  p.type = kTypes[rng.weighted(kTypeWeights)];
  p.level = level_for(rng, p.type);
  std::vector<unsigned> weights;
  for (const auto &s : scopes()) weights.push_back(s.weight);
  const auto &scope = scopes()[rng.weighted(weights)];
  p.vendor = scope.vendor;
  p.arch = scope.arch;
  bool mined = p.type == "strategy" || p.type == "reference-kernel";
  p.product = !scope.products.empty() && (mined || rng.chance(20)) ? rng.pick(scope.products) : "any";
  p.dsl = rng.pick(scope.dsls);
  if (mined && p.dsl == "any") p.dsl = scope.dsls.back();
  if (mined || rng.chance(70)) {
    const auto &f = rng.pick(families());
    p.family = f.name;
    p.workload_family = f.workload;
  } else {
    p.workload_family = rng.pick(kWorkloads);
  }
  p.technique = slug(rng, 2 + rng.below(3));
  p.trace_derived = mined ? rng.chance(70) : (p.type == "anti-strategy" && rng.chance(15));
  return p;
}

void name(RecordPlan &p, std::size_t n) {
  std::string middle = p.family.empty() ? p.workload_family : p.family;
  p.id = p.vendor + "." + p.product + "." + p.dsl + "." + middle + "." + p.technique + "-" + marker(p.type) +
         std::to_string(n + 1);
  p.episode_key =
      p.arch + "|" + p.dsl + "|" + (p.family.empty() ? "any" : p.family) + "|" + p.technique + "|" + p.level;
}

std::string gpu_name(const RecordPlan &p) {
  std::string vendor = p.vendor == "nvidia" ? "NVIDIA" : p.vendor == "amd" ? "AMD" : "Any vendor";
  std::string product = p.product == "any" ? "" : " " + p.product;
  std::transform(product.begin(), product.end(), product.begin(), [](unsigned char c) { return std::toupper(c); });
  return vendor + product + " (" + p.arch + ")";
}

json::Value strings(Random &rng, std::size_t lo, std::size_t hi, std::size_t words) {
  json::Value out = json::Value::array();
  for (std::size_t i = 0, k = rng.between(lo, hi); i < k; ++i) out.push_back(phrase(rng, 2 + rng.below(words)));
  return out;
}

json::Value slugs(Random &rng, std::size_t lo, std::size_t hi) {
  json::Value out = json::Value::array();
  for (std::size_t i = 0, k = rng.between(lo, hi); i < k; ++i) out.push_back(slug(rng, 1 + rng.below(3)));
  return out;
}

double pct(Random &rng, double lo, double hi) {
  // Two decimals, as a measured percentage is written.
  return lo + static_cast<double>(rng.below(static_cast<std::size_t>((hi - lo) * 100) + 1)) / 100.0;
}

json::Value retrieval(Random &rng, const RecordPlan &p, std::uint64_t seed, std::size_t n) {
  json::Value scope = json::Value::object();
  scope.set("vendor", p.vendor);
  scope.set("arch", p.arch);
  json::Value archs = json::Value::array();
  if (rng.chance(75)) {
    archs.push_back(p.product != "any" && rng.chance(40) ? p.product : p.arch);
    for (std::size_t i = 0, k = rng.below(3); i < k; ++i) archs.push_back(rng.pick(kArchs));
  }
  scope.set("architectures", archs);
  scope.set("product", p.product);
  scope.set("dsl", p.dsl);
  scope.set("operator_family", p.family.empty() ? json::Value() : json::Value(p.family));
  json::Value ops = json::Value::array();
  if (!p.family.empty())
    for (std::size_t i = 0, k = rng.below(4); i < k; ++i) ops.push_back(p.family + "-" + slug(rng, 1));
  scope.set("operators", ops);
  json::Value shape = json::Value::object();
  if (rng.chance(15)) {
    shape.set("hidden_size", 512 << rng.below(5));
    if (rng.chance(50)) shape.set("head_dim", 64 << rng.below(2));
    if (rng.chance(30)) shape.set("dtype", rng.chance(50) ? "bf16" : "fp8");
  }
  scope.set("shape_signature", shape);

  json::Value generality = json::Value::object();
  generality.set("arch", rng.chance(20) ? std::string("any") : p.arch);
  generality.set("language", p.dsl);
  generality.set("workload_family", p.workload_family);

  json::Value signals = json::Value::object();
  if (rng.chance(10)) signals.set("bottleneck", rng.pick(kBottlenecks));
  json::Value metrics = json::Value::object();
  if (p.trace_derived || rng.chance(10)) {
    metrics.set("dram_util_pct", pct(rng, 20, 95));
    if (rng.chance(50)) metrics.set("sm_util_pct", pct(rng, 10, 99));
  }
  signals.set("metrics", metrics);
  json::Value regime = json::Value::object();
  regime.set("predicate", rng.chance(90) ? std::string("*") : "h>=" + std::to_string(256 << rng.below(5)));
  regime.set("var_axes", rng.chance(80) ? json::Value::array() : json::Value::strings({"M", "N"}));
  if (p.trace_derived) regime.set("n_shapes", 2 + rng.below(30));
  signals.set("shape_regime", regime);
  signals.set("symptoms", rng.chance(80) ? json::Value::array() : slugs(rng, 1, 4));

  json::Value r = json::Value::object();
  r.set("scope", scope);
  r.set("generality", generality);
  r.set("signals", signals);
  r.set("technique_tags", slugs(rng, p.type == "symptom-card" ? 2 : 0, 6));
  r.set("triggers", strings(rng, 1, 3, 10));
  if (rng.chance(10) && n > 0) {
    json::Value links = json::Value::object();
    json::Value see = json::Value::array();
    for (std::size_t i = 0, k = 1 + rng.below(3); i < k; ++i) see.push_back(plan_record(seed, rng.below(n)).id);
    links.set("see_also", see);
    if (rng.chance(30)) links.set("parent", plan_record(seed, rng.below(n)).id);
    if (rng.chance(20)) links.set("depends_on", json::Value::strings({plan_record(seed, rng.below(n)).id}));
    r.set("links", links);
  }
  if (rng.chance(5)) {
    json::Value locator = json::Value::object();
    locator.set("kernel_source", "kernels/" + p.vendor + "/" + slug(rng, 2) + ".py");
    r.set("locator", locator);
  }
  return r;
}

json::Value problem(Random &rng, const RecordPlan &p) {
  json::Value pr = json::Value::object();
  pr.set("target", gpu_name(p));
  pr.set("statement", prose(rng, rng.skewed_length(15, 80, 190)));
  if (!p.family.empty() && (p.level == "operator" || rng.chance(30))) pr.set("operator", p.family);
  if (rng.chance(40)) pr.set("dsl", p.dsl);
  if (rng.chance(20)) pr.set("workload", phrase(rng, 3));
  if (p.type == "symptom-card" || rng.chance(10)) pr.set("bottleneck", rng.pick(kBottlenecks));
  return pr;
}

json::Value implementation(Random &rng, bool diff, std::size_t min, std::size_t median, std::size_t max) {
  json::Value impl = json::Value::object();
  impl.set("format", diff ? kDiffFormat : kSourceFormat);
  impl.set("snippet", code(rng, rng.skewed_length(min, median, max), rng.chance(70), diff));
  if (rng.chance(20)) impl.set("core_kernel_name", slug(rng, 2));
  return impl;
}

json::Value cost(Random &rng) {
  json::Value c = json::Value::object();
  c.set("edit_scope", rng.pick(std::vector<std::string>{"one-line", "epilogue", "kernel-rewrite", "architecture"}));
  c.set("risk", rng.pick(std::vector<std::string>{"low", "med", "high"}));
  if (rng.chance(40)) c.set("risk_basis", prose(rng, 60));
  return c;
}

json::Value trace_of(Random &rng) {
  json::Value builds = json::Value::object();
  builds.set("approach", prose(rng, rng.skewed_length(30, 120, 400)));
  builds.set("is_baseline", rng.chance(15));
  json::Value t = json::Value::object();
  t.set("builds_on", builds);
  t.set("techniques_applied_before", slugs(rng, 0, 5));
  t.set("technique_here", slugs(rng, 1, 2));
  return t;
}

json::Value payload(Random &rng, const RecordPlan &p) {
  json::Value pl = json::Value::object();
  pl.set("goal", prose(rng, rng.skewed_length(55, 100, 230)));
  pl.set("problem", problem(rng, p));
  const auto &t = p.type;
  if (t == "strategy") {
    pl.set("trace", trace_of(rng));
    pl.set("change", prose(rng, rng.skewed_length(40, 160, 600)));
    pl.set("mechanism", prose(rng, rng.skewed_length(40, 220, 700)));
    pl.set("implementation", implementation(rng, true, 200, 1500, 9000));
    pl.set("cost", cost(rng));
    if (rng.chance(30)) {
      json::Value config = json::Value::object();
      config.set("BLOCK_M", 16 << rng.below(4));
      config.set("num_warps", 2 << rng.below(3));
      pl.set("config", config);
    }
    if (rng.chance(50)) pl.set("applies_when", strings(rng, 1, 3, 8));
    pl.set("next_steps", strings(rng, 0, 4, 10));
  } else if (t == "anti-strategy") {
    if (p.trace_derived) pl.set("trace", trace_of(rng));
    pl.set("attempted", prose(rng, rng.skewed_length(34, 144, 640)));
    json::Value condition = json::Value::object();
    if (rng.chance(53))
      condition.set("sm_arch", rng.pick(std::vector<std::string>{"sm_90a", "sm_100", "sm_120", "gfx942", "gfx950"}));
    if (rng.chance(20)) condition.set("dtype", rng.chance(50) ? "bf16" : "fp8");
    if (rng.chance(15)) condition.set("shape_regime", "small-m");
    condition.set("toolchain", p.dsl == "any" ? std::string("cuda") : p.dsl);
    json::Value fact = json::Value::object();
    fact.set("condition", condition);
    fact.set("mechanism", prose(rng, rng.skewed_length(60, 232, 700)));
    pl.set("established_fact", fact);
    if (rng.chance(30)) pl.set("hypothesis", prose(rng, 120));
    if (rng.chance(83)) pl.set("observed", prose(rng, rng.skewed_length(13, 141, 536)));
    if (rng.chance(87)) pl.set("root_cause", prose(rng, rng.skewed_length(16, 251, 700)));
    if (rng.chance(20)) pl.set("would_retry_if", prose(rng, 90));
    pl.set("verdict", rng.pick(kVerdicts));
    pl.set("lesson", prose(rng, rng.skewed_length(24, 199, 1400)));
    if (rng.chance(19)) pl.set("implementation", implementation(rng, rng.chance(50), 69, 222, 4100));
    if (rng.chance(30)) pl.set("cost", cost(rng));
  } else if (t == "technique-card") {
    pl.set("technique", phrase(rng, 2 + rng.below(5)));
    pl.set("what", prose(rng, rng.skewed_length(3, 165, 6760)));
    pl.set("when", prose(rng, rng.skewed_length(2, 90, 240)));
    bool measured = rng.chance(30);
    pl.set("success_rate_pct", measured ? json::Value(pct(rng, 5, 95)) : json::Value());
    pl.set("typical_gain_pct", measured ? json::Value(pct(rng, 1, 40)) : json::Value());
    if (measured && rng.chance(50)) pl.set("best_gain_pct", pct(rng, 10, 80));
    if (measured && rng.chance(50)) {
      std::size_t attempts = 1 + rng.below(40);
      pl.set("attempts", attempts);
      pl.set("kept", rng.below(attempts + 1));
    }
    if (measured && rng.chance(40)) {
      json::Value wins = json::Value::array();
      for (std::size_t i = 0, k = 1 + rng.below(4); i < k; ++i) {
        json::Value w = json::Value::object();
        w.set("operator", slug(rng, 2));
        w.set("dsl", p.dsl);
        w.set("gain_pct", pct(rng, 1, 60));
        w.set("change", phrase(rng, 6));
        wins.push_back(w);
      }
      pl.set("measured_wins", wins);
    }
    json::Value caveats = json::Value::array();
    if (rng.chance(17))
      for (std::size_t i = 0, k = 1 + rng.below(3); i < k; ++i)
        caveats.push_back(prose(rng, rng.skewed_length(20, 120, 680)));
    pl.set("caveats", caveats);
    if (rng.chance(20)) pl.set("cost", cost(rng));
    if (rng.chance(48)) pl.set("implementation", implementation(rng, false, 46, 638, 4960));
  } else if (t == "symptom-card") {
    pl.set("likely_causes", rng.chance(70) ? json::Value::array() : strings(rng, 1, 4, 8));
    json::Value cands = json::Value::array();
    for (std::size_t i = 0, k = rng.between(2, 13); i < k; ++i) {
      json::Value c = json::Value::object();
      c.set("technique", phrase(rng, 2 + rng.below(4)));
      c.set("success_rate_pct", rng.chance(70) ? json::Value(pct(rng, 5, 95)) : json::Value());
      c.set("typical_gain_pct", rng.chance(70) ? json::Value(pct(rng, 1, 40)) : json::Value());
      cands.push_back(c);
    }
    pl.set("candidate_techniques", cands);
    if (rng.chance(30)) pl.set("corpus_example", prose(rng, 150));
  } else if (t == "reference-kernel") {
    pl.set("trace", trace_of(rng));
    pl.set("implementation", implementation(rng, false, 1500, 6000, 20000));
  } else if (t == "doc") {
    pl.set("title", phrase(rng, 3 + rng.below(8)));
    pl.set("summary", prose(rng, rng.skewed_length(17, 202, 1160)));
    json::Value sections = json::Value::array();
    for (std::size_t i = 0, k = rng.skewed_length(0, 8, 29); i < k; ++i) {
      json::Value s = json::Value::object();
      std::string heading = phrase(rng, 2 + rng.below(5));
      s.set("heading", heading);
      s.set("anchor", slug(rng, 2 + rng.below(4)));
      s.set("gist", rng.chance(5) ? std::string() : prose(rng, rng.skewed_length(20, 82, 240)));
      sections.push_back(s);
    }
    pl.set("sections", sections);
    if (rng.chance(30)) pl.set("key_facts", strings(rng, 1, 6, 12));
    if (rng.chance(76)) pl.set("implementation", implementation(rng, false, 56, 2655, 11033));
  } else {
    pl.set("rule", prose(rng, rng.skewed_length(30, 120, 400)));
    pl.set("rationale", prose(rng, rng.skewed_length(30, 200, 800)));
    if (rng.chance(60)) pl.set("applies_when", strings(rng, 1, 3, 8));
    if (rng.chance(50)) pl.set("violation_symptom", prose(rng, 100));
  }
  return pl;
}

std::string hex(Random &rng, std::size_t digits) {
  static const char *h = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < digits; ++i) out += h[rng.below(16)];
  return out;
}

json::Value evidence(Random &rng, const RecordPlan &p, std::size_t n) {
  json::Value summary = json::Value::object();
  summary.set("confidence", p.trace_derived ? "measured" : rng.chance(85) ? "documented" : "inferred");
  if (p.trace_derived || rng.chance(10)) {
    json::Value be = json::Value::object();
    be.set("basis", p.trace_derived ? (rng.chance(50) ? "bench-only" : "asserted") : "none");
    if (rng.chance(50)) be.set("note", prose(rng, 80));
    summary.set("bottleneck_evidence", be);
  }
  if (p.trace_derived) {
    json::Value on = json::Value::object();
    on.set("harness", "the trace's benchmark harness");
    on.set("toolchain", p.dsl);
    summary.set("measured_on", on);
  }
  json::Value raw = json::Value::object();
  if (p.trace_derived) {
    std::size_t version = 1 + rng.below(400);
    char repo[32];
    std::snprintf(repo, sizeof repo, "kernel_opt_%03zu_", 100 + n % 900);
    raw.set("source_repo", std::string(repo) + (p.family.empty() ? std::string("op") : p.family));
    raw.set("version", "v" + std::to_string(version));
    raw.set("git_commit", hex(rng, 40));
    raw.set("file_paths", json::Value::strings({"kernel.py", "memory/v" + std::to_string(version) + ".json"}));
    json::Value effect = json::Value::object();
    effect.set("basis", "measured");
    effect.set("delta_pct", -pct(rng, 0.5, 40));
    effect.set("comparable", true);
    raw.set("effect", effect);
  } else {
    raw.set("page_path", "pages/" + p.vendor + "/" + p.arch + "/" + slug(rng, 2) + ".md");
    raw.set("seed", "generated by otm's bench store generator");
  }
  json::Value ev = json::Value::object();
  ev.set("summary", summary);
  ev.set("raw", raw);
  return ev;
}

json::Value gain(Random &rng, const RecordPlan &p) {
  json::Value g = json::Value::object();
  bool measured = p.type == "strategy" && p.trace_derived;
  bool reported = !measured && (p.type == "technique-card" || p.type == "strategy") && rng.chance(15);
  if (!measured && !reported) {
    g.set("basis", "qualitative");
    g.set("kind", "none");
    g.set("pct", json::Value());
    g.set("metrics", json::Value::array());
    return g;
  }
  double delta = -pct(rng, 0.5, 45);
  g.set("basis", measured ? "measured" : "reported");
  g.set("kind", "performance");
  g.set("primary", "latency");
  g.set("pct", delta);
  json::Value metrics = json::Value::array();
  json::Value m = json::Value::object();
  m.set("metric", "latency");
  m.set("direction", "lower-better");
  m.set("delta_pct", delta);
  m.set("unit", "%");
  m.set("measured_over", "geomean over the benchmarked shapes");
  m.set("source", measured ? "step-record" : "corpus-aggregate");
  metrics.push_back(m);
  if (rng.chance(30)) {
    json::Value d = json::Value::object();
    d.set("metric", "dram_throughput");
    d.set("direction", "higher-better");
    d.set("delta_pct", pct(rng, 1, 30));
    d.set("source", "profiler");
    metrics.push_back(d);
  }
  g.set("metrics", metrics);
  if (rng.chance(20)) {
    json::Value r = json::Value::array();
    json::Value reg = json::Value::object();
    reg.set("metric", "compile_time");
    reg.set("direction", "lower-better");
    reg.set("delta_pct", pct(rng, 1, 50));
    reg.set("note", phrase(rng, 5));
    reg.set("source", "harness");
    r.push_back(reg);
    g.set("regressions", r);
  }
  g.set("comparable", true);
  if (rng.chance(50)) g.set("note", phrase(rng, 6));
  return g;
}

json::Value track(Random &rng, const RecordPlan &p) {
  json::Value counters = json::Value::object();
  std::size_t queries = rng.chance(70) ? 0 : rng.below(500);
  std::size_t served = queries ? rng.below(queries + 1) : 0;
  std::size_t applied = served ? rng.below(served + 1) : 0;
  std::size_t good = applied ? rng.below(applied + 1) : 0;
  counters.set("query_count", queries);
  counters.set("served_count", served);
  counters.set("applied_count", applied);
  counters.set("verified_effective", good);
  counters.set("verified_ineffective", applied - good);
  counters.set("fallback_served", served ? rng.below(served + 1) : 0);
  counters.set("first_seen_ts",
               queries ? json::Value(1.7e9 + static_cast<double>(rng.below(30000000))) : json::Value());
  counters.set("last_used_ts", json::Value());
  json::Value prior = json::Value::object();
  if (p.trace_derived || rng.chance(30)) {
    prior.set("corpus_kept_ratio", pct(rng, 0.05, 0.95));
    prior.set("n_independent_runs", 1 + rng.below(12));
    prior.set("technique", p.technique);
  }
  json::Value t = json::Value::object();
  t.set("counters", counters);
  t.set("prior", prior);
  return t;
}

} // namespace

RecordPlan plan_record(std::uint64_t seed, std::size_t n) {
  // A quarter of the records after the first hundred repeat an earlier
  // record's episode (the same technique on the same operator).
  Random rng = Random::stream(seed ^ 0x5EEDULL, n);
  RecordPlan p = n >= 100 && rng.chance(25) ? base_plan(seed, n - 1 - rng.below(std::min<std::size_t>(n, 5000)))
                                            : base_plan(seed, n);
  name(p, n);
  return p;
}

json::Value make_record(std::uint64_t seed, std::size_t n) {
  RecordPlan p = plan_record(seed, n);
  Random rng = Random::stream(seed ^ 0xB0D1ULL, n);
  json::Value r = json::Value::object();
  r.set("schema", otm::record::kStoreSchemaTag);
  r.set("id", p.id);
  r.set("type", p.type);
  r.set("level", p.level);
  r.set("status", rng.chance(95) ? "active" : rng.chance(60) ? "superseded" : "deprecated");
  r.set("episode_key", p.episode_key);
  r.set("retrieval", retrieval(rng, p, seed, n));
  r.set("payload", payload(rng, p));
  r.set("evidence", evidence(rng, p, n));
  json::Value worth = json::Value::object();
  json::Value rank = json::Value::object();
  worth.set("rank", rank);
  worth.set("gain", gain(rng, p));
  worth.set("track", track(rng, p));
  r.set("worth", worth);
  // The score is the store's own worth model over the generated counters.
  auto scored = scoring::rank_record(r);
  rank.set("score", scored.score);
  rank.set("tier", scored.tier);
  rank.set("formula", scoring::kFormula);
  json::Value components = json::Value::object();
  components.set("prior", scoring::prior_score(r.get("worth").get("track").get("prior"), p.type));
  components.set("recency", 1.0);
  rank.set("components", components);
  rank.set("computed_at", "2026-01-01T00:00:00");
  rank.set("builder_version", scoring::kModelVersion);
  r.find("worth")->set("rank", rank);
  return r;
}

} // namespace otm::bench
