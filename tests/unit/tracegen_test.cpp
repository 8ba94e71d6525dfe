// bench/tracegen: the generated traces others build tests on are
// deterministic, in the producer's layout, in the DSL asked for, and hold
// every kind of step the pipeline must handle. Stories only (no git): fast.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "trace/dsl.hpp"
#include "tracegen/kernel_source.hpp"
#include "tracegen/story.hpp"
#include "tracegen/trace_generator.hpp"
#include "tracegen/trace_writer.hpp"
#include "json/parse.hpp"

using namespace otm;
using namespace otm::tracegen;

namespace {

std::string stream_of(const TraceOptions &o) {
  std::ostringstream s;
  write_fast_import(s, write_story(o));
  return s.str();
}

// The last content each path was given, over the whole story.
std::map<std::string, std::string> final_files(const Story &story) {
  std::map<std::string, std::string> files;
  for (const auto &c : story.commits)
    for (const auto &f : c.files) {
      if (f.content)
        files[f.path] = *f.content;
      else
        files.erase(f.path);
    }
  return files;
}

} // namespace

TEST_CASE("tracegen: the same options give the same stream, another seed another", "[tracegen]") {
  TraceOptions o;
  o.versions = 80;
  CHECK(stream_of(o) == stream_of(o));
  TraceOptions other = o;
  other.seed = 2;
  CHECK(stream_of(o) != stream_of(other));
}

TEST_CASE("tracegen: kernel.py reads as the DSL asked for", "[tracegen]") {
  for (auto [dsl, name] :
       std::vector<std::pair<Dsl, std::string>>{{Dsl::Triton, "triton"}, {Dsl::Cuda, "cuda"}, {Dsl::Gluon, "gluon"}}) {
    TraceOptions o;
    o.versions = 60;
    o.dsl = dsl;
    auto story = write_story(o);
    std::size_t kernels = 0;
    for (const auto &c : story.commits)
      for (const auto &f : c.files)
        if (f.path == "kernel.py") {
          ++kernels;
          INFO(name << "\n" << *f.content);
          CHECK(trace::detect_dsl(*f.content) == name);
        }
    CHECK(kernels > 50);
  }
  // CUDA through load_inline with inline PTX vector loads.
  OperatorSpec op = operator_spec("rmsnorm", 4096);
  KernelState s;
  s.vec = 4;
  s.load_cache = "nc";
  auto cu = render_kernel(Dsl::Cuda, op, s, 7);
  CHECK_THAT(cu, Catch::Contains("load_inline(") && Catch::Contains("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];") &&
                     Catch::Contains("# revision 7"));
}

TEST_CASE("tracegen: a long run holds every kind of step, named in its subjects", "[tracegen]") {
  TraceOptions o;
  o.versions = 400;
  o.dsl = Dsl::Cuda;
  o.spelling = Spelling::British;
  auto story = write_story(o);
  std::set<std::string> kinds;
  std::string subjects;
  for (const auto &m : story.manifest) {
    kinds.insert(m.kind);
    subjects += m.subject + "\n";
  }
  for (const char *k : {"baseline", "param", "structural", "mega", "small", "comment-only", "docstring-only",
                        "deadend-list", "deadend-prose", "incorrect", "infrastructure"})
    CHECK(kinds.count(k) == 1);
  CHECK(story.manifest.size() == 400);
  CHECK_THAT(subjects, Catch::Contains("ld.global.nc.v4.f32") && Catch::Contains("THREADS ") &&
                           Catch::Contains("dead-end recorded: ") && Catch::Contains("\xE2\x80\x94"));
  CHECK_THAT(subjects, Catch::Contains("normaliser") && !Catch::Contains("normalizer"));
  // A version committed twice and a reverted one whose second commit restored the code.
  std::size_t twice = 0;
  for (const auto &m : story.manifest) twice += m.commits == 2;
  CHECK(twice > 0);
  // Both pitfall vintages and the expected impact reach the step records.
  std::string memory;
  for (const auto &c : story.commits)
    for (const auto &f : c.files)
      if (f.path.starts_with("memory/")) memory += *f.content;
  CHECK_THAT(memory, Catch::Contains("\"explanation\"") && Catch::Contains("\"root_cause\"") &&
                         Catch::Contains("\"expected_impact\": \"") && Catch::Contains("\"latency_us\"") &&
                         Catch::Contains("\"status\": \"FAIL\""));
  auto files = final_files(story);
  CHECK(files.count("definition.json") == 1);
  CHECK(files.count("workload.jsonl") == 1);
  bool ncu = false, nsys = false, snapshot = false;
  for (const auto &[path, content] : files) {
    ncu = ncu || (path.ends_with("_ncu/REPORT.md") && content.find("**Root cause**") != std::string::npos);
    nsys = nsys || path.ends_with("-nsys/REPORT.md");
    snapshot = snapshot || path.starts_with("versions/kernel_v");
  }
  CHECK(ncu);
  CHECK(nsys);
  CHECK(snapshot);
}

TEST_CASE("tracegen: the degraded variants lack what they say", "[tracegen]") {
  TraceOptions o;
  o.versions = 60;
  o.variant = Variant::NoMemory;
  auto none = final_files(write_story(o));
  for (const auto &[path, _] : none) CHECK_FALSE(path.starts_with("memory/"));
  o.variant = Variant::NoProfiles;
  for (const auto &[path, _] : final_files(write_story(o))) CHECK_FALSE(path.starts_with("profiles/"));
  o.variant = Variant::NoHardware;
  auto nohw = final_files(write_story(o));
  CHECK(nohw["solution.json"].find("target_hardware") == std::string::npos);
  CHECK(nohw["definition.json"].find("\"gpu\"") == std::string::npos);
  o.variant = Variant::BrokenJson;
  std::size_t broken = 0, fine = 0;
  for (const auto &[path, content] : final_files(write_story(o))) {
    if (!path.starts_with("memory/")) continue;
    try {
      json::parse(content, path);
      ++fine;
    } catch (const json::ParseError &) {
      ++broken;
    }
  }
  CHECK(broken > 0);
  CHECK(fine > broken);
  CHECK(trace_dir_name(o) == "kernel_opt_901_rmsnorm");
}
