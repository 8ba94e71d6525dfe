#include "tracegen/trace_generator.hpp"

#include "tracegen/trace_writer.hpp"
#include "json/value.hpp"
#include "json/write.hpp"

namespace otm::tracegen {

const char *dsl_name(Dsl dsl) {
  switch (dsl) {
  case Dsl::Triton: return "triton";
  case Dsl::Cuda: return "cuda";
  case Dsl::Gluon: return "gluon";
  }
  return "triton";
}

const char *variant_name(Variant v) {
  switch (v) {
  case Variant::Full: return "full";
  case Variant::NoMemory: return "no-memory";
  case Variant::BrokenJson: return "broken-json";
  case Variant::NoHardware: return "no-hardware";
  case Variant::NoProfiles: return "no-profiles";
  }
  return "full";
}

std::string trace_dir_name(const TraceOptions &o) {
  std::string n = std::to_string(o.number);
  while (n.size() < 3) n = "0" + n;
  return "kernel_opt_" + n + "_" + o.op;
}

GeneratedTrace generate_trace(const std::filesystem::path &outdir, const TraceOptions &options) {
  GeneratedTrace g;
  g.story = write_story(options);
  g.dir = outdir / trace_dir_name(options);
  std::filesystem::create_directories(outdir);
  write_repository(g.dir, g.story);
  return g;
}

std::string manifest_jsonl(const Story &story) {
  std::string out;
  for (const auto &m : story.manifest) {
    json::Value v = json::Value::object();
    v.set("version", m.version);
    v.set("kind", m.kind);
    v.set("names", json::Value::strings(m.names));
    v.set("subject", m.subject);
    v.set("commits", m.commits);
    v.set("hostile", json::Value::strings(m.hostile));
    v.set("lever", m.lever ? json::Value(*m.lever) : json::Value());
    v.set("tried_on", m.tried_on.empty() ? json::Value() : json::Value(m.tried_on));
    v.set("code_names", json::Value::strings(m.code_names));
    v.set("dead_names", json::Value::strings(m.dead_names));
    v.set("runs", m.runs);
    v.set("code_commit", m.code_commit);
    v.set("expected_impact", m.expected_impact ? json::Value(*m.expected_impact) : json::Value());
    v.set("kept", m.kept);
    v.set("milestone", m.milestone);
    v.set("best_before", m.best_before.empty() ? json::Value() : json::Value(m.best_before));
    v.set("span", json::Value::strings(m.span));
    v.set("span_code_names", json::Value::strings(m.span_code_names));
    v.set("span_dead_names", json::Value::strings(m.span_dead_names));
    v.set("span_runs", m.span_runs);
    json::Value listed = json::Value::array();
    for (const auto &l : m.listed_levers) {
      json::Value item = json::Value::object();
      item.set("lever", l.lever);
      item.set("in_code", l.in_code);
      listed.push_back(std::move(item));
    }
    v.set("listed_levers", std::move(listed));
    v.set("pitfall_contradicts", m.pitfall_contradicts);
    v.set("refutes", json::Value::strings(m.refutes));
    v.set("repeats", json::Value::strings(m.repeats));
    v.set("quoted_versions", json::Value::strings(m.quoted_versions));
    v.set("capture_dirs", json::Value::strings(m.capture_dirs));
    out += json::to_line(v) + "\n";
  }
  return out;
}

} // namespace otm::tracegen
