// bench/README.md promises that otm-make-trace's options name a trace: new
// options only ever come with defaults that keep every existing trace
// byte-identical. The digests below are of the traces as stop 37 made them
// (`--stream` and `--manifest`): its approximation steps and the row-packing
// body state true accuracy figures and reasons, where the stories since
// main e1daf35 stated false ones (bench/README.md). If one changes, a trace
// that tests, archives and benchmarks name by its command line has changed
// under them.
#include <catch2/catch.hpp>

#include <sstream>

#include "text/sha256.hpp"
#include "tracegen/story.hpp"
#include "tracegen/trace_generator.hpp"
#include "tracegen/trace_writer.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::tracegen;

namespace {

struct Pinned {
  const char *name; // the command line's options
  TraceOptions options;
  const char *stream;   // sha256 of the fast-import stream
  const char *manifest; // sha256 of the manifest's first five keys, as written then
};

TraceOptions opts(std::size_t versions, Dsl dsl, const std::string &op, std::uint64_t seed, Spelling spelling,
                  Variant variant, const std::string &gpu = "NVIDIA H100", unsigned number = 901) {
  TraceOptions o;
  o.versions = versions;
  o.dsl = dsl;
  o.op = op;
  o.seed = seed;
  o.spelling = spelling;
  o.variant = variant;
  o.gpu = gpu;
  o.number = number;
  return o;
}

const std::vector<Pinned> &pinned() {
  static const std::vector<Pinned> p = {
      {"(defaults)", TraceOptions{}, "fbe353218b63ce8d7f5044db8d96aad6e8d02a706d383917b87d48cac577ab3b",
       "c46430fa593258101235b4b2173f5415aa8140b863705598521b877fd87c7d76"},
      {"--versions 400 --dsl cuda --spelling british",
       opts(400, Dsl::Cuda, "rmsnorm", 1, Spelling::British, Variant::Full),
       "8923ddfb66ac70f66a29aabaad4c688c46c79eb35451ae2a51a42a41430fa099",
       "7b6e3b2e8b000fcf8f473a9f5d164804ddae32f4636edaa768a52c7153cd8c77"},
      {"--versions 200 --dsl gluon --operator fused_softmax --seed 7 --spelling american",
       opts(200, Dsl::Gluon, "fused_softmax", 7, Spelling::American, Variant::Full),
       "d65e8d3df93a8f4c604edcc2f9efed55c4edf5424adb61cf25d175525dabade7",
       "6c52ad5c1a87900b0e88380ed5c3e71fb3769cfa409a6789148e6ccc5bd1332a"},
      {"--versions 150 --operator gelu --seed 11 --variant broken-json",
       opts(150, Dsl::Triton, "gelu", 11, Spelling::Mixed, Variant::BrokenJson),
       "07133b13592973212706b4fd18a7f357dd153f50b2b8af6743a3cac7943c218e",
       "3a557ec6cb8903a312580b3bbf65bcf780a52dd94a0ea1d0a95a8072ba952219"},
      {"--versions 90 --dsl cuda --operator silu --variant no-memory --gpu 'NVIDIA A100' --number 42",
       opts(90, Dsl::Cuda, "silu", 1, Spelling::Mixed, Variant::NoMemory, "NVIDIA A100", 42),
       "9bc7f338b116d88d55ab68fae66234b59dea734716ec110d0694d2814e766235",
       "2503da143648cf7b0c3cba58d79fe384a984c4ce86e4180eb18fb49cdf0396d0"},
      {"--versions 60 --operator layernorm --variant no-profiles --seed 3",
       opts(60, Dsl::Triton, "layernorm", 3, Spelling::Mixed, Variant::NoProfiles),
       "a2a774b172b9790dfd4248b2948b2f68424a26660d034716720bb109ff1c4c06",
       "f3fca82c3202198fb2cc9d7ad292fb579082b5c54b307c26101394f30802a613"},
      {"--versions 60 --dsl gluon --operator logsumexp --variant no-hardware --seed 5",
       opts(60, Dsl::Gluon, "logsumexp", 5, Spelling::Mixed, Variant::NoHardware),
       "fbdbccbdbd4e03256aa3c91392b76e6d3d6584a428214048c785f46d93d1f917",
       "dbf540e56fe61a10fd5b11e5d24a3ffac5d4e2e990ff62502cdbe2a3739cec70"},
  };
  return p;
}

// The manifest as it was written before the ground truth was added: the
// first five keys of each line.
std::string first_keys(const std::string &manifest) {
  std::string out;
  for (const auto &line : json::parse_lines(manifest, "manifest")) {
    json::Value v = json::Value::object();
    for (const char *k : {"version", "kind", "names", "subject", "commits"}) v.set(k, line.get(k));
    out += json::to_line(v) + "\n";
  }
  return out;
}

} // namespace

TEST_CASE("tracegen: the traces of the pinned command lines are byte-identical to those made before", "[tracegen]") {
  for (const auto &p : pinned()) {
    INFO("otm-make-trace " << p.name);
    auto story = write_story(p.options);
    std::ostringstream stream;
    write_fast_import(stream, story);
    CHECK(text::sha256_hex(stream.str()) == p.stream);
    CHECK(text::sha256_hex(first_keys(manifest_jsonl(story))) == p.manifest);
  }
}

TEST_CASE("tracegen: an empty hostile list and any hostile rate without shapes change nothing", "[tracegen]") {
  TraceOptions o = pinned()[1].options;
  o.hostile_rate = 100;
  std::ostringstream stream;
  write_fast_import(stream, write_story(o));
  CHECK(text::sha256_hex(stream.str()) == pinned()[1].stream);
}
