// Issue 27: the trace reading policy covers .git (trace/git_dir_policy). A
// .git that is a symbolic link or a gitdir: file, a commondir or an
// alternate object store leading out of the trace is refused (exit 2,
// named), unless the user allowed that one git directory by name.
#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "error_kind.hpp"
#include "io/file.hpp"
#include "trace/git_dir_policy.hpp"
#include "trace/trace_location.hpp"
#include "trace_fixture.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Dirs {
  test::TempDir tmp;
  fs::path trace = tmp.path() / "trace", outside = tmp.path() / "outside" / "repo.git";
  Dirs() {
    fs::create_directories(trace);
    fs::create_directories(outside / "objects");
  }
};

std::string refusal(const fs::path &trace, const std::optional<fs::path> &allowed = std::nullopt) {
  try {
    trace::check_git_dir(trace, allowed);
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Refused);
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE(".git leading out of the trace is refused, naming how", "[trace][security]") {
  Dirs d;
  fs::create_symlink(d.outside, d.trace / ".git");
  CHECK_THAT(refusal(d.trace), Catch::Contains("trace/.git: a symbolic link leading out of the trace") &&
                                   Catch::Contains("--allow-git-dir"));
  fs::remove(d.trace / ".git");
  fs::create_symlink("../outside/repo.git", d.trace / ".git");
  CHECK_THAT(refusal(d.trace), Catch::Contains("a symbolic link leading out of the trace"));
  fs::remove(d.trace / ".git");
  io::write_file_atomic(d.trace / ".git", "gitdir: " + d.outside.string() + "\n");
  CHECK_THAT(refusal(d.trace), Catch::Contains(".git: a gitdir file leading out of the trace"));
  io::write_file_atomic(d.trace / ".git", "gitdir: ../outside/repo.git\n");
  CHECK_THAT(refusal(d.trace), Catch::Contains(".git: a gitdir file leading out of the trace"));
}

TEST_CASE(".git allowed by name leads out, to that git directory only", "[trace][security]") {
  Dirs d;
  fs::create_symlink(d.outside, d.trace / ".git");
  CHECK(refusal(d.trace, d.outside).empty());
  // Its parent is not the git directory the user named.
  CHECK_FALSE(refusal(d.trace, d.outside.parent_path()).empty());
  config::Settings s;
  s.set(config::Setting::AllowGitDir, d.outside.string());
  CHECK_NOTHROW(trace::check_git_dir(d.trace, s));
}

TEST_CASE(".git inside the trace, however reached, is the trace's", "[trace][security]") {
  Dirs d;
  fs::create_directories(d.trace / ".git-real" / "objects");
  fs::create_symlink(".git-real", d.trace / ".git");
  CHECK(refusal(d.trace).empty());
  fs::remove(d.trace / ".git");
  io::write_file_atomic(d.trace / ".git", "gitdir: .git-real\n");
  CHECK(refusal(d.trace).empty());
  fs::remove(d.trace / ".git");
  fs::create_directories(d.trace / ".git" / "objects");
  CHECK(refusal(d.trace).empty());
}

TEST_CASE("a git directory whose commondir or alternates lead out is refused", "[trace][security]") {
  Dirs d;
  fs::create_directories(d.trace / ".git" / "objects" / "info");
  io::write_file_atomic(d.trace / ".git" / "commondir", d.outside.string() + "\n");
  CHECK_THAT(refusal(d.trace), Catch::Contains("its commondir leading out of the trace"));
  fs::remove(d.trace / ".git" / "commondir");
  io::write_file_atomic(d.trace / ".git" / "objects" / "info" / "alternates", (d.outside / "objects").string() + "\n");
  CHECK_THAT(refusal(d.trace), Catch::Contains("alternates"));
  // An object store inside the git directory the user allowed is allowed.
  CHECK(refusal(d.trace, d.outside).empty());
}
