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
    out += json::to_line(v) + "\n";
  }
  return out;
}

} // namespace otm::tracegen
