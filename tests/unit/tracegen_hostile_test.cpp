// bench/tracegen's hostile shapes (issue 25): each appears when asked for,
// alone, and the versions that show it hold what the manifest says of them.
// Stories only (no git): fast.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "example_trace.hpp"
#include "io/file.hpp"
#include "story_replay.hpp"
#include "tracegen/hostile_shapes.hpp"
#include "tracegen/trace_generator.hpp"
#include "tracegen/trace_writer.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

using namespace otm;
using namespace otm::testing;
using namespace otm::tracegen;

namespace {

struct Told {
  Story story;
  std::map<std::string, VersionCommits> commits;
  std::map<std::string, const VersionNote *> note;

  const std::string &kernel(const std::string &v) const { return commits.at(v).kernels.back(); }
  json::Value record(const std::string &v) const {
    return json::parse(commits.at(v).files.at("memory/" + v + ".json"), v);
  }
  std::vector<const VersionNote *> of_kind(const std::string &kind) const {
    std::vector<const VersionNote *> out;
    for (const auto &m : story.manifest)
      if (m.kind == kind) out.push_back(&m);
    return out;
  }
};

// Told once per option set: several cases read the same story.
const Told &told(HostileShape shape, Dsl dsl = Dsl::Triton, std::size_t versions = 160) {
  static std::map<std::tuple<int, int, std::size_t>, Told> cache;
  auto key = std::make_tuple(int(shape), int(dsl), versions);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  TraceOptions o;
  o.versions = versions;
  o.dsl = dsl;
  o.seed = 6;
  o.hostile = {shape};
  Told t;
  t.story = write_story(o);
  t.commits = replay(t.story);
  auto &stored = cache[key] = std::move(t);
  for (const auto &m : stored.story.manifest) stored.note[m.version] = &m;
  return stored;
}

std::size_t number_of(const std::string &v) { return std::stoul(v.substr(1)); }

bool has(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A subject without its "v<N>: " prefix and its measurement ("(+2.1%)" or
// "54.9 -> 58.2 us").
std::string claim_of(const std::string &subject) {
  std::string s = subject.substr(subject.find(": ") + 2);
  if (s.ends_with("%)")) return s.substr(0, s.rfind(" ("));
  if (s.ends_with(" us")) {
    auto arrow = s.rfind(" -> ");
    return s.substr(0, s.rfind(' ', arrow - 1));
  }
  return s;
}

std::string pitfall_text(const json::Value &record) {
  std::string out;
  const auto &p = record.get("pitfalls_and_fixes");
  for (std::size_t i = 0; i < p.size(); ++i) out += json::to_line(p[i]) + "\n";
  return out;
}

} // namespace

TEST_CASE("tracegen hostile shapes: the option takes all or a list of names and refuses an unknown one", "[tracegen]") {
  CHECK(parse_hostile_shapes("all") == all_hostile_shapes());
  CHECK(all_hostile_shapes().size() == 8);
  CHECK(parse_hostile_shapes("quoted-versions,invisible-code,quoted-versions") ==
        std::vector<HostileShape>{HostileShape::InvisibleCode, HostileShape::QuotedVersions});
  for (auto s : all_hostile_shapes()) CHECK(parse_hostile_shapes(hostile_shape_name(s)) == std::vector{s});
  CHECK_THROWS_WITH(parse_hostile_shapes("invisible-code,typo"), Catch::Contains("'typo'"));
  CHECK_THROWS_AS(parse_hostile_shapes(""), std::invalid_argument);
}

TEST_CASE("tracegen hostile shapes: each appears when asked for, alone, and none without the option", "[tracegen]") {
  const std::map<HostileShape, std::vector<std::string>> kinds = {
      {HostileShape::InvisibleCode, {"invisible-constant", "invisible-comment", "uncalled-function"}},
      {HostileShape::RenamedLevers, {"renamed-lever"}},
      {HostileShape::TemplateImpact, {}},
      {HostileShape::RepeatedPitfalls, {"retried-deadend"}},
      {HostileShape::MilestoneSpan, {"neutral-kept", "span-milestone"}},
      {HostileShape::ContradictedPitfalls, {"contradicted-pitfall", "failed-lever", "refuted-failure"}},
      {HostileShape::MisleadingReverts, {"deadend-list-named", "revert-comment-only", "restored-dead-constant"}},
      {HostileShape::QuotedVersions, {"quoted-version"}}};
  for (auto dsl : {Dsl::Triton, Dsl::Cuda, Dsl::Gluon})
    for (auto shape : all_hostile_shapes()) {
      const Told &t = told(shape, dsl);
      std::string name = hostile_shape_name(shape);
      INFO(name << " in " << dsl_name(dsl));
      std::size_t marked = 0;
      std::set<std::string> seen;
      for (const auto &m : t.story.manifest) {
        seen.insert(m.kind);
        for (const auto &h : m.hostile) {
          INFO(m.version);
          CHECK(h == name);
        }
        marked += !m.hostile.empty();
      }
      CHECK(marked >= 2);
      for (const auto &k : kinds.at(shape)) {
        INFO(k);
        CHECK(seen.count(k) == 1);
      }
    }
  TraceOptions plain;
  plain.versions = 160;
  for (const auto &m : write_story(plain).manifest) CHECK(m.hostile.empty());
}

TEST_CASE("tracegen hostile shapes: invisible code claims a clear gain its diff cannot have made", "[tracegen]") {
  for (auto dsl : {Dsl::Triton, Dsl::Cuda}) {
    const Told &t = told(HostileShape::InvisibleCode, dsl);
    std::size_t checked = 0;
    for (const char *kind : {"invisible-constant", "invisible-comment", "uncalled-function"})
      for (const auto *m : t.of_kind(kind)) {
        INFO(dsl_name(dsl) << " " << m->version << " " << m->subject);
        CHECK(m->kept);
        CHECK(m->milestone);
        CHECK_FALSE(m->runs);
        REQUIRE(m->lever);
        CHECK(m->subject.find(*m->lever) != std::string::npos);
        const std::string &k = t.kernel(m->version);
        if (m->kind == "invisible-constant") {
          // The dead constant sits under a comment repeating the claim.
          CHECK(m->code_names == std::vector<std::string>{"_TUNE_ID"});
          CHECK(k.find("# " + *m->lever + "\n_TUNE_ID = ") != std::string::npos);
        } else if (m->kind == "uncalled-function") {
          // The new helper (and the one it replaced, if any): all dead.
          REQUIRE_FALSE(m->code_names.empty());
          const std::string &fn = m->code_names.back();
          CHECK(m->dead_names == m->code_names);
          // Defined once, called nowhere.
          CHECK(k.find(fn + "(") != std::string::npos);
          CHECK(k.find(fn + "(") == k.rfind(fn + "("));
        } else {
          CHECK(m->code_names.empty());
        }
        ++checked;
      }
    CHECK(checked >= 4);
  }
}

TEST_CASE("tracegen hostile shapes: renamed levers, and the claim's comment hunks away from the change", "[tracegen]") {
  for (auto dsl : {Dsl::Triton, Dsl::Gluon, Dsl::Cuda}) {
    const Told &t = told(HostileShape::RenamedLevers, dsl);
    if (dsl != Dsl::Cuda)
      for (const auto &[v, c] : t.commits)
        for (const auto &line : code_lines(c.kernels.back())) CHECK(line.find("BLOCK_SIZE") == std::string::npos);
    std::set<std::string> levers;
    for (const auto *m : t.of_kind("renamed-lever")) {
      INFO(dsl_name(dsl) << " " << m->version << " " << m->subject);
      REQUIRE(m->lever);
      levers.insert(*m->lever);
      CHECK(m->runs);
      CHECK_FALSE(m->code_names.empty());
      CHECK_FALSE(has(m->code_names, *m->lever)); // the prose's name is not the code's
      CHECK(m->subject.find(*m->lever) != std::string::npos);
      // The comment repeating the claim, and the nearest changed code line.
      auto before = lines_of(t.kernel(m->tried_on)), after = lines_of(t.kernel(m->version));
      std::multiset<std::string> old(before.begin(), before.end());
      auto changed_code = changed_code_lines(t.kernel(m->tried_on), t.kernel(m->version));
      std::ptrdiff_t claim = -1;
      std::vector<std::ptrdiff_t> code;
      for (std::size_t i = 0; i < after.size(); ++i) {
        if (old.count(after[i])) continue;
        std::string l = trimmed(after[i]);
        if (l.starts_with("# ") && !l.starts_with("# revision") && l.find(*m->lever) != std::string::npos)
          claim = std::ptrdiff_t(i);
        else if (std::find(changed_code.begin(), changed_code.end(), after[i]) != changed_code.end())
          code.push_back(std::ptrdiff_t(i));
      }
      REQUIRE(claim >= 0);
      REQUIRE_FALSE(code.empty());
      // More than 6 unchanged lines between them: separate hunks at git's 3 lines of context.
      for (auto c : code) CHECK(std::abs(c - claim) > 7);
    }
    std::set<std::string> want =
        dsl == Dsl::Cuda ? std::set<std::string>{"BLOCK_SIZE"} : std::set<std::string>{"warps", "stages"};
    for (const auto &l : want) CHECK(levers.count(l) == 1);
    if (dsl != Dsl::Cuda) {
      // The row norm's tile is fixed once the whole row sits in registers; the
      // ordinary step that did it says BLOCK_SIZE of the code's BLOCK_N.
      bool block = false;
      for (const auto &m : t.story.manifest)
        block = block || (m.lever == "BLOCK_SIZE" && has(m.code_names, "BLOCK_N") && has(m.hostile, "renamed-levers"));
      CHECK(block);
    }
    bool vec = false;
    for (const auto &l : levers) vec = vec || l.starts_with("vec");
    CHECK(vec);
  }
}

TEST_CASE("tracegen hostile shapes: template impact writes one sentence in every step record, now and then another",
          "[tracegen]") {
  const Told &t = told(HostileShape::TemplateImpact);
  std::set<std::string> templated, specific;
  std::size_t records = 0;
  for (const auto &m : t.story.manifest) {
    INFO(m.version);
    auto r = t.record(m.version);
    ++records;
    const auto &impact = r.get("optimization").get("expected_impact");
    REQUIRE(m.expected_impact);
    if (*m.expected_impact == "template")
      templated.insert(impact.as_string() ? *impact.as_string() : "");
    else
      specific.insert(*impact.as_string());
  }
  CHECK(templated.size() == 1);
  CHECK_FALSE(templated.begin()->empty());
  CHECK(specific.size() >= 1);
  CHECK(specific.count(*templated.begin()) == 0);
  std::size_t template_lines = 0;
  for (const auto &m : t.story.manifest) template_lines += *m.expected_impact == "template";
  CHECK(template_lines * 10 >= records * 8);
}

TEST_CASE("tracegen hostile shapes: repeated pitfalls retry one dead-end and carry pitfalls into later records",
          "[tracegen]") {
  const Told &t = told(HostileShape::RepeatedPitfalls);
  auto retried = t.of_kind("retried-deadend");
  REQUIRE(retried.size() >= 3);
  std::size_t retries = 0, carried = 0;
  for (const auto &m : t.story.manifest) {
    INFO(m.version);
    for (const auto &r : m.repeats) {
      // Each repeated version's pitfall is in this record again, word for word.
      CHECK(number_of(r) < number_of(m.version));
      auto mine = pitfall_text(t.record(m.version));
      auto theirs = json::parse_lines(pitfall_text(t.record(r)), r);
      bool found = false;
      for (const auto &p : theirs) found = found || mine.find(json::to_line(p)) != std::string::npos;
      CHECK(found);
    }
    // A retry repeats an earlier attempt of the same lever in the same words
    // (its other repeats, as any record's, are carried pitfalls).
    const VersionNote *first = nullptr;
    for (const auto &r : m.repeats)
      if (m.kind == "retried-deadend" && t.note.at(r)->kind == "retried-deadend" && t.note.at(r)->lever == m.lever)
        first = t.note.at(r);
    if (first) {
      ++retries;
      CHECK(first->code_names == m.code_names);
      CHECK(claim_of(first->subject) == claim_of(m.subject));
    } else {
      carried += !m.repeats.empty();
    }
  }
  CHECK(retries >= 2);
  CHECK(carried >= 5);
}

TEST_CASE("tracegen hostile shapes: a milestone whose claim is in no code spans the slower kept steps before it",
          "[tracegen]") {
  for (auto dsl : {Dsl::Triton, Dsl::Cuda}) {
    const Told &t = told(HostileShape::MilestoneSpan, dsl);
    auto milestones = t.of_kind("span-milestone");
    REQUIRE(milestones.size() >= 3);
    for (const auto *m : milestones) {
      INFO(dsl_name(dsl) << " " << m->version);
      CHECK(m->milestone);
      CHECK_FALSE(m->runs);
      CHECK(m->code_names.empty());
      REQUIRE(m->span.size() >= 3);
      CHECK_FALSE(m->span_code_names.empty());
      double floor = t.record(m->best_before).get("performance").get("latency_us_geomean").as_number().value_or(0);
      if (floor == 0) floor = *t.record(m->best_before).get("performance").get("latency_us").as_number();
      for (std::size_t i = 0; i + 1 < m->span.size(); ++i) {
        const auto &step = *t.note.at(m->span[i]);
        CHECK(step.kind == "neutral-kept");
        CHECK(step.runs);
        auto perf = t.record(step.version).get("performance");
        double geo = perf.get("latency_us_geomean").as_number().value_or(0);
        if (geo == 0) geo = *perf.get("latency_us").as_number();
        CHECK(geo >= floor); // kept although slower: the floor stays
        for (const auto &n : step.code_names)
          if (!has(step.dead_names, n)) CHECK(has(m->span_code_names, n));
      }
    }
  }
}

TEST_CASE("tracegen hostile shapes: pitfalls that contradict the measurement, and a failure later kept as a win",
          "[tracegen]") {
  for (auto dsl : {Dsl::Triton, Dsl::Cuda}) {
    const Told &t = told(HostileShape::ContradictedPitfalls, dsl);
    auto contradicted = t.of_kind("contradicted-pitfall");
    REQUIRE(contradicted.size() >= 2);
    for (const auto *m : contradicted) {
      INFO(dsl_name(dsl) << " " << m->version);
      CHECK(m->pitfall_contradicts);
      auto r = t.record(m->version);
      CHECK(r.get("correctness").string_or("status") == "PASS");
      double err = r.get("correctness")
                       .get("max_rel_err")
                       .as_number()
                       .value_or(r.get("correctness").get("rel_err").as_number().value_or(1.0));
      CHECK(err < 1e-5);
      CHECK_THAT(pitfall_text(r), Catch::Contains("accuracy"));
    }
    auto refuted = t.of_kind("refuted-failure");
    REQUIRE(refuted.size() >= 1);
    for (const auto *m : refuted) {
      INFO(dsl_name(dsl) << " " << m->version);
      REQUIRE(m->refutes.size() == 1);
      const auto &failed = *t.note.at(m->refutes[0]);
      CHECK(failed.kind == "failed-lever");
      CHECK(number_of(failed.version) < number_of(m->version));
      CHECK(failed.lever == m->lever);
      CHECK(failed.code_names == m->code_names);
      CHECK_THAT(pitfall_text(t.record(failed.version)), Catch::Contains("fails"));
      CHECK(m->milestone);
      CHECK(m->runs);
    }
    if (dsl == Dsl::Triton) {
      bool rows = false;
      for (const auto *m : refuted) rows = rows || m->lever == "ROWS_PER_PROG";
      CHECK(rows);
    }
  }
}

TEST_CASE("tracegen hostile shapes: misleading reverts", "[tracegen]") {
  for (auto dsl : {Dsl::Triton, Dsl::Cuda}) {
    const Told &t = told(HostileShape::MisleadingReverts, dsl);
    INFO(dsl_name(dsl));
    // A list whose later items are not in the attempted code.
    auto lists = t.of_kind("deadend-list-named");
    REQUIRE_FALSE(lists.empty());
    for (const auto *m : lists) {
      INFO(m->version << " " << m->subject);
      REQUIRE(m->listed_levers.size() >= 2);
      for (std::size_t i = 0; i < m->listed_levers.size(); ++i) {
        CHECK(m->listed_levers[i].in_code == (i == 0));
        CHECK(m->subject.find(m->listed_levers[i].lever) != std::string::npos);
      }
      CHECK(m->runs);
    }
    // A revert whose diff is a comment.
    auto comments = t.of_kind("revert-comment-only");
    REQUIRE_FALSE(comments.empty());
    for (const auto *m : comments) {
      INFO(m->version);
      CHECK(m->commits == 1);
      CHECK_FALSE(m->runs);
      CHECK(m->code_names.empty());
      CHECK(changed_code_lines(t.kernel(m->tried_on), t.kernel(m->version)).empty());
      CHECK_THAT(m->subject, Catch::Contains("reverted"));
    }
    // A restoration that differs from the code it was tried on only by a dead constant.
    auto restored = t.of_kind("restored-dead-constant");
    REQUIRE_FALSE(restored.empty());
    for (const auto *m : restored) {
      INFO(m->version);
      CHECK(m->commits == 2);
      CHECK(m->code_commit == 1);
      CHECK(m->runs);
      auto changed = changed_code_lines(t.kernel(m->tried_on), t.kernel(m->version));
      REQUIRE_FALSE(changed.empty());
      for (const auto &line : changed) CHECK_THAT(line, Catch::Contains("_TUNE_ID"));
    }
  }
}

TEST_CASE("tracegen hostile shapes: kernel comments quote an earlier version, captures sit in v<N>_ncu_full",
          "[tracegen]") {
  const Told &t = told(HostileShape::QuotedVersions);
  auto quoted = t.of_kind("quoted-version");
  REQUIRE(quoted.size() >= 2);
  for (const auto *m : quoted) {
    INFO(m->version);
    bool earlier = false;
    for (const auto &q : m->quoted_versions)
      if (number_of(q) < number_of(m->version) &&
          t.kernel(m->version).find("see " + q + "'s note") != std::string::npos)
        earlier = true;
    CHECK(earlier);
  }
  std::size_t full = 0;
  for (const auto &m : t.story.manifest)
    for (const auto &d : m.capture_dirs) {
      INFO(m.version << " " << d);
      CHECK(d.starts_with(m.version));
      if (d.ends_with("-nsys")) continue;
      CHECK(d == m.version + "_ncu_full");
      CHECK_THAT(t.commits.at(m.version).files.at("profiles/" + d + "/REPORT.md"),
                 Catch::Contains("profiles/" + d + "/"));
      ++full;
    }
  CHECK(full >= 5);
}

TEST_CASE("otm-make-trace: --hostile and --hostile-rate are checked, and the tool writes what the library tells",
          "[tracegen]") {
  testsupport::TempDir dir("make-trace-hostile");
  auto run = [&](const std::string &args) { return run_in(dir.path(), bin("otm-make-trace") + " " + args); };
  auto typo = run("--hostile invisible-code,typo --stream");
  CHECK(typo.rc == 2);
  CHECK_THAT(typo.err, Catch::Contains("'typo'") && Catch::Contains("quoted-versions"));
  CHECK(run("--hostile-rate 30 --stream").rc == 2); // a rate without shapes
  CHECK(run("--hostile all --hostile-rate 0 --stream").rc == 2);
  CHECK(run("--hostile all --hostile-rate 101 --stream").rc == 2);

  auto made = run("--versions 60 --hostile quoted-versions,invisible-code --hostile-rate 40 --stream --manifest '" +
                  (dir.path() / "manifest.jsonl").string() + "' > '" + (dir.path() / "trace.fi").string() + "'");
  REQUIRE(made.rc == 0);
  TraceOptions o;
  o.versions = 60;
  o.hostile = {HostileShape::InvisibleCode, HostileShape::QuotedVersions};
  o.hostile_rate = 40;
  auto story = write_story(o);
  std::ostringstream stream;
  write_fast_import(stream, story);
  CHECK(io::read_file(dir.path() / "trace.fi") == stream.str());
  CHECK(io::read_file(dir.path() / "manifest.jsonl") == manifest_jsonl(story));
  std::size_t marked = 0;
  for (const auto &line : json::parse_lines_file(dir.path() / "manifest.jsonl"))
    marked += line.get("hostile").size() > 0;
  CHECK(marked >= 5);
}
