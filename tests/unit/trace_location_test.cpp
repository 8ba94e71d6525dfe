#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "error_kind.hpp"
#include "trace/trace_location.hpp"
#include "trace_fixture.hpp"

using namespace otm::trace;
using otm::Error;
using otm::ErrorKind;
using otm::config::Setting;

TEST_CASE("trace slug of §8", "[trace_location]") {
  CHECK(trace_slug("kernel_opt_001_example_fused_softmax") == "001-example-fused-softmax");
  CHECK(trace_slug("kernel_opt_7_a") == "7-a");
  // Not the name "My-Trace-copy" spells back to: hashed (issue 27).
  CHECK(trace_slug("__My Trace (copy)..").starts_with("My-Trace-copy_"));
  CHECK(trace_slug("foo_bar.v2") == "foo-bar.v2");
}

TEST_CASE("locate_trace resolves paths, label, workspace and store", "[trace_location]") {
  otm::test::TempDir tmp;
  otm::test::GitTrace t(tmp.path() / "kernel_opt_002_gqa_decode");
  t.write("kernel.py", "x");
  t.commit("v0: baseline");
  auto config = otm::config::Config::defaults();
  otm::config::Settings s;
  s.set(Setting::Trace, t.dir().string() + "/");
  s.set(Setting::Store, (tmp.path() / "st").string());
  auto loc = locate_trace(s, config);
  CHECK(loc.trace == t.dir());
  CHECK(loc.slug == "002-gqa-decode");
  CHECK(loc.label == "kernel_opt_002_gqa_decode");
  CHECK(loc.workspace.root == "/tmp/opt-trace-mining/002-gqa-decode");
  CHECK(loc.store.root == tmp.path() / "st");
  CHECK_FALSE(loc.registry);
  s.set(Setting::TraceLabel, "my-label");
  s.set(Setting::Workspace, (tmp.path() / "ws").string());
  loc = locate_trace(s, config);
  CHECK(loc.label == "my-label");
  CHECK(loc.workspace.root == tmp.path() / "ws");
}

TEST_CASE("locate_trace uses the registry with RTM_TRACE_ROOT", "[trace_location]") {
  otm::test::TempDir tmp;
  otm::test::GitTrace t(tmp.path() / "example-traces" / "kernel_opt_001_example_fused_softmax_h4096");
  t.commit("v0: baseline");
  auto config = otm::config::Config::defaults();
  otm::config::Settings s;
  s.set(Setting::TraceName, "example-fused-softmax");
  s.set(Setting::TraceRoot, tmp.path().string());
  auto loc = locate_trace(s, config);
  CHECK(loc.trace == t.dir());
  REQUIRE(loc.registry);
  CHECK(loc.registry->arch == "blackwell");
  CHECK(loc.slug == "001-example-fused-softmax-h4096");
}

TEST_CASE("locate_trace refusals are Usage errors with a one-line reason", "[trace_location]") {
  otm::test::TempDir tmp;
  auto config = otm::config::Config::defaults();
  otm::config::Settings s;
  CHECK_THROWS_MATCHES(locate_trace(s, config), Error, otm::test::of_kind(ErrorKind::Usage));
  CHECK_THROWS_WITH(locate_trace(s, config), Catch::Contains("RTM_TRACE") && Catch::Contains("RTM_TRACE_NAME"));
  s.set(Setting::TraceName, "nope");
  CHECK_THROWS_WITH(locate_trace(s, config), Catch::Contains("'nope'") && Catch::Contains("example-fused-softmax"));
  s.unset(Setting::TraceName);
  s.set(Setting::Trace, (tmp.path() / "missing").string());
  CHECK_THROWS_WITH(locate_trace(s, config), Catch::Contains("not a directory"));
  std::filesystem::create_directories(tmp.path() / "plain");
  s.set(Setting::Trace, (tmp.path() / "plain").string());
  CHECK_THROWS_WITH(locate_trace(s, config), Catch::Contains("no .git"));
  otm::test::GitTrace empty(tmp.path() / "empty");
  s.set(Setting::Trace, empty.dir().string());
  CHECK_THROWS_WITH(locate_trace(s, config), Catch::Contains("no commits"));
}
