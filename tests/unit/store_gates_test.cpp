// The one-pass store gates (gates/store_gates.hpp) report exactly what the
// nine gates report one by one: in process on the real store and on a
// generated store carrying one defect per gate, and through the executables
// (otm-validate --store-gates --format jsonl against the nine otm-gate-*).
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <functional>

#include "config/config.hpp"
#include "gates/store_gates.hpp"
#include "io/file.hpp"
#include "process.hpp"
#include "schema/builtin_schemas.hpp"
#include "store/store_reader.hpp"
#include "storegen/store_generator.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using otm::test::TempDir;

namespace {

gates::Context store_context(const fs::path &root, bool load_records) {
  gates::Context ctx;
  ctx.store_root = root;
  if (load_records) ctx.records = gates::records_from_store(root);
  ctx.store_records_streamed = !load_records;
  try {
    ctx.index = gates::load_gate_index(root, {});
  } catch (const json::ParseError &) {
    ctx.index_unreadable = true;
  }
  static const auto schema = std::make_shared<const schema::Schema>(
      json::parse(schema::builtin_store_schema_text(), "built-in clean-1.3 schema"), "built-in clean-1.3 schema");
  ctx.store_schema = schema;
  ctx.id_products = gates::target_products(config::Config::defaults());
  return ctx;
}

std::string lines(const std::vector<gates::Finding> &fs) {
  std::string out;
  for (const auto &f : fs) out += json::to_line(gates::to_json(f)) + "\n";
  return out;
}

// Each store gate run alone on the loaded records (what otm-gate-<name>
// does) against the one pass streaming the same store from disk.
void check_same_findings(const fs::path &root, std::size_t expect_failing_gates) {
  auto loaded = store_context(root, true);
  auto streamed = store_context(root, false);
  auto run = gates::run_passes(gates::store_gates(), streamed, root);
  CHECK(run.records == loaded.records.size());
  REQUIRE(run.runs.size() == gates::store_gates().size());
  std::size_t failing = 0;
  for (const auto &r : run.runs) {
    INFO(r.gate->name);
    auto alone = gates::run_gate(*r.gate, loaded);
    CHECK(lines(r.result.findings) == lines(alone.findings));
    CHECK(r.result.note == alone.note);
    CHECK(r.result.crashed == alone.crashed);
    failing += !r.result.passed();
  }
  CHECK(failing == expect_failing_gates);
}

json::Value &member(json::Value &v, const char *key) {
  if (!v.get(key).is_object()) v.set(key, json::Value::object());
  return *v.find(key);
}

// One defect per store gate, each in its own record (the injection tests'
// kinds of error), plus a file that does not parse.
void inject_defects(const fs::path &root) {
  auto files = store::record_files(root);
  REQUIRE(files.size() >= 12);
  auto edit = [&](std::size_t i, const std::function<void(json::Value &)> &fn) {
    auto rec = json::parse_file(files[i].path);
    fn(rec);
    io::write_file_atomic(files[i].path, json::to_pretty(rec), io::FileClass::Scratch);
  };
  edit(0, [](json::Value &r) { r.set("x_injected", true); });                                     // schema
  edit(1, [](json::Value &r) { r.set("id", "injected.id"); });                                    // ids (and index)
  edit(2, [](json::Value &r) { member(r, "payload").set("goal", "notes in /home/injected/x"); }); // anonymization
  edit(3, [](json::Value &r) {                                                                    // raw-isolation
    json::Value raw = json::Value::object();
    raw.set("source_repo", "injected");
    member(member(r, "evidence"), "summary").set("raw", raw);
  });
  edit(4, [](json::Value &r) { // relations
    member(member(r, "retrieval"), "links").set("see_also", json::Value::strings({"injected.no.such.record.x-s99"}));
  });
  edit(5, [](json::Value &r) { // index
    auto &rank = member(member(r, "worth"), "rank");
    rank.set("score", rank.get("score").as_number().value_or(0.0) > 0.5 ? 0.1 : 0.9);
  });
  edit(6, [](json::Value &r) { member(r, "payload").set("goal", "   "); }); // self-contained
  edit(7, [](json::Value &r) {                                              // no-cross-reference
    member(r, "payload").set("goal", "as in nvidia.any.cuda.gemm.injected-s01");
  });
  edit(8, [](json::Value &r) { // established-fact
    r.set("type", "anti-strategy");
    member(r, "payload").set("verdict", "unknown");
  });
  io::write_file_atomic(files[9].path, "{\"id\": \"truncated", io::FileClass::Scratch); // parse error
}

using otm::testsupport::sh;

std::string bin(const std::string &tool) { return otm::testsupport::tool_path(tool); }

} // namespace

TEST_CASE("one-pass store gates equal the nine gates on the real store", "[gates][store-gates][shared]") {
  // The nine gates alone pass the real store with no finding ("store gates
  // on the real store of 847 records: verdicts pinned", gates_cli_test);
  // the one pass, streaming it, must say the same for every gate.
  OTM_REAL_STORE_OR_SKIP(wiki);
  const fs::path root = wiki / "kernel_wiki";
  auto run = gates::run_passes(gates::store_gates(), store_context(root, false), root);
  CHECK(run.records == store::record_files(root).size());
  CHECK(run.runs.size() == gates::store_gates().size());
  for (const auto &r : run.runs) {
    INFO(r.gate->name << ": " << (r.result.findings.empty() ? "" : r.result.findings[0].message));
    CHECK(r.result.findings.empty());
    CHECK_FALSE(r.result.crashed);
  }
}

TEST_CASE("one-pass store gates equal the nine gates on every injected defect", "[gates][store-gates]") {
  TempDir dir;
  auto root = dir.path() / "store";
  bench::generate_store(root, {60, 3});
  check_same_findings(root, 0);
  inject_defects(root);
  // Every gate fires (the ids defect also breaks the index; the parse error
  // is the schema gate's).
  check_same_findings(root, 9);
}

TEST_CASE("otm-validate --store-gates prints the nine executables' findings", "[gates][store-gates][cli]") {
  TempDir dir;
  auto root = dir.path() / "store";
  bench::generate_store(root, {40, 5});
  inject_defects(root);
  auto one = dir.path() / "one.jsonl", nine = dir.path() / "nine.jsonl";
  CHECK(sh(bin("otm-validate") + " --store-gates --format jsonl '" + root.string() + "' > '" + one.string() +
           "' 2>/dev/null") == 1);
  for (const auto *g : gates::store_gates())
    CHECK(sh(bin("otm-gate-" + g->name) + " '" + root.string() + "' >> '" + nine.string() + "' 2>/dev/null") == 1);
  auto a = io::read_file(one), b = io::read_file(nine);
  CHECK_FALSE(a.empty());
  CHECK(a == b);
}

TEST_CASE("a single store gate loads only what it reads, and a named schema either way", "[gates][store-gates][cli]") {
  TempDir dir;
  auto root = dir.path() / "store";
  bench::generate_store(root, {12, 9});
  // A broken index is the index gate's finding only: the other gates never
  // read it.
  io::write_file_atomic(root / "records" / "index.json", "{\"records\": [", io::FileClass::Scratch);
  auto out = dir.path() / "out.txt";
  CHECK(sh(bin("otm-gate-ids") + " '" + root.string() + "' > '" + out.string() + "' 2>&1") == 0);
  CHECK(sh(bin("otm-gate-index") + " '" + root.string() + "' > '" + out.string() + "' 2>&1") == 1);
  CHECK_THAT(io::read_file(out), Catch::Contains("does not parse"));
  // A schema named on the command line is loaded, and refused, by any gate.
  auto bad = dir.path() / "bad.schema.json";
  io::write_file_atomic(bad, "[1, 2]", io::FileClass::Scratch);
  CHECK(sh(bin("otm-gate-ids") + " --schema '" + bad.string() + "' '" + root.string() + "' > '" + out.string() +
           "' 2>&1") == 2);
  CHECK_THAT(io::read_file(out), Catch::Contains("bad.schema.json"));
}
