#include <catch2/catch.hpp>

#include "test_paths.hpp"

#include <set>

#include "config/config.hpp"
#include "error_kind.hpp"
#include "trace/hardware.hpp"
#include "json/parse.hpp"

using namespace otm::trace;
using otm::Error;
using otm::ErrorKind;
using otm::json::parse;

namespace {
const std::vector<otm::config::TargetEntry> &table() {
  static const auto t = otm::config::Config::defaults().target_table();
  return t;
}
std::string product_of(const std::string &token) {
  auto e = lookup_target(table(), token);
  return e ? e->product : "<none>";
}
} // namespace

TEST_CASE("hardware tokens resolve as observed, with the longest key winning", "[hardware]") {
  CHECK(product_of("NVIDIA B200") == "b200");
  CHECK(product_of("H100 SXM") == "h100");
  CHECK(product_of("rtx-5090") == "sm120");
  CHECK(product_of("sm_120") == "sm120");
  CHECK(product_of("MI300") == "<none>");
  CHECK(product_of("NVIDIA GB200") == "gb200"); // reference: b200
  CHECK(product_of("gb200") == "gb200");
  CHECK(product_of("H200") == "h200"); // h20 is a substring, h200 is longer
  CHECK(product_of("NVIDIA H20") == "h20");
  CHECK(product_of("NVIDIA H800") == "h800");         // a Hopper the first table lacked
  CHECK(product_of("NVIDIA GH200 480GB") == "gh200"); // not the h200 inside it
  CHECK(product_of("AMD Instinct MI355X") == "mi355x");
  CHECK(product_of("gfx942") == "mi300x");
  CHECK(product_of("") == "<none>");
  CHECK(normalise_hardware_token("Sm_120-A") == "sm120a");
}

TEST_CASE("a string target_hardware is one token, not characters", "[hardware]") {
  auto tokens = hardware_tokens(parse(R"({"gpu": ["x", 3, "H100"], "hardware": "b300"})"),
                                parse(R"({"spec": {"target_hardware": "NVIDIA GB200"}})"));
  REQUIRE(tokens == std::vector<std::string>{"NVIDIA GB200", "x", "H100", "b300"});
  auto t = resolve_hardware(tokens, table(), {});
  CHECK(t.vendor == "nvidia");
  CHECK(t.arch == "blackwell");
  CHECK(t.product == "gb200");
  CHECK(t.arch_basis == "detected from the trace (NVIDIA GB200, x, H100)");
}

TEST_CASE("configured target applies when the trace names none", "[hardware]") {
  ConfiguredTarget c;
  c.arch = "cdna3";
  auto t = resolve_hardware({"MI300"}, table(), c);
  CHECK(t.vendor == "amd"); // from the arch, not guessed as nvidia
  CHECK(t.arch == "cdna3");
  CHECK(t.product == "any");
  CHECK(t.arch_basis == "configured (RTM_ARCH / registry entry)");
  c.vendor = "amd";
  c.product = "mi300x";
  CHECK(resolve_hardware({}, table(), c).product == "mi300x");
}

TEST_CASE("unresolvable hardware is a Refused error saying what to set", "[hardware]") {
  try {
    resolve_hardware({"MI300"}, table(), {});
    FAIL("expected an otm::Error");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Refused);
    std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("RTM_ARCH") && Catch::Contains("--arch") && Catch::Contains("RTM_VENDOR") &&
                      Catch::Contains("RTM_PRODUCT") && Catch::Contains("spec.target_hardware") &&
                      Catch::Contains("MI300") && Catch::Contains("guessed architecture is refused"));
  }
}

TEST_CASE("configured values are validated against the schema enums", "[hardware]") {
  auto with = [](std::optional<std::string> v, std::optional<std::string> a, std::optional<std::string> p) {
    ConfiguredTarget c;
    c.vendor = v;
    c.arch = a;
    c.product = p;
    c.vendor_source = "RTM_VENDOR";
    c.arch_source = "RTM_ARCH";
    c.product_source = "RTM_PRODUCT";
    return c;
  };
  CHECK_NOTHROW(validate_configured(with("nvidia", "hopper", "h100")));
  CHECK_NOTHROW(validate_configured(with(std::nullopt, "generic", std::nullopt)));
  CHECK_THROWS_WITH(validate_configured(with("NVIDIA", std::nullopt, std::nullopt)),
                    Catch::Contains("RTM_VENDOR is 'NVIDIA'"));
  CHECK_THROWS_WITH(validate_configured(with(std::nullopt, "sm90", std::nullopt)),
                    Catch::Contains("RTM_ARCH is 'sm90'") && Catch::Contains("blackwell-ultra"));
  CHECK_THROWS_WITH(validate_configured(with(std::nullopt, "hopper", "H100 SXM")),
                    Catch::Contains("RTM_PRODUCT is 'H100 SXM'"));
  CHECK_THROWS_WITH(validate_configured(with(std::nullopt, "hopper", "h.100")), Catch::Contains("record id"));
  CHECK_THROWS_WITH(validate_configured(with("amd", "hopper", std::nullopt)), Catch::Contains("consistently"));
}

TEST_CASE("target table values and hardware enums conform to the store schema", "[hardware][shared]") {
  OTM_REAL_STORE_OR_SKIP(wiki);
  auto schema = otm::json::parse_file(wiki / "schema/kernel/schema.json");
  const auto &scope = schema.get("properties").get("retrieval").get("properties").get("scope").get("properties");
  auto as_set = [](const otm::json::Value &v) {
    std::set<std::string> s;
    REQUIRE(v.is_array());
    for (const auto &x : *v.as_array()) s.insert(*x.as_string());
    return s;
  };
  auto vendors = as_set(scope.get("vendor").get("enum"));
  auto archs = as_set(scope.get("arch").get("enum"));
  auto dsls = as_set(scope.get("dsl").get("enum"));
  CHECK(vendors == std::set<std::string>(known_vendors().begin(), known_vendors().end()));
  CHECK(archs == std::set<std::string>(known_archs().begin(), known_archs().end()));
  CHECK(dsls == std::set<std::string>(known_dsls().begin(), known_dsls().end()));
  for (const auto &e : table()) {
    INFO(e.key);
    CHECK(vendors.count(e.vendor) == 1);
    CHECK(archs.count(e.arch) == 1);
    CHECK(vendor_of_arch(e.arch) == e.vendor);
    CHECK(is_valid_product(e.product));
  }
}
