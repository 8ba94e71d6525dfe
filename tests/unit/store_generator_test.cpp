// The generated stores of bench/storegen: valid, passing the nine store
// gates, deterministic, and as varied as the real store's records.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "config/config.hpp"
#include "gates/gates.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "schema/builtin_schemas.hpp"
#include "store/index_keys.hpp"
#include "store/store_reader.hpp"
#include "storegen/record_maker.hpp"
#include "storegen/store_generator.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using otm::test::TempDir;

namespace {

gates::Context store_context(const fs::path &root) {
  gates::Context ctx;
  ctx.store_root = root;
  ctx.records = gates::records_from_store(root);
  ctx.index = gates::load_gate_index(root, {});
  ctx.store_schema = std::make_shared<const schema::Schema>(
      json::parse(schema::builtin_store_schema_text(), "built-in clean-1.3 schema"), "built-in clean-1.3 schema");
  ctx.id_products = gates::target_products(config::Config::defaults());
  return ctx;
}

// The store's files but its keys index (a cache stamped with index.json's
// identity, which differs from store to store).
std::map<std::string, std::string> files_of(const fs::path &root) {
  std::map<std::string, std::string> out;
  for (const auto &e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path() != store::keys_cache_file(root))
      out[fs::relative(e.path(), root).generic_string()] = io::read_file(e.path());
  return out;
}

} // namespace

TEST_CASE("a generated 1,000-record store passes the nine store gates", "[storegen][gates]") {
  TempDir dir;
  auto root = dir.path() / "store";
  auto made = bench::generate_store(root, {1000, 7});
  CHECK(made.records == 1000);
  auto ctx = store_context(root);
  REQUIRE(ctx.records.size() == 1000);
  for (const auto &r : ctx.records) REQUIRE(r.parse_error.empty());
  std::size_t store_gates = 0;
  for (const auto &g : gates::all_gates()) {
    if (g.kind != gates::GateKind::Store) continue;
    ++store_gates;
    auto result = gates::run_gate(g, ctx);
    INFO(g.name << ": "
                << (result.findings.empty() ? ""
                                            : result.findings.front().file + ": " + result.findings.front().message));
    CHECK(result.findings.empty());
    CHECK_FALSE(result.crashed);
  }
  CHECK(store_gates == 9);
}

TEST_CASE("generated records vary the way the real store's do", "[storegen]") {
  TempDir dir;
  auto root = dir.path() / "store";
  bench::generate_store(root, {1000, 3});
  std::map<std::string, std::size_t> types, vendors, archs, dsls;
  std::set<std::string> families, episodes;
  std::size_t links = 0, shared_episode = 0, with_snippet = 0, trace_derived = 0, biggest = 0, smallest = SIZE_MAX;
  for (const auto &r : store::load_records(root)) {
    const auto &rec = r.record;
    ++types[rec.string_or("type")];
    const auto &scope = rec.get("retrieval").get("scope");
    ++vendors[scope.string_or("vendor")];
    ++archs[scope.string_or("arch")];
    ++dsls[scope.string_or("dsl")];
    families.insert(scope.string_or("operator_family"));
    links += rec.get("retrieval").contains("links");
    shared_episode += !episodes.insert(rec.string_or("episode_key")).second;
    with_snippet += rec.get("payload").get("implementation").get("snippet").is_string();
    trace_derived += rec.get("evidence").get("raw").get("git_commit").is_string();
    auto size = json::to_pretty(rec).size();
    biggest = std::max(biggest, size);
    smallest = std::min(smallest, size);
  }
  CHECK(types.size() == 8); // every record type of clean-1.3
  CHECK(types["technique-card"] > types["anti-strategy"]);
  CHECK(types["anti-strategy"] > types["strategy"]);
  CHECK(vendors.size() == 3);
  CHECK(archs.size() >= 8);
  CHECK(dsls.size() == 7);
  CHECK(families.size() >= 15);
  CHECK(links >= 50);
  CHECK(shared_episode >= 100);
  CHECK(with_snippet >= 300);
  CHECK(with_snippet <= 700);
  CHECK(trace_derived >= 50);
  CHECK(smallest < 3000);
  CHECK(biggest > 10000);
}

TEST_CASE("generated stores are deterministic and a smaller one is a prefix of a larger one", "[storegen]") {
  TempDir dir;
  bench::generate_store(dir.path() / "a", {60, 11});
  bench::generate_store(dir.path() / "b", {60, 11});
  bench::generate_store(dir.path() / "c", {40, 11});
  bench::generate_store(dir.path() / "d", {60, 12});
  auto a = files_of(dir.path() / "a"), b = files_of(dir.path() / "b"), c = files_of(dir.path() / "c"),
       d = files_of(dir.path() / "d");
  CHECK(a == b);
  CHECK(a != d);
  REQUIRE(c.size() == 41); // 40 records and the index
  for (const auto &[path, text] : c)
    if (path != "records/index.json") CHECK(a[path] == text);
  // Record n is the same record whichever store it is generated in.
  auto rec = bench::make_record(11, 17);
  CHECK(a["records/" + std::string(record::record_relpath(rec).generic_string())] == json::to_pretty(rec));
}

TEST_CASE("the generated index is otm's pretty layout, sorted by id, one entry per record", "[storegen]") {
  TempDir dir;
  auto root = dir.path() / "s";
  bench::generate_store(root, {120, 5});
  auto text = io::read_file(root / "records" / "index.json");
  auto index = json::parse(text);
  CHECK(json::to_pretty(index) == text);
  CHECK(index.get("count") == json::Value(120));
  const auto &list = *index.get("records").as_array();
  REQUIRE(list.size() == 120);
  for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i - 1].string_or("id") < list[i].string_or("id"));
  for (const auto &e : list) CHECK(io::is_regular_file(root / e.string_or("path")));
  // An empty store is a valid store too.
  bench::generate_store(dir.path() / "empty", {0, 5});
  auto empty = json::parse_file(dir.path() / "empty" / "records" / "index.json");
  CHECK(empty.get("records").size() == 0);
  CHECK_THROWS(bench::generate_store(root, {1, 5})); // never into a store that exists
}
