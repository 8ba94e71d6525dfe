// otm-packet's run record (packet/run_record.hpp): a rerun in which nothing
// it reads changed rebuilds nothing and prints what the last run printed;
// a change to anything it read, or to the packets it left, rebuilds.
#include <catch2/catch.hpp>

#include "io/dir_stamps.hpp"
#include "io/read_log.hpp"
#include "test_paths.hpp"
#include "trace/trace_files.hpp"

#include "packets_fixture.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Run {
  int rc;
  std::string out, err;
  bool skipped() const { return err.find("nothing rebuilt") != std::string::npos; }
};

Run run(const testing::SyntheticTrace &t, const std::string &tool, const std::string &args,
        const std::string &env = "") {
  std::string bin = otm::testing::bin_dir() + "/" + tool;
  auto err_file = t.root / "stderr";
  std::string cmd = "cd '" + t.root.string() + "' && env -u RTM_TRACE_NAME -u ATREX_WIKI_DENYLIST -u RTM_LIVE " +
                    "RTM_TRACE='" + t.trace.string() + "' RTM_WORKSPACE='" + t.workspace.string() + "' RTM_STORE='" +
                    t.store.string() + "' " + env + " '" + bin + "' " + args + " 2>'" + err_file.string() +
                    "'; echo \"rc=$?\"";
  std::string out = testing::sh(cmd);
  auto pos = out.rfind("rc=");
  return {std::stoi(out.substr(pos + 3)), out.substr(0, pos), io::read_file(err_file)};
}

// Every file of the packets directory, by name.
std::map<std::string, std::string> packet_files(const testing::SyntheticTrace &t) {
  std::map<std::string, std::string> out;
  for (const auto &e : fs::directory_iterator(t.workspace / "packets"))
    out[e.path().filename().string()] = io::read_file(e.path());
  return out;
}

} // namespace

TEST_CASE("otm-packet rebuilds nothing when nothing it reads changed", "[packet][process]") {
  testing::SyntheticTrace t("packet-rerun");
  REQUIRE(run(t, "otm-partition", "--quiet").rc == 0);
  auto first = run(t, "otm-packet", "");
  REQUIRE(first.rc == 0);
  CHECK_FALSE(first.skipped());
  REQUIRE(json::parse_lines(first.out).size() == 11);
  const auto files = packet_files(t);
  const auto stamps = io::stamp_dir(t.workspace / "packets");
  REQUIRE(stamps);
  // The record holds what the run read from the trace: HEAD, the commits
  // it diffed, the profiler report it quoted.
  auto record = io::read_file(t.workspace / ".stamps" / "packet-run.json");
  CHECK(record.find("git.head") != std::string::npos);
  CHECK(record.find("git.commit\\t" + t.sha.at("v3")) != std::string::npos);
  CHECK(record.find("trace.file\\tprofiles/v1_ncu/REPORT.md") != std::string::npos);

  auto again = run(t, "otm-packet", "");
  CHECK(again.rc == 0);
  CHECK(again.skipped());
  CHECK(again.out == first.out);
  CHECK(again.err.find("anonymisation pre-flight: clean") != std::string::npos);
  CHECK(io::stamp_dir(t.workspace / "packets") == stamps); // not a file touched
  CHECK(run(t, "otm-packet", "--quiet").err.empty());      // --quiet: silent, still skipped
  CHECK(io::stamp_dir(t.workspace / "packets") == stamps);

  // Rebuilt by each change, then skipped again by the rerun after it.
  auto rebuilds = [&](const std::string &args = "", const std::string &env = "") {
    auto r = run(t, "otm-packet", args, env);
    CHECK(r.rc == 0);
    bool rebuilt = !r.skipped();
    CHECK(run(t, "otm-packet", args, env).skipped());
    return rebuilt;
  };
  SECTION("a new commit in the trace") {
    t.commit("v7", "v7: a later step", io::read_file(t.trace / "kernel.py") + "EXTRA = 1\n");
    CHECK(rebuilds());
  }
  SECTION("an edited work file, even one byte that parses the same") {
    auto versions = t.workspace / "work" / "versions.jsonl";
    io::write_file_atomic(versions, io::read_file(versions) + "\n");
    CHECK(rebuilds());
    auto segments = t.workspace / "work" / "segments.jsonl";
    io::write_file_atomic(segments, io::read_file(segments) + "\n");
    CHECK(rebuilds());
  }
  SECTION("an option") {
    CHECK(rebuilds("--limit 3"));
    CHECK(json::parse_lines(run(t, "otm-packet", "--limit 3").out).size() == 3);
    CHECK(rebuilds());
    CHECK(packet_files(t).size() == files.size());
  }
  SECTION("the denylist") {
    auto deny = t.root / "deny.txt";
    io::write_file_atomic(deny, "ACME-Internal\n");
    CHECK(rebuilds("", "ATREX_WIKI_DENYLIST='" + deny.string() + "'"));
    io::write_file_atomic(deny, "ACME-Internal\nsoftmax-secret\n");
    CHECK(rebuilds("", "ATREX_WIKI_DENYLIST='" + deny.string() + "'"));
  }
  SECTION("a trace file it read") {
    auto report = t.trace / "profiles" / "v1_ncu" / "REPORT.md";
    io::write_file_atomic(report, io::read_file(report) + "\nOne more line.\n");
    CHECK(rebuilds());
  }
  SECTION("the repository's configuration, which decides how a diff prints") {
    t.git("config core.abbrev 12");
    CHECK(rebuilds());
    CHECK(packet_files(t) != files); // index lines with 12-digit ids
  }
  SECTION("a damaged or missing packet file") {
    auto name = files.begin()->first;
    io::write_file_atomic(t.workspace / "packets" / name, "damaged");
    CHECK(rebuilds());
    CHECK(packet_files(t) == files);
    fs::remove(t.workspace / "packets" / name);
    CHECK(rebuilds());
    CHECK(packet_files(t) == files);
    io::write_file_atomic(t.workspace / "packets" / "stray.json", "{}");
    CHECK(rebuilds()); // and removed, as a packet of no segment
    CHECK(packet_files(t) == files);
  }
  SECTION("a damaged record") {
    io::write_file_atomic(t.workspace / ".stamps" / "packet-run.json", "{\"format\": ");
    CHECK(rebuilds());
  }
}

TEST_CASE("a read log keeps each read once and marks one that found two values", "[packet]") {
  io::ReadLog log;
  log.note("a", "1");
  log.note("a", "1");
  log.note("b", "2");
  log.note("b", "3");
  auto e = log.entries();
  REQUIRE(e.size() == 2);
  CHECK(e[0] == io::ReadLog::Entry{"a", "1"});
  CHECK(e[1].second == io::ReadLog::kConflicting);
}

TEST_CASE("a trace reader notes its reads and repeats them", "[packet]") {
  testing::SyntheticTrace t("packet-reread");
  io::ReadLog log;
  trace::TraceFiles files(t.trace, config::Limits{});
  files.log_reads_to(&log);
  CHECK(files.text("profiles/v1_ncu/REPORT.md"));
  CHECK_FALSE(files.bytes("profiles/nowhere/REPORT.md"));
  CHECK(files.names("profiles").size() == 1);
  CHECK(files.is_file("kernel.py"));
  auto entries = log.entries();
  REQUIRE(entries.size() == 4);
  for (const auto &[key, value] : entries) CHECK(files.reread(key) == value);
  testing::write(t.trace / "profiles" / "v1_ncu" / "REPORT.md", "changed\n");
  testing::write(t.trace / "profiles" / "nowhere" / "REPORT.md", "now here\n");
  for (const auto &[key, value] : entries)
    if (key.find("kernel.py") == std::string::npos) CHECK(files.reread(key) != value);
  CHECK_FALSE(files.reread("git.head"));
}

TEST_CASE("packet files are 0644 whatever the umask", "[packet][process]") {
  testing::SyntheticTrace t("packet-umask");
  REQUIRE(run(t, "otm-partition", "--quiet").rc == 0);
  for (const char *mask : {"077", "022", "002"}) {
    INFO(mask);
    fs::remove_all(t.workspace / "packets");
    fs::remove_all(t.workspace / ".stamps");
    auto bin = otm::testing::bin_dir() + "/otm-packet";
    testing::sh("cd '" + t.root.string() + "' && umask " + mask + " && env -u RTM_TRACE_NAME -u ATREX_WIKI_DENYLIST " +
                "RTM_TRACE='" + t.trace.string() + "' RTM_WORKSPACE='" + t.workspace.string() + "' '" + bin +
                "' --quiet >/dev/null");
    std::size_t n = 0;
    for (const auto &e : fs::directory_iterator(t.workspace / "packets")) {
      ++n;
      CHECK((fs::status(e.path()).permissions() & fs::perms::all) ==
            (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
    }
    CHECK(n > 0);
  }
}
