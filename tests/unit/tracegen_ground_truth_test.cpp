// bench/tracegen's manifest is the ground truth a miner is measured against,
// so it is checked against what it describes: the code names a version's
// change is said to touch are on the code lines kernel.py's change touches
// (comments and docstrings aside), a change said not to run touches only
// dead constants and uncalled helpers, and the milestones and best-so-far
// versions are those otm-ladder finds in the trace.
#include <catch2/catch.hpp>

#include <map>

#include "example_trace.hpp"
#include "story_replay.hpp"
#include "tracegen/trace_generator.hpp"
#include "json/parse.hpp"

using namespace otm;
using namespace otm::testing;
using namespace otm::tracegen;

namespace {

TraceOptions options(std::size_t versions, Dsl dsl, const std::string &op, std::uint64_t seed,
                     std::vector<HostileShape> hostile) {
  TraceOptions o;
  o.versions = versions;
  o.dsl = dsl;
  o.op = op;
  o.seed = seed;
  o.hostile = std::move(hostile);
  return o;
}

const std::vector<HostileShape> kAll = {HostileShape::InvisibleCode,     HostileShape::RenamedLevers,
                                        HostileShape::TemplateImpact,    HostileShape::RepeatedPitfalls,
                                        HostileShape::MilestoneSpan,     HostileShape::ContradictedPitfalls,
                                        HostileShape::MisleadingReverts, HostileShape::QuotedVersions};

bool contains(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The lines of the uncalled helpers named in `dead`: from the definition to
// the blank line (Python) or closing brace (CUDA) that ends it.
std::vector<std::string> helper_lines(const std::string &kernel, const std::vector<std::string> &dead) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto &line : lines_of(kernel)) {
    if (!in)
      for (const auto &d : dead)
        in = in || ((line.starts_with("def " + d + "(") || line.find(" float " + d + "(") != std::string::npos));
    if (!in) continue;
    if (trimmed(line).empty() || line == "}") {
      if (line == "}") out.push_back(line);
      in = false;
      continue;
    }
    out.push_back(line);
  }
  return out;
}

struct Checked {
  std::size_t own = 0, dead_only = 0, spans = 0;
};

// One change's truth against two kernels: every name on a changed code
// line, and `runs` exactly when a changed line is more than dead names.
void check_change(const std::string &what, const std::string &before, const std::string &after,
                  const std::vector<std::string> &names, const std::vector<std::string> &dead, bool runs) {
  INFO(what << "\nnames: " << ::Catch::Detail::stringify(names) << "\n--- before\n"
            << before << "\n--- after\n"
            << after);
  auto changed = changed_code_lines(before, after);
  auto helpers = helper_lines(before, dead), later = helper_lines(after, dead);
  helpers.insert(helpers.end(), later.begin(), later.end());
  std::vector<std::string> live;
  for (const auto &line : changed) {
    bool dead_line = contains(helpers, line);
    for (const auto &d : dead) dead_line = dead_line || line.find(d) != std::string::npos;
    if (!dead_line) live.push_back(line);
  }
  CHECK(changed.empty() == names.empty());
  for (const auto &n : names) {
    bool found = false;
    for (const auto &line : changed) found = found || line.find(n) != std::string::npos;
    INFO("name " << n);
    CHECK(found);
  }
  CHECK(runs == !live.empty());
}

Checked check_story(const TraceOptions &o) {
  auto story = write_story(o);
  auto commits = replay(story);
  Checked done;
  for (const auto &m : story.manifest) {
    INFO(m.version << " (" << m.kind << ")");
    const auto &mine = commits.at(m.version);
    if (!m.tried_on.empty() && m.code_commit > 0) {
      REQUIRE(m.code_commit <= mine.kernels.size());
      check_change(m.version + "'s own change, from " + m.tried_on, commits.at(m.tried_on).kernels.back(),
                   mine.kernels[m.code_commit - 1], m.code_names, m.dead_names, m.runs);
      ++done.own;
      done.dead_only += !m.runs;
    }
    if (m.kept && !m.best_before.empty()) {
      // The span's diff runs from the best-so-far's last commit to this one's.
      check_change(m.version + "'s diff from the best-so-far " + m.best_before,
                   commits.at(m.best_before).kernels.back(), mine.kernels.back(), m.span_code_names, m.span_dead_names,
                   m.span_runs);
      REQUIRE_FALSE(m.span.empty());
      CHECK(m.span.back() == m.version);
      for (std::size_t i = 0; i + 1 < m.span.size(); ++i) {
        // The earlier steps of a span are kept and did not move the floor.
        auto it = std::find_if(story.manifest.begin(), story.manifest.end(),
                               [&](const VersionNote &n) { return n.version == m.span[i]; });
        REQUIRE(it != story.manifest.end());
        CHECK(it->kept);
        CHECK_FALSE(it->milestone);
        CHECK(it->best_before == m.best_before);
      }
      ++done.spans;
    }
  }
  return done;
}

} // namespace

TEST_CASE("tracegen: the manifest's code names and whether a change runs are kernel.py's change", "[tracegen]") {
  auto plain = check_story(options(150, Dsl::Triton, "rmsnorm", 1, {}));
  CHECK(plain.own > 100);
  CHECK(plain.dead_only >= 2); // the comment-only and docstring-only steps
  for (auto dsl : {Dsl::Triton, Dsl::Cuda, Dsl::Gluon})
    for (const char *op : {"rmsnorm", "fused_softmax", "gelu"}) {
      INFO(dsl_name(dsl) << " " << op);
      auto hostile = check_story(options(160, dsl, op, 5, kAll));
      CHECK(hostile.own > 100);
      CHECK(hostile.dead_only >= 4);
      CHECK(hostile.spans > 20);
    }
}

TEST_CASE("tracegen: the manifest's milestones and best-so-far versions are otm-ladder's", "[tracegen]") {
  testsupport::TempDir dir("tracegen-ladder");
  struct Case {
    TraceOptions o;
    std::size_t min_milestones;
  };
  std::vector<Case> cases = {{options(80, Dsl::Triton, "rmsnorm", 2, {}), 10},
                             {options(150, Dsl::Triton, "rmsnorm", 3, kAll), 20},
                             {options(150, Dsl::Cuda, "fused_softmax", 4, kAll), 20}};
  unsigned number = 930;
  for (auto &c : cases) {
    c.o.number = number++;
    auto g = generate_trace(dir.path() / "traces", c.o);
    fs::path ws = dir.path() / ("ws" + std::to_string(c.o.number));
    std::string env = "env -u RTM_TRACE_NAME -u OTM_CONFIG RTM_TRACE='" + g.dir.string() + "' RTM_WORKSPACE='" +
                      ws.string() + "' RTM_STORE='" + (dir.path() / "staging").string() + "' ";
    auto ingest = run_in(dir.path(), env + bin("otm-ingest") + " --quiet");
    REQUIRE(ingest.rc == 0);
    auto ladder = run_in(dir.path(), bin("otm-ladder") + " '" + (ws / "work/versions.jsonl").string() + "' -o '" +
                                         (ws / "work/ladder.jsonl").string() + "'");
    REQUIRE(ladder.rc == 0);
    std::map<std::string, const VersionNote *> truth;
    for (const auto &m : g.story.manifest) truth[m.version] = &m;
    std::size_t milestones = 0, compared = 0;
    for (const auto &row : json::parse_lines_file(ws / "work/ladder.jsonl")) {
      std::string v = row.string_or("version");
      INFO(g.dir.filename().string() << " " << v);
      REQUIRE(truth.count(v));
      std::string selection = row.string_or("selection");
      bool milestone = selection == "milestone" || selection == "mega";
      CHECK(milestone == truth[v]->milestone);
      milestones += milestone;
      if (const auto *before = row.find("best_before_version"); before && before->is_string()) {
        CHECK(*before->as_string() == truth[v]->best_before);
        ++compared;
      }
    }
    CHECK(milestones >= c.min_milestones);
    CHECK(compared > c.o.versions / 2);
  }
}
