// The environment names of the settings (docs/configuration.md,
// "Environment variables: the rule"): every setting is OTM_<NAME>; the
// seed's RTM_<NAME> / ATREX_WIKI_DENYLIST is read when the OTM_ name is
// unset or empty; the flag wins over both.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <set>

#include "cmdline/options.hpp"
#include "config/settings.hpp"

using namespace otm;
using config::Setting;

TEST_CASE("every setting has an OTM_ name, and the seed's names are kept", "[config][settings]") {
  std::set<std::string> seen;
  for (const auto &info : config::all_settings()) {
    auto names = config::env_names(info.setting);
    REQUIRE_FALSE(names.empty());
    INFO(names.front());
    CHECK(names.front().rfind("OTM_", 0) == 0);
    CHECK(seen.insert(names.front()).second);
    if (names.size() > 1) CHECK((names[1].rfind("RTM_", 0) == 0 || names[1] == "ATREX_WIKI_DENYLIST"));
  }
  CHECK(config::env_names(Setting::Trace) == std::vector<std::string>{"OTM_TRACE", "RTM_TRACE"});
  CHECK(config::env_names(Setting::Denylist) == std::vector<std::string>{"OTM_DENYLIST", "ATREX_WIKI_DENYLIST"});
  CHECK(config::env_names(Setting::ConfigFile) == std::vector<std::string>{"OTM_CONFIG"});
}

TEST_CASE("a setting from OTM_<NAME>, else the seed's name, and the flag wins", "[config][settings]") {
  ::unsetenv("OTM_ARCH");
  ::setenv("RTM_ARCH", "hopper", 1);
  CHECK(config::Settings::from_environment().get(Setting::Arch) == "hopper");
  ::setenv("OTM_ARCH", "blackwell", 1);
  CHECK(config::Settings::from_environment().get(Setting::Arch) == "blackwell");
  ::setenv("OTM_ARCH", "", 1); // empty is unset: the seed's name is read
  CHECK(config::Settings::from_environment().get(Setting::Arch) == "hopper");
  ::setenv("OTM_DENYLIST", "/d", 1);
  ::setenv("ATREX_WIKI_DENYLIST", "/a", 1);
  CHECK(config::Settings::from_environment().get(Setting::Denylist) == "/d");
  ::setenv("OTM_ARCH", "blackwell", 1);
  cli::Options opts("otm-x", "usage: otm-x");
  config::Settings::add_options(opts, {Setting::Arch});
  const char *argv[] = {"otm-x", "--arch", "ampere"};
  REQUIRE(opts.parse(3, const_cast<char **>(argv)));
  auto settings = config::Settings::from_environment();
  settings.apply(opts);
  CHECK(settings.get(Setting::Arch) == "ampere");
  for (const char *v : {"OTM_ARCH", "RTM_ARCH", "OTM_DENYLIST", "ATREX_WIKI_DENYLIST"}) ::unsetenv(v);
}
