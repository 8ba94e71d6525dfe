// git::Repository::diff_path diffs kernel.py blob to blob; its text must be
// the two-tree diff's byte for byte (what `git diff A B -- kernel.py`
// prints), including the abbreviated ids when core.abbrev is set.
#include <catch2/catch.hpp>

#include <cstdio>
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

TEST_CASE("a diff attribute of kernel.py still prints what the two-tree diff prints", "[git][diff]") {
  // Without an attribute the blobs are diffed in a repository of the same
  // objects with no attribute files; with one, in the trace's own (a named
  // driver changes the hunk headers' function context, -diff the whole
  // text).
  otm::test::TempDir dir;
  tracegen::TraceOptions o;
  o.versions = 12;
  auto trace = tracegen::generate_trace(dir.path(), o);
  auto write = [&](const fs::path &rel, const std::string &text) {
    fs::create_directories((trace.dir / rel).parent_path());
    std::FILE *f = std::fopen((trace.dir / rel).c_str(), "w");
    REQUIRE(f);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  std::vector<std::string> plain;
  {
    auto repo = git::Repository::open(trace.dir);
    auto commits = repo.commits_oldest_first();
    for (std::size_t i = 1; i < commits.size(); ++i)
      plain.push_back(repo.diff_path(commits[i - 1].sha, commits[i].sha, "kernel.py"));
  }
  std::size_t python_context = 0;
  for (const char *attributes : {"kernel.py diff=python\n", "kernel.py -diff\n", "*.py diff\n"}) {
    for (const char *where : {".gitattributes", ".git/info/attributes"}) {
      fs::remove(trace.dir / ".gitattributes");
      fs::remove(trace.dir / ".git" / "info" / "attributes");
      write(where, attributes);
      auto repo = git::Repository::open(trace.dir);
      auto commits = repo.commits_oldest_first();
      REQUIRE(commits.size() > 8);
      for (std::size_t i = 1; i < commits.size(); ++i) {
        INFO(where << ": " << attributes << commits[i - 1].sha << ".." << commits[i].sha);
        auto text = repo.diff_path(commits[i - 1].sha, commits[i].sha, "kernel.py");
        CHECK(text == repo.diff_path_via_trees(commits[i - 1].sha, commits[i].sha, "kernel.py"));
        if (std::string(attributes).starts_with("kernel.py -diff"))
          CHECK((text.empty() || text.find("Binary files") != std::string::npos));
        if (std::string(attributes).find("python") != std::string::npos && text != plain[i - 1]) ++python_context;
      }
    }
  }
  CHECK(python_context > 0); // the named driver's function context was printed
}
