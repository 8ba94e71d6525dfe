// The index held as its entries' places (store/lazy_index.hpp) reads what
// store::load_index reads: the same entries in the same order, the same
// members, the same refusals (every malformed document, a journal folded
// on, the nesting limit, windows of the file that cut a value), and the
// one-pass store gates hold one parsed entry at a time and the index's ids,
// not its text.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "gates/gates.hpp"
#include "gates/store_gates.hpp"
#include "io/file.hpp"
#include "schema/builtin_schemas.hpp"
#include "scratch.hpp"
#include "store/index_journal.hpp"
#include "store/index_keys.hpp"
#include "store/lazy_index.hpp"
#include "store/store_reader.hpp"
#include "storegen/store_generator.hpp"
#include "text/sha256.hpp"
#include "text/string_pool.hpp"
#include "json/parse.hpp"
#include "json/value_cut.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using otm::testsupport::TempDir;

namespace {

const std::vector<std::string> kMembers = {"retrieval", "worth_score", "tier", "gain_pct"};

fs::path index_path(const fs::path &root) { return root / "records" / "index.json"; }

void write_index(const fs::path &root, const std::string &text) {
  fs::create_directories(root / "records");
  io::write_file_atomic(index_path(root), text, io::FileClass::Scratch);
}

void append_journal(const fs::path &root, const json::Value &entry) {
  std::string text = fs::exists(store::journal_file(root)) ? io::read_file(store::journal_file(root)) : "";
  io::write_file_atomic(store::journal_file(root), text + store::journal_line(entry, "").text, io::FileClass::Scratch);
}

// The lazy index of `root` says what load_index says: both refuse, both
// find nothing, or the same schema, list and entries.
void check_agrees(const fs::path &root, const config::Limits &limits = {}) {
  std::optional<json::Value> full;
  bool full_refused = false;
  try {
    full = store::load_index(root, limits);
  } catch (const json::ParseError &) {
    full_refused = true;
  }
  std::optional<store::LazyIndex> lazy;
  bool lazy_refused = false;
  try {
    lazy = store::LazyIndex::load(root, limits, kMembers);
  } catch (const json::ParseError &) {
    lazy_refused = true;
  }
  REQUIRE(lazy_refused == full_refused);
  if (full_refused) return;
  REQUIRE(lazy.has_value() == full.has_value());
  if (!full) return;
  CHECK(lazy->schema() == full->string_or("schema"));
  const auto *list = full->get("records").as_array();
  REQUIRE(lazy->has_records_list() == (list != nullptr));
  if (!list) {
    CHECK(lazy->entries().empty());
    return;
  }
  REQUIRE(lazy->entries().size() == list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto &e = lazy->entries()[i];
    const auto &want = (*list)[i];
    INFO("entry " << i << ": " << json::to_line(want));
    CHECK(json::parse(lazy->text(e)) == want);
    const auto *id = want.get("id").as_string();
    CHECK(e.has_id == (id != nullptr));
    CHECK(lazy->id(e) == (id ? *id : std::string()));
    auto parsed = lazy->parse(e);
    for (std::size_t m = 0; m < kMembers.size(); ++m) {
      CHECK(lazy->has(e, m) == want.contains(kMembers[m]));
      CHECK(parsed[m] == want.get(kMembers[m]));
    }
  }
}

json::Value entry(const std::string &id, double score = 0.5) {
  json::Value e = json::Value::object();
  e.set("id", id);
  json::Value retrieval = json::Value::object();
  retrieval.set("triggers", json::Value::strings({"when " + id}));
  e.set("retrieval", retrieval);
  e.set("worth_score", score);
  e.set("tier", "promising");
  e.set("gain_pct", nullptr);
  return e;
}

std::string index_text(const std::vector<json::Value> &entries) {
  json::Value index = json::Value::object();
  index.set("schema", "clean-1.3");
  index.set("count", static_cast<long long>(entries.size()));
  index.set("records", json::Value(json::Array(entries.begin(), entries.end())));
  return json::to_pretty(index);
}

gates::Context streamed_context(const fs::path &root) {
  gates::Context ctx;
  ctx.store_root = root;
  ctx.store_records_streamed = true;
  ctx.index = gates::load_gate_index(root, {});
  ctx.store_schema = std::make_shared<const schema::Schema>(
      json::parse(schema::builtin_store_schema_text(), "built-in clean-1.3 schema"), "built-in clean-1.3 schema");
  ctx.id_products = gates::target_products(config::Config::defaults());
  return ctx;
}

} // namespace

TEST_CASE("the lazy index reads the entries, schema and members load_index reads", "[store][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  SECTION("no index, no journal") {
    fs::create_directories(root / "records");
    check_agrees(root);
  }
  SECTION("a written index") {
    write_index(root, index_text({entry("a.b.c.d.e1"), entry("a.b.c.d.e2", 0.25), entry("a.b.c.d.e3")}));
    check_agrees(root);
  }
  SECTION("entries lacking members, not objects, ids not strings, repeated ids, unsorted") {
    json::Value lacking = entry("a.b.c.d.z");
    lacking.erase("tier");
    json::Value numeric = entry("x");
    numeric.set("id", 7);
    write_index(root, index_text({entry("a.b.c.d.z"), lacking, json::Value("text"), numeric, entry("a.b.c.d.a"),
                                  entry("a.b.c.d.z", 0.75), json::Value::object()}));
    check_agrees(root);
  }
  SECTION("repeated members: the last one is the index's") {
    write_index(root, R"({"records": [{"id": "a"}], "schema": 5, "records": [{"id": "b", "id": "c", "tier": 1,
                          "tier": 2}], "schema": "s", "extra": {"records": [1]}})");
    check_agrees(root);
    write_index(root, R"({"records": [{"id": "a"}], "records": {"id": "b"}})");
    check_agrees(root);
    write_index(root, R"({"schema": "clean-1.3", "records": [], "schema": null})");
    check_agrees(root);
  }
  SECTION("escapes in names and ids, brackets and quotes in strings") {
    write_index(root, R"({"sch\u0065ma": "clean-1.3", "r\u0065cords": [{"i\u0064": "a\"]}\\", "tier": "[{",
                          "retrieval": {"x": "\\\"}"}, "worth_score": 1e2, "gain_pct": -0.0}]})");
    check_agrees(root);
  }
  SECTION("documents that are not an index") {
    for (const char *text : {"[1, 2]", "\"clean-1.3\"", "5", "null", "{}", " {\n} \n", "[]"}) {
      INFO(text);
      write_index(root, text);
      check_agrees(root);
    }
  }
}

TEST_CASE("the lazy index refuses what load_index refuses", "[store][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  for (const std::string &text : std::vector<std::string>{"",
                                                          "   ",
                                                          "{",
                                                          "{\"records\": [",
                                                          "{\"records\": [1, 2]",
                                                          "{\"records\": [1 2]}",
                                                          "{\"records\": [1,]}",
                                                          "{\"a\" 1}",
                                                          "{\"a\": 1,}",
                                                          "{\"a\": 1} x",
                                                          "{} {}",
                                                          "{\"a\": tru}",
                                                          "{\"a\": 01}",
                                                          "{\"a\": [1}",
                                                          "{\"records\": [{\"id\": \"a]}",
                                                          "{\"a\\q\": 1}",
                                                          "{\"records\": [{\"id\": \"\x01\"}]}",
                                                          "{\"records\": [\"\xff\"]}",
                                                          "{\"records\": [{\"id\": \"a\"}]]}",
                                                          "{5: 1}",
                                                          "{\"a\": 1 \"b\": 2}",
                                                          "[1] ]",
                                                          std::string("{}\0", 3),
                                                          "{\"records\": [\"a\" \"b\"]}"}) {
    INFO(json::quote(text));
    write_index(root, text);
    check_agrees(root);
  }
  SECTION("an index over the reading policy's bound") {
    write_index(root, index_text({entry("a.b.c.d.e1")}));
    config::Limits small;
    small.max_input_bytes = 16;
    check_agrees(root, small);
    CHECK_THROWS_AS(store::LazyIndex::load(root, small, kMembers), json::ParseError);
  }
}

TEST_CASE("the lazy index counts the nesting limit as a parse of the whole does", "[store][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  // Around simdjson's limit, in an entry of the list and in another member.
  std::size_t refused = 0;
  for (std::size_t depth = 1016; depth <= 1028; ++depth) {
    std::string nested = std::string(depth, '[') + std::string(depth, ']');
    for (const std::string &text : {"{\"records\": [{\"id\": \"a\", \"tier\": " + nested + "}]}",
                                    "{\"other\": " + nested + ", \"records\": []}", nested}) {
      INFO(depth);
      write_index(root, text);
      check_agrees(root);
      try {
        json::parse(text);
      } catch (const json::ParseError &) {
        ++refused;
      }
    }
  }
  // The range crosses the limit: some refused, some not.
  CHECK(refused > 0);
  CHECK(refused < 3 * 13);
}

TEST_CASE("the lazy index folds the journal on as load_index does", "[store][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  SECTION("onto a sorted index: replaced and new entries") {
    write_index(root, index_text({entry("a.b.c.d.e1"), entry("a.b.c.d.e3"), entry("a.b.c.d.e5")}));
    append_journal(root, entry("a.b.c.d.e3", 0.9));
    append_journal(root, entry("a.b.c.d.e0"));
    append_journal(root, entry("a.b.c.d.e4"));
    append_journal(root, entry("a.b.c.d.e4", 0.1));
    check_agrees(root);
  }
  SECTION("onto an unsorted index with repeated ids") {
    write_index(root, index_text({entry("a.b.c.d.e5"), entry("a.b.c.d.e1"), entry("a.b.c.d.e5", 0.2)}));
    append_journal(root, entry("a.b.c.d.e2"));
    check_agrees(root);
    append_journal(root, entry("a.b.c.d.e5", 0.3));
    check_agrees(root);
  }
  SECTION("without index.json") {
    fs::create_directories(root / "records");
    append_journal(root, entry("a.b.c.d.e2"));
    append_journal(root, entry("a.b.c.d.e1"));
    check_agrees(root);
  }
  SECTION("onto an index without a list, or one that is not an index") {
    write_index(root, R"({"schema": "other", "records": 5})");
    append_journal(root, entry("a.b.c.d.e2"));
    check_agrees(root);
    write_index(root, "[1]");
    check_agrees(root);
  }
  SECTION("an entry that does not parse") {
    // A complete line, its hash holding, whose entry is not JSON.
    std::string payload = store::entry_keys(entry("a.b.c.d.e2")) + "\t{\"id\": ";
    std::string line = std::to_string(payload.size()) + " " + text::sha256_hex(payload) + " " + payload + "\n";
    write_index(root, index_text({entry("a.b.c.d.e1")}));
    io::write_file_atomic(store::journal_file(root), line, io::FileClass::Scratch);
    check_agrees(root);
    CHECK_THROWS_AS(store::LazyIndex::load(root, {}, kMembers), json::ParseError);
    // Not looked at when index.json is not an index.
    write_index(root, "5");
    check_agrees(root);
  }
}

TEST_CASE("the lazy index reads an index far larger than its window", "[store][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  // About 3 MiB: values cut by the window's ends, strings whose escapes and
  // brackets fall on them.
  std::vector<json::Value> entries;
  std::string filler;
  for (int i = 0; i < 64; ++i) filler += "\\\"]}[{ ";
  for (int i = 0; i < 3000; ++i) {
    auto e = entry("a.b.c.d.e" + std::to_string(100000 + i), i / 3000.0);
    e.set("search_text", filler.substr(0, static_cast<std::size_t>(i % 400)) + std::to_string(i));
    e.set("x", json::Value::strings({std::string(static_cast<std::size_t>(i % 997), '\\')}));
    entries.push_back(std::move(e));
  }
  write_index(root, index_text(entries));
  REQUIRE(fs::file_size(index_path(root)) > 3u * (1u << 20));
  check_agrees(root);
}

TEST_CASE("json::cut_value cuts values by their structure", "[json][lazy-index]") {
  using json::Cut;
  auto cut = [](std::string_view t, bool at_end = true) { return json::cut_value(t, 0, at_end); };
  CHECK(cut("\"a\\\"b\" x").end == 6);
  CHECK(cut("\"a\\\\\" x").end == 5);
  CHECK(cut("[1, \"]\", {\"}\": []}], 2").end == 19);
  CHECK(cut("123, 4").end == 3);
  CHECK(cut("true").end == 4);
  CHECK(cut("true", false).status == Cut::NeedMore);
  CHECK(cut("[1, 2", false).status == Cut::NeedMore);
  CHECK(cut("[1, 2").status == Cut::Malformed);
  CHECK(cut("\"abc", false).status == Cut::NeedMore);
  CHECK(cut("]").status == Cut::Malformed);
  CHECK(cut(",").status == Cut::Malformed);
  CHECK(cut("").status == Cut::Malformed);
  std::vector<std::string> members;
  auto object = [&](std::string_view t, bool at_end = true) {
    members.clear();
    return json::cut_object(t, 0, at_end, [&](json::Extent name, json::Extent value) {
      members.push_back(std::string(t.substr(name.at, name.end - name.at)) + "=" +
                        std::string(t.substr(value.at, value.end - value.at)));
    });
  };
  CHECK(object(R"({"a": 1, "b\"": {"c": [2]} , "a":"x"} tail)").end == 37);
  CHECK(members == std::vector<std::string>{"\"a\"=1", R"("b\""={"c": [2]})", "\"a\"=\"x\""});
  CHECK(object("{ }").end == 3);
  CHECK(members.empty());
  CHECK(object("[1]").end == 3);
  CHECK(object(R"({"a": 1)", false).status == Cut::NeedMore);
  CHECK(object(R"({"a" 1})").status == Cut::Malformed);
  CHECK(object(R"({"a": 1,})").status == Cut::Malformed);
  CHECK(object(R"({1: 1})").status == Cut::Malformed);
  std::vector<std::string> elements;
  auto array = [&](std::string_view t, bool at_end = true) {
    elements.clear();
    return json::cut_array(t, 0, at_end,
                           [&](json::Extent e) { elements.push_back(std::string(t.substr(e.at, e.end - e.at))); });
  };
  CHECK(array(R"([ {"a": "]"} ,2,"x\"" ] tail)").end == 23);
  CHECK(elements == std::vector<std::string>{R"({"a": "]"})", "2", R"("x\"")"});
  CHECK(array("[ ]").end == 3);
  CHECK(elements.empty());
  CHECK(array("{}").end == 2);
  CHECK(array("[1, 2", false).status == Cut::NeedMore);
  CHECK(elements == std::vector<std::string>{"1"});
  CHECK(array("[1, 2").status == Cut::Malformed);
  CHECK(array("[1 2]").status == Cut::Malformed);
  CHECK(array("[1,]").status == Cut::Malformed);
  CHECK(array("[1}").status == Cut::Malformed);
}

TEST_CASE("a string pool keeps each string once, at a stable view", "[text][lazy-index]") {
  text::StringPool pool;
  std::vector<std::string_view> views;
  for (int i = 0; i < 5000; ++i) {
    auto [index, fresh] = pool.intern("id-" + std::to_string(i));
    CHECK(fresh);
    CHECK(index == static_cast<std::uint32_t>(i));
    views.push_back(pool[index]);
  }
  std::string large(200000, 'x');
  auto big = pool.intern(large);
  CHECK(pool[big.index] == large);
  CHECK_FALSE(pool.intern(large).fresh);
  CHECK(pool.intern("").fresh);
  CHECK(pool.contains(""));
  for (int i = 0; i < 5000; ++i) {
    CHECK(views[static_cast<std::size_t>(i)] == "id-" + std::to_string(i));
    CHECK(pool.find("id-" + std::to_string(i)) == static_cast<std::uint32_t>(i));
  }
  CHECK_FALSE(pool.contains("id-5000"));
  CHECK(pool.size() == 5002);
}

TEST_CASE("the one pass holds one parsed index entry at a time and the index's ids, not its text",
          "[gates][store-gates][lazy-index]") {
  TempDir dir;
  auto root = dir.path() / "store";
  bench::generate_store(root, {150, 4});
  auto ctx = streamed_context(root);
  REQUIRE(ctx.index);
  // What the index keeps is its ids and places: a small part of its text.
  auto index_bytes = fs::file_size(index_path(root));
  CHECK(ctx.index->held_bytes() * 4 < index_bytes);
  REQUIRE(store::LazyIndex::parsed_alive() == 0);
  store::LazyIndex::reset_parsed_peak();
  auto run = gates::run_passes(gates::store_gates(), ctx, root);
  CHECK(run.records == 150);
  for (const auto &r : run.runs) {
    INFO(r.gate->name);
    CHECK(r.result.findings.empty());
  }
  // Every record was checked against its entry, each parsed and dropped
  // before the next.
  CHECK(store::LazyIndex::parsed_peak() == 1);
  CHECK(store::LazyIndex::parsed_alive() == 0);
}
