// Issue 27: the review page embeds nothing of a staging store it did not
// escape or draw itself, never follows a link out of the store, and forbids
// script; the store's reports/ are read beneath its root
// (store::read_staged_reports), for the page, the README and the archive
// report alike.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "gates/context.hpp"
#include "io/file.hpp"
#include "review/review_page.hpp"
#include "store/staged_reports.hpp"
#include "trace_fixture.hpp"
#include "json/parse.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

// A store with a regular ledger and picture, a staged picture holding
// script, and a ledger, a picture and a report directory linked out of it.
struct HostileStore {
  test::TempDir tmp;
  fs::path root = tmp.path() / "store", outside = tmp.path() / "outside";
  HostileStore() {
    fs::create_directories(root / "records");
    fs::create_directories(outside);
    io::write_file_atomic(outside / "secret.jsonl", "{\"seg_id\": \"OUTSIDE-CANARY\"}\n");
    io::write_file_atomic(outside / "ladder.svg", "<svg><text>OUTSIDE-CANARY</text></svg>\n");
    io::write_file_atomic(root / "reports" / "good" / "refusals.jsonl",
                          "{\"seg_id\": \"strategy-v3\", \"why\": \"<b>thin</b>\"}\n");
    io::write_file_atomic(root / "reports" / "good" / "ladder.svg", "<svg/>\n");
    io::write_file_atomic(root / "reports" / "evil" / "ladder.svg",
                          "<svg><script>document.title='PWNED'</script><text onload=\"x()\">STAGED</text></svg>\n");
    fs::create_directories(root / "reports" / "x");
    fs::create_symlink(outside / "secret.jsonl", root / "reports" / "x" / "refusals.jsonl");
    fs::create_symlink(outside / "ladder.svg", root / "reports" / "x" / "ladder.svg");
    fs::create_symlink(outside, root / "reports" / "z");
  }
};

} // namespace

TEST_CASE("a staging store's reports are read beneath it", "[review][security]") {
  HostileStore s;
  auto r = store::read_staged_reports(s.root, config::Limits{});
  REQUIRE(r.refusals.size() == 1);
  CHECK(r.refusals[0].string_or("seg_id") == "strategy-v3");
  CHECK(r.ladder_slugs == std::vector<std::string>{"evil", "good"});
  std::string problems;
  for (const auto &p : r.problems) problems += p + "\n";
  CHECK_THAT(problems, Catch::Contains("reports/x/refusals.jsonl: a symbolic link or path leading out of the store"));
  CHECK_THAT(problems, Catch::Contains("reports/x/ladder.svg: a symbolic link or path leading out of the store"));
  CHECK_THAT(problems, Catch::Contains("reports/z/refusals.jsonl: a symbolic link or path leading out of the store"));
  CHECK(problems.find("OUTSIDE-CANARY") == std::string::npos);
  // No reports/ at all: an empty answer.
  CHECK(store::read_staged_reports(s.tmp.path() / "outside", config::Limits{}).problems.empty());
}

TEST_CASE("the review page draws its ladder and embeds no staged markup", "[review][security]") {
  HostileStore s;
  gates::Context ctx;
  ctx.store_root = s.root;
  gates::RecordEntry rec;
  rec.file = "records/strategy/a.json";
  rec.record = json::parse(R"({"id": "a</h2><script>alert(1)</script>", "type": "strategy",
    "payload": {"mechanism": "<img src=x onerror=alert(1)>"}})");
  ctx.records.push_back(rec);
  review::PageInputs in;
  in.context = &ctx;
  report::LadderPicture pic;
  pic.title = "<script>op</script>";
  pic.rows.push_back(json::parse(R"({"version": "v1", "selection": "baseline", "geomean_us": 10.0})"));
  pic.rows.push_back(json::parse(R"({"version": "v2<svg onload=x>", "selection": "milestone", "geomean_us": 8.0})"));
  in.ladder = pic;
  in.ladder_source = "work/ladder.jsonl";
  auto page = review::review_page(in);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<svg onload") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("v2&lt;svg onload=x&gt;")); // text, escaped
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("STAGED") == std::string::npos);
  CHECK(page.find("OUTSIDE-CANARY") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"));
  CHECK_THAT(page, Catch::Contains("<svg") && Catch::Contains("drawn from work/ladder.jsonl"));
  CHECK_THAT(page, Catch::Contains("reports/evil/ladder.svg") && Catch::Contains("not embedded"));
  CHECK_THAT(page, Catch::Contains("Not read: reports/x/refusals.jsonl: a symbolic link or path leading out of the "
                                   "store"));
  CHECK_THAT(page, Catch::Contains("&lt;b&gt;thin&lt;/b&gt;"));
}
