#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "config/config.hpp"
#include "io/file.hpp"
#include "pipeline/stamps.hpp"
#include "process.hpp"
#include "json/parse.hpp"

namespace fs = std::filesystem;
using namespace otm;

namespace {
fs::path fresh_dir(const std::string &name) {
  auto d = fs::temp_directory_path() / ("otm-stamps-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
using otm::testsupport::sh;
} // namespace

TEST_CASE("a stamp is rewritten only when its content changes", "[stamps]") {
  auto d = fresh_dir("write");
  auto f = d / "s";
  CHECK(pipeline::write_if_changed(f, "a\n"));
  auto t1 = fs::last_write_time(f);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(pipeline::write_if_changed(f, "a\n"));
  CHECK(fs::last_write_time(f) == t1);
  CHECK(pipeline::write_if_changed(f, "b\n"));
  CHECK(io::read_file(f) == "b\n");
  fs::remove_all(d);
}

TEST_CASE("trace state follows HEAD and untracked files, not .git internals", "[stamps]") {
  auto d = fresh_dir("trace");
  auto t = d / "trace";
  fs::create_directories(t / "memory");
  std::string git = "cd " + t.string() +
                    " && GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b.c "
                    "GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b.c git ";
  REQUIRE(sh(git + "init -q . && echo x > kernel.py && " + git + "add kernel.py && " + git +
             "commit -qm 'v1: first'") == 0);
  auto s1 = pipeline::trace_state(t);
  CHECK(s1.rfind("head ", 0) == 0);
  CHECK(s1.find("kernel.py\t2\t") != std::string::npos);
  CHECK(s1.find(".git") == std::string::npos);
  CHECK(pipeline::trace_state(t) == s1);
  io::write_file_atomic(t / "memory" / "v1.json", "{}");
  auto s2 = pipeline::trace_state(t);
  CHECK(s2 != s1);
  CHECK(s2.find("memory/v1.json") != std::string::npos);
  REQUIRE(sh(git + "commit -q --allow-empty -m 'v2: second'") == 0);
  auto s3 = pipeline::trace_state(t);
  CHECK(s3.substr(0, 46) != s2.substr(0, 46));
  fs::remove_all(d);
}

TEST_CASE("config state renders only the named sections", "[stamps]") {
  auto d = fresh_dir("config");
  io::write_file_atomic(d / "over.json", R"({"ladder": {"milestone_pct": 2.5}})");
  auto base = config::Config::defaults();
  auto over = config::Config::load(d / "over.json");
  config::Settings settings;
  CHECK(pipeline::config_state(base, settings, {"target_table"}) ==
        pipeline::config_state(over, settings, {"target_table"}));
  CHECK(pipeline::config_state(base, settings, {"ladder"}) != pipeline::config_state(over, settings, {"ladder"}));
  settings.set(config::Setting::Arch, "hopper");
  auto with_arch = json::parse(pipeline::config_state(base, settings, {"settings"}));
  CHECK(with_arch.get("settings").string_or("RTM_ARCH") == "hopper");
  CHECK_THROWS(pipeline::config_state(base, settings, {"no-such-section"}));
  fs::remove_all(d);
}
