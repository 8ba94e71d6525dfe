// git::Repository::diff_path diffs kernel.py blob to blob; its text must be
// the two-tree diff's byte for byte (what `git diff A B -- kernel.py`
// prints), including the abbreviated ids when core.abbrev is set.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "git/repository.hpp"
#include "trace_fixture.hpp"
#include "tracegen/trace_generator.hpp"

using namespace otm;
namespace fs = std::filesystem;

TEST_CASE("a blob-to-blob diff prints what the two-tree diff prints", "[git][diff]") {
  otm::test::TempDir dir;
  tracegen::TraceOptions o;
  o.versions = 40;
  auto trace = tracegen::generate_trace(dir.path(), o);
  for (const char *abbrev : {"", "12"}) {
    if (*abbrev) {
      std::string cmd = "git -C '" + trace.dir.string() + "' config core.abbrev " + abbrev;
      REQUIRE(std::system(cmd.c_str()) == 0);
    }
    auto repo = git::Repository::open(trace.dir);
    auto commits = repo.commits_oldest_first();
    REQUIRE(commits.size() > 30);
    std::size_t nonempty = 0;
    for (std::size_t i = 0; i < commits.size(); ++i) {
      // Consecutive commits, a stride of three, and from the root (no base).
      for (std::size_t back : {std::size_t(1), std::size_t(3), i}) {
        std::string base = back <= i && back ? commits[i - back].sha : "";
        INFO(abbrev << " " << base << ".." << commits[i].sha);
        auto text = repo.diff_path(base, commits[i].sha, "kernel.py");
        CHECK(text == repo.diff_path_via_trees(base, commits[i].sha, "kernel.py"));
        nonempty += !text.empty();
      }
    }
    CHECK(nonempty > 40);
    // Scattered pairs: a side found in the blob cache, then evicted by the
    // other side's lookup, must still be readable (ASan watches this).
    for (std::size_t k = 0; k < 4 * commits.size(); ++k) {
      const auto &from = commits[(k * 7) % commits.size()].sha, &to = commits[(k * 13 + 5) % commits.size()].sha;
      INFO(abbrev << " " << from << ".." << to);
      CHECK(repo.diff_path(from, to, "kernel.py") == repo.diff_path_via_trees(from, to, "kernel.py"));
    }
  }
}
