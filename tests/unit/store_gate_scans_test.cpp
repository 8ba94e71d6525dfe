// The shortcuts the store gates take (issue 11) never hide a finding: the
// literal prefilters of the leak, path and id scans say "maybe" to every
// text their regex matches, and raw-isolation searching the served strings
// in place finds what searching the printed served record found.
#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <functional>

#include "gates/gates.hpp"
#include "gates/served_projection.hpp"
#include "record/id_format.hpp"
#include "record/leak_shapes.hpp"
#include "store/store_reader.hpp"
#include "storegen/store_generator.hpp"
#include "text/literal_search.hpp"
#include "text/regex.hpp"
#include "trace/hardware.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
namespace fs = std::filesystem;
using otm::test::TempDir;

namespace {

// find_leaks as it was before the prefilters: every regex over every text.
std::vector<record::Leak> leaks_unfiltered(std::string_view text, bool strict) {
  std::vector<record::Leak> out;
  for (const auto &shape : record::store_leak_shapes())
    for (const auto &m : shape.regex->find_all(text)) out.push_back({shape.label, std::string(m[0])});
  if (strict) {
    for (const auto &m : record::version_id_regex().find_all(text))
      if (record::is_version_id(text, m.begin, m.end)) out.push_back({"version id", std::string(m[0])});
    for (const auto &m : record::workload_hash_regex().find_all(text))
      out.push_back({"workload hash", std::string(m[0])});
  }
  return out;
}

std::string leak_lines(const std::vector<record::Leak> &leaks) {
  std::string out;
  for (const auto &l : leaks) out += l.label + "\t" + l.token + "\n";
  return out;
}

// Texts holding every shape, at the edges of what the prefilters look at.
const std::vector<std::string> &edge_texts() {
  static const std::vector<std::string> texts = {
      "the v12 kernel",
      "V7 beat v6",
      "v12",
      "(v3)",
      "v\u0661\u0662 in Arabic-Indic digits",  // \d is Unicode-aware
      "v\u0967 in Devanagari",                 // U+0967 DEVANAGARI DIGIT ONE
      "ld.global.nc.v4.f32 and vec4 v4 float", // not version ids
      "Triton v3.1",
      "deadbeef",
      "shape 3f2a91bc, again 0badc0de.",
      "x-cafe1234-y",
      "12345678 is all digits",
      "deadbeef9 is nine, deadbee is seven",
      "\u00e9deadbeef glued to a letter",
      "caf\u00e9 deadbeef\u00e9",
      "/home/alice/x.py and file:///Users/bob/k.py and /root/.cache",
      "mail bob.smith@example.com",
      "notes/plan.md",
      "nothing at all",
      "",
  };
  return texts;
}

// Every string of a record, prose or code, for the corpus.
void collect_strings(const json::Value &v, std::vector<std::string> &out) {
  if (const auto *o = v.as_object()) {
    for (const auto &[k, child] : *o) {
      out.push_back(k);
      collect_strings(child, out);
    }
  } else if (const auto *a = v.as_array()) {
    for (const auto &item : *a) collect_strings(item, out);
  } else if (const auto *s = v.as_string()) {
    out.push_back(*s);
  }
}

std::vector<std::string> store_strings(const fs::path &root) {
  std::vector<std::string> out;
  for (const auto &r : store::load_records(root)) collect_strings(r.record, out);
  return out;
}

void check_prefilters(const std::vector<std::string> &texts) {
  for (const auto &t : texts) {
    INFO(t);
    for (bool strict : {false, true})
      CHECK(leak_lines(record::find_leaks(t, strict)) == leak_lines(leaks_unfiltered(t, strict)));
    if (record::version_id_regex().contains(t)) CHECK(record::may_hold_version_id(t));
    if (record::workload_hash_regex().contains(t)) CHECK(record::may_hold_workload_hash(t));
  }
}

} // namespace

TEST_CASE("leak prefilters never hide a leak", "[gates][store-gates][leak]") {
  check_prefilters(edge_texts());
  // They do rule texts out (else they would save nothing).
  CHECK_FALSE(record::may_hold_version_id("vectorised loads, version seven"));
  CHECK_FALSE(record::may_hold_workload_hash("deadbee, deadbeef9, 12345678"));
  CHECK(record::may_hold_version_id("v\u0661"));
  CHECK(record::may_hold_workload_hash("(deadbeef)"));
  // A generated store's strings, and each edge text inside one of them.
  TempDir dir;
  bench::generate_store(dir.path() / "store", {30, 7});
  auto strings = store_strings(dir.path() / "store");
  REQUIRE(strings.size() > 100);
  std::vector<std::string> mixed;
  for (std::size_t i = 0; i < strings.size(); ++i)
    mixed.push_back(strings[i] + " " + edge_texts()[i % edge_texts().size()] + " " + strings[(i * 7) % strings.size()]);
  check_prefilters(strings);
  check_prefilters(mixed);
}

TEST_CASE("leak prefilters never hide a leak in the real store", "[gates][store-gates][leak][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  check_prefilters(store_strings(wiki / "kernel_wiki"));
}

TEST_CASE("id-mention needles: every mention holds one", "[gates][store-gates]") {
  const auto &vendors = trace::known_vendors();
  auto needles = record::id_mention_needles(vendors);
  REQUIRE(needles.size() == vendors.size());
  auto re = record::id_mention_regex(vendors, {"any", "b200"});
  for (const auto &v : vendors) {
    std::string text = "as in " + v + ".b200.triton.gemm.tiles-s01 before";
    INFO(text);
    CHECK(re->contains(text));
    CHECK(text::contains_any(text, needles));
    std::string without = "as in " + v + "-b200.triton.gemm.tiles-s01 before";
    CHECK_FALSE(text::contains_any(without, needles));
    CHECK_FALSE(re->contains(without));
  }
  // A name the pattern escapes is no literal: no prefilter, always scan.
  CHECK(record::id_mention_needles({"nvidia", "Acme"}).empty());
  CHECK(text::contains_any("anything", {}));
}

namespace {

gates::RecordEntry entry(json::Value rec, std::string file) { return {std::move(file), {}, std::move(rec), ""}; }

json::Value &member(json::Value &v, const char *key) {
  if (!v.get(key).is_object()) v.set(key, json::Value::object());
  return *v.find(key);
}

// raw-isolation's identifier search as it was: the served projection
// copied, printed on one line, and each raw identifier searched in it.
bool token_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/';
}
bool occurs_as_token(const std::string &hay, const std::string &needle) {
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
    bool left = pos == 0 || !token_char(hay[pos - 1]);
    auto end = pos + needle.size();
    bool right = end >= hay.size() || !token_char(hay[end]) ||
                 (hay[end] == '.' && (end + 1 >= hay.size() || !token_char(hay[end + 1])));
    if (left && right) return true;
  }
  return false;
}
// The old search's text: the served projection, printed.
std::string printed_served(const json::Value &r) { return json::to_line(gates::served_projection(r)); }
// The leak findings the old search gives, as "token\n" lines in order.
std::string old_leaks(const json::Value &rec) {
  if (!rec.get("worth").get("rank").is_object() || !rec.get("evidence").get("summary").is_object()) return "";
  std::string text = printed_served(rec), out;
  const auto &raw = rec.get("evidence").get("raw");
  for (const char *k : {"source_repo", "detail_file", "git_commit"})
    if (const auto *v = raw.get(k).as_string(); v && !v->empty() && occurs_as_token(text, *v)) out += *v + "\n";
  if (const auto *paths = raw.get("file_paths").as_array())
    for (const auto &p : *paths)
      if (const auto *v = p.as_string(); v && !v->empty() && occurs_as_token(text, *v)) out += *v + "\n";
  return out;
}
std::string new_leaks(const gates::GateResult &result, const std::string &file) {
  std::string out;
  for (const auto &f : result.findings)
    if (f.file == file && f.message.find(" leaks into the served record") != std::string::npos) out += f.token + "\n";
  return out;
}

} // namespace

TEST_CASE("raw-isolation in place finds what the printed served record showed", "[gates][store-gates]") {
  TempDir dir;
  bench::generate_store(dir.path() / "store", {24, 11});
  gates::Context ctx;
  for (auto &r : store::load_records(dir.path() / "store"))
    ctx.records.push_back(entry(std::move(r.record), r.relpath));
  REQUIRE(ctx.records.size() >= 12);
  // Raw identifiers, each planted somewhere served (or somewhere that is
  // not served), in the shapes the in-place search must get right.
  struct Plant {
    std::string id;                                                // the raw identifier
    std::function<void(json::Value &, const std::string &)> place; // where it goes
  };
  auto goal = [](json::Value &r, const std::string &s) { member(r, "payload").set("goal", s); };
  const std::vector<Plant> plants = {
      {"trace-repo", [&](json::Value &r, const std::string &id) { goal(r, "from " + id + " itself"); }},
      {"trace-repo", [&](json::Value &r, const std::string &id) { goal(r, "from " + id + "s, glued"); }},
      {"trace-repo", [&](json::Value &r, const std::string &id) { goal(r, "ends with " + id + "."); }},
      {"trace-repo", [&](json::Value &r, const std::string &id) { goal(r, "ends with " + id + ".x"); }},
      {"payload", [](json::Value &, const std::string &) {}},                  // a key of the served record
      {"summary", [](json::Value &, const std::string &) {}},                  // a key of its structure
      {"null", [](json::Value &r, const std::string &) { r.erase("level"); }}, // printed null
      {"0.25", [](json::Value &r, const std::string &) { member(member(r, "worth"), "rank").set("score", 0.25); }},
      {"nfoo", [&](json::Value &r, const std::string &) { goal(r, "line\nfoo"); }}, // after an escape
      {"tab", [&](json::Value &r, const std::string &) { goal(r, "a\ttab"); }},
      {"say \"hi\"", [&](json::Value &r, const std::string &) { goal(r, "they say \"hi\" here"); }},
      {"two words", [&](json::Value &r, const std::string &id) { goal(r, "in " + id + " here"); }},
      {"a\\b", [&](json::Value &r, const std::string &id) { goal(r, "path " + id); }},
      {"hidden-loc", [](json::Value &r, const std::string &id) { member(r, "retrieval").set("locator", id); }},
      {"hidden-raw", [](json::Value &, const std::string &) {}},
      {"caf\u00e9", [&](json::Value &r, const std::string &id) { goal(r, "at the " + id + " corner"); }},
      {"gain-text", [](json::Value &r, const std::string &id) { member(member(r, "worth"), "gain").set("note", id); }},
      {"as-key", [](json::Value &r, const std::string &id) { member(r, "payload").set(id, 1); }},
  };
  std::size_t found = 0;
  for (std::size_t i = 0; i < plants.size(); ++i) {
    auto &rec = ctx.records[i % ctx.records.size()].record;
    plants[i].place(rec, plants[i].id);
    auto &raw = member(member(rec, "evidence"), "raw");
    const char *key = i % 3 == 0 ? "source_repo" : i % 3 == 1 ? "detail_file" : "git_commit";
    raw.set(key, plants[i].id);
    json::Value paths = json::Value::array();
    paths.push_back(plants[i].id);
    paths.push_back("never/served.py");
    raw.set("file_paths", paths);
  }
  auto result = gates::gate_raw_isolation(ctx);
  for (const auto &r : ctx.records) {
    INFO(r.file);
    auto expected = old_leaks(r.record);
    CHECK(new_leaks(result, r.file) == expected);
    found += !expected.empty();
  }
  CHECK(found >= 10); // the plants are found, not merely equally missed
}

TEST_CASE("raw-isolation in place agrees on the real store", "[gates][store-gates][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  gates::Context ctx;
  for (auto &r : store::load_records(wiki / "kernel_wiki"))
    ctx.records.push_back(entry(std::move(r.record), r.relpath));
  // Each record's own raw identifiers, and then each planted in its goal.
  auto check = [&] {
    auto result = gates::gate_raw_isolation(ctx);
    for (const auto &r : ctx.records) {
      INFO(r.file);
      CHECK(new_leaks(result, r.file) == old_leaks(r.record));
    }
  };
  check();
  for (auto &r : ctx.records) {
    const auto *repo = r.record.get("evidence").get("raw").get("source_repo").as_string();
    if (repo && r.record.get("payload").is_object()) member(r.record, "payload").set("goal", "see " + *repo + " now");
  }
  check();
}

namespace {

// no-cross-reference as it was: the payload with code blanked and the gain
// printed, and both patterns run over every record's text.
json::Value blanked(const json::Value &v, bool in_code) {
  if (const auto *o = v.as_object()) {
    json::Value out = json::Value::object();
    for (const auto &[k, child] : *o)
      out.set(k, blanked(child, in_code || k == "snippet" || k == "dispatch_snippet" || k == "attempted_code"));
    return out;
  }
  if (const auto *a = v.as_array()) {
    json::Value out = json::Value::array();
    for (const auto &item : *a) out.push_back(blanked(item, in_code));
    return out;
  }
  if (in_code && v.is_string()) return json::Value("");
  return v;
}
std::string old_mentions(const json::Value &rec, const text::Regex &id_re) {
  static const text::Regex path_re(std::string(record::markdown_page_pattern()) + R"(|(?:docs|records)/[\w./-]+)");
  json::Value doc = json::Value::object();
  doc.set("payload", blanked(rec.get("payload"), false));
  const auto &gain = rec.get("worth").get("gain");
  doc.set("gain", gain.truthy() ? gain : json::Value::object());
  std::string text = json::to_line(doc), out;
  for (const auto &m : path_re.find_all(text)) out += "path " + std::string(m[0]) + "\n";
  for (const auto &m : id_re.find_all(text)) out += "id " + std::string(m[0]) + "\n";
  return out;
}
std::string new_mentions(const gates::GateResult &result, const std::string &file) {
  std::string out;
  for (const auto &f : result.findings) {
    if (f.file != file) continue;
    if (f.message == "names a repository path") out += "path " + f.token + "\n";
    if (f.message == "names another record by id") out += "id " + f.token + "\n";
  }
  return out;
}

} // namespace

TEST_CASE("no-cross-reference without printing finds what the printed text showed", "[gates][store-gates]") {
  TempDir dir;
  bench::generate_store(dir.path() / "store", {20, 13});
  gates::Context ctx;
  ctx.id_products = {"any", "b200"};
  for (auto &r : store::load_records(dir.path() / "store"))
    ctx.records.push_back(entry(std::move(r.record), r.relpath));
  REQUIRE(ctx.records.size() >= 14);
  auto id_re = record::id_mention_regex(trace::known_vendors(), ctx.id_products);
  auto payload = [](json::Value &r) -> json::Value & { return member(r, "payload"); };
  const std::vector<std::function<void(json::Value &)>> plants = {
      [&](json::Value &r) { payload(r).set("goal", "see docs/setup.txt first"); },
      [&](json::Value &r) { payload(r).set("goal", "listed in records/strategy/x.json"); },
      [&](json::Value &r) { payload(r).set("goal", "written up in plan.md"); },
      [&](json::Value &r) { payload(r).set("goal", "as nvidia.b200.triton.gemm.tiles-s01 did"); },
      [&](json::Value &r) { payload(r).set("goal", "x\nvidia.any.cuda.gemm.y-s01 after an escape"); },
      [&](json::Value &r) { payload(r).set("goal", "quoted \"docs/a\" path"); },
      [&](json::Value &r) { member(payload(r), "implementation").set("snippet", "# docs/in-code.md"); }, // blanked
      [&](json::Value &r) { member(member(r, "worth"), "gain").set("snippet", "docs/in-gain.md"); },     // not blanked
      [&](json::Value &r) { payload(r).set("notes.md", 1); },                                            // a key
      [&](json::Value &r) {
        payload(r).set("goal", json::Value::strings({"a", "see records/y"}));
      },
      [&](json::Value &r) { payload(r).set("goal", "nvidia. alone and docs without a slash"); },
  };
  for (std::size_t i = 0; i < plants.size(); ++i) plants[i](ctx.records[i].record);
  auto result = gates::gate_no_cross_reference(ctx);
  std::size_t found = 0;
  for (const auto &r : ctx.records) {
    INFO(r.file);
    auto expected = old_mentions(r.record, *id_re);
    CHECK(new_mentions(result, r.file) == expected);
    found += !expected.empty();
  }
  CHECK(found >= 8);
}

TEST_CASE("no-cross-reference without printing agrees on the real store", "[gates][store-gates][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  gates::Context ctx;
  ctx.id_products = {"any", "b200", "b300"};
  for (auto &r : store::load_records(wiki / "kernel_wiki"))
    ctx.records.push_back(entry(std::move(r.record), r.relpath));
  auto id_re = record::id_mention_regex(trace::known_vendors(), ctx.id_products);
  // Each record as it is, then with its own id named in its goal.
  for (int round = 0; round < 2; ++round) {
    if (round == 1)
      for (auto &r : ctx.records)
        if (r.record.get("payload").is_object())
          member(r.record, "payload").set("goal", "as in " + r.id() + " and docs/x.md");
    auto result = gates::gate_no_cross_reference(ctx);
    for (const auto &r : ctx.records) {
      INFO(r.file);
      CHECK(new_mentions(result, r.file) == old_mentions(r.record, *id_re));
    }
  }
}

TEST_CASE("a literal set finds what searching each literal finds", "[gates][store-gates]") {
  const std::vector<std::vector<std::string>> sets = {
      {"docs/", "records/", ".md", "nvidia.", "amd."}, {"/root/", "/home/", "/Users/"}, {"@"}, {"abc", "bcd"}, {}};
  const std::vector<std::string> hays = {
      "",           "docs/",         "x docs/ y",    "docs",       "records/strategy", "plan.md",
      ".m",         "nvidia",        "amd.x",        "on nvidia.", "/home/a",          "/home",
      "a@b",        "abcd",          "xbcdx",        "ab",         "md.docs/.",        "s/records/.",
      "/Users/bob", "\n\"docs/\"\\", "caf\u00e9.md", "d.o.c.s/",   "/root/x"};
  for (const auto &set : sets) {
    text::LiteralSet literals(set);
    for (const auto &h : hays) {
      INFO(h);
      CHECK(literals.any_in(h) == text::contains_any(h, set));
    }
  }
}
