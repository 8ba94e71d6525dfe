// io::Beneath, the reader of untrusted trees: both resolutions (openat2 and
// the portable walk) give the same answers for links in and out of the
// root, FIFOs, directories, sizes and dangling links.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include "io/beneath.hpp"
#include "io/file.hpp"
#include "trace_fixture.hpp"

using otm::io::Beneath;
using otm::io::Refusal;
namespace fs = std::filesystem;

namespace {
struct Tree {
  otm::test::TempDir tmp;
  fs::path root = tmp.path() / "root";
  Tree() {
    otm::test::write_text(root / "memory" / "v1.json", "{\"a\": 1}");
    otm::test::write_text(root / "big.txt", std::string(100, 'x'));
    otm::test::write_text(tmp.path() / "outside" / "secret.txt", "OUTSIDE");
    fs::create_symlink("v1.json", root / "memory" / "inside.json");
    fs::create_symlink("../memory/v1.json", root / "memory" / "up-and-in.json");
    fs::create_symlink(tmp.path() / "outside" / "secret.txt", root / "absolute.txt");
    fs::create_symlink("../outside/secret.txt", root / "relative-out.txt");
    fs::create_symlink("../outside", root / "outdir");
    fs::create_symlink("nowhere.json", root / "memory" / "dangling.json");
    fs::create_symlink("loop", root / "loop");
    REQUIRE(::mkfifo((root / "fifo").c_str(), 0600) == 0);
  }
};
} // namespace

TEST_CASE("Beneath reads only regular files beneath its root, either way", "[io][beneath]") {
  Tree t;
  for (auto method : {Beneath::Method::Auto, Beneath::Method::Walk}) {
    Beneath b(t.root, "the trace", method);
    INFO("openat2: " << b.uses_openat2());
    auto ok = b.read("memory/v1.json", 1000);
    REQUIRE(ok);
    CHECK(ok.content == "{\"a\": 1}");
    CHECK(b.read("memory/inside.json", 1000).content == "{\"a\": 1}");    // a link that stays inside
    CHECK(b.read("memory/up-and-in.json", 1000).content == "{\"a\": 1}"); // .. that stays inside
    for (const char *out : {"absolute.txt", "relative-out.txt", "outdir/secret.txt", "../outside/secret.txt"}) {
      INFO(out);
      auto r = b.read(out, 1000);
      CHECK(r.refusal == Refusal::OutsideRoot);
      CHECK(r.content.empty());
      CHECK_THAT(r.why, Catch::Contains("leading out of the trace"));
    }
    CHECK(b.read("/etc/passwd", 1000).refusal == Refusal::OutsideRoot);
    auto fifo = b.read("fifo", 1000); // must not block
    CHECK(fifo.refusal == Refusal::NotRegular);
    CHECK(fifo.why == "a FIFO, not a regular file");
    CHECK(b.read("memory", 1000).why == "a directory, not a regular file");
    auto big = b.read("big.txt", 99);
    CHECK(big.refusal == Refusal::TooLarge);
    CHECK_THAT(big.why, Catch::Contains("100 bytes, over the limit of 99"));
    CHECK(b.read("big.txt", 100));
    CHECK(b.read("memory/dangling.json", 1000).refusal == Refusal::Missing);
    CHECK(b.read("missing.json", 1000).refusal == Refusal::Missing);
    CHECK(b.read("loop", 1000).refusal == Refusal::Unreadable);
    CHECK(b.probe_file("memory/v1.json") == Refusal::None);
    CHECK(b.probe_file("fifo") == Refusal::NotRegular);
    CHECK(b.is_directory("memory"));
    CHECK_FALSE(b.is_directory("outdir"));

    auto list = b.list("memory");
    REQUIRE(list);
    std::vector<std::string> names;
    for (const auto &e : list.entries) names.push_back(e.name);
    CHECK(names == std::vector<std::string>{"dangling.json", "inside.json", "up-and-in.json", "v1.json"});
    CHECK(b.list("outdir").refusal == Refusal::OutsideRoot);
    CHECK(b.list("big.txt").refusal == Refusal::NotDirectory);
    CHECK(b.list("nope").refusal == Refusal::Missing);
  }
  CHECK_THROWS_AS(Beneath(t.root / "big.txt"), otm::io::IoError);
}

TEST_CASE("io::read_file refuses what is not a regular file at once", "[io]") {
  Tree t;
  CHECK_THROWS_WITH(otm::io::read_file(t.root / "fifo"), Catch::EndsWith("fifo: a FIFO, not a regular file"));
  CHECK_THROWS_WITH(otm::io::read_file(t.root / "memory"), Catch::Contains("a directory, not a regular file"));
  CHECK_THROWS_WITH(otm::io::read_file(t.root / "big.txt", 10), Catch::Contains("100 bytes, over the limit of 10"));
  CHECK_THROWS_WITH(otm::io::read_input("/dev/zero", {1000, 1000}),
                    Catch::Contains("a character device, not a file or a pipe"));
  otm::test::write_text(t.tmp.path() / "lines", "short\n" + std::string(50, 'y') + "\n");
  CHECK_THROWS_WITH(otm::io::read_input((t.tmp.path() / "lines").string(), {1000, 20}),
                    Catch::Contains("line 2 is longer than 20 bytes (limits.max_line_bytes)"));
  CHECK_THROWS_WITH(otm::io::read_input((t.tmp.path() / "lines").string(), {30, 100}),
                    Catch::Contains("more than 30 bytes (limits.max_input_bytes)"));
  CHECK(otm::io::read_input((t.tmp.path() / "lines").string(), {100, 100}).size() == 57);
  // A line of exactly the limit passes; one byte more fails, a last line
  // without its newline too.
  CHECK(otm::io::read_input((t.tmp.path() / "lines").string(), {1000, 50}).size() == 57);
  otm::test::write_text(t.tmp.path() / "tail", "a\nb\n" + std::string(21, 'z'));
  CHECK(otm::io::read_input((t.tmp.path() / "tail").string(), {1000, 21}).size() == 25);
  CHECK_THROWS_WITH(otm::io::read_input((t.tmp.path() / "tail").string(), {1000, 20}),
                    Catch::Contains("line 3 is longer than 20 bytes"));
}

TEST_CASE("a write batch lands whole or not at all", "[io]") {
  otm::test::TempDir tmp;
  otm::test::write_text(tmp.path() / "old.json", "old");
  {
    otm::io::WriteBatch batch;
    batch.add(tmp.path() / "a.json", "a");
    batch.add(tmp.path() / "old.json", "new");
    CHECK_FALSE(fs::exists(tmp.path() / "a.json"));
    // Destroyed uncommitted (a failure half-way): nothing changed, no temporaries.
  }
  CHECK_FALSE(fs::exists(tmp.path() / "a.json"));
  CHECK(otm::io::read_file(tmp.path() / "old.json") == "old");
  std::size_t entries = 0;
  for (auto &e : fs::directory_iterator(tmp.path())) entries += e.is_regular_file();
  CHECK(entries == 1);
  otm::io::WriteBatch batch;
  batch.add(tmp.path() / "a.json", "a");
  batch.add(tmp.path() / "old.json", "new");
  batch.commit();
  CHECK(otm::io::read_file(tmp.path() / "a.json") == "a");
  CHECK(otm::io::read_file(tmp.path() / "old.json") == "new");
}
