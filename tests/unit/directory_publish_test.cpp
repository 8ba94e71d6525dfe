// io::DirectoryPublish: a directory of files replaced as one set, old set or
// new set and never a mixture, with nothing rewritten when nothing changed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>

#include "io/directory_publish.hpp"
#include "io/file.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using otm::io::DirectoryPublish;
using otm::io::IoError;
using otm::testsupport::TempDir;
using otm::testsupport::write_text;

namespace {

struct stat stat_of(const fs::path &p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st;
}

std::set<std::string> names(const fs::path &dir) {
  std::set<std::string> out;
  for (const auto &p : otm::io::list_dir(dir)) out.insert(p.filename().string());
  return out;
}

} // namespace

TEST_CASE("publish: a new directory appears whole, with no staging left behind", "[io][publish]") {
  TempDir tmp("publish-new");
  fs::path dir = tmp.path() / "out" / "packets";
  {
    DirectoryPublish p(dir);
    CHECK(p.current().empty());
    CHECK(p.add("a.json", "{}\n"));
    CHECK(p.add("a.diff", "--- a\n"));
    CHECK_FALSE(fs::exists(dir)); // nothing visible before commit
    CHECK(p.commit());
  }
  CHECK(names(dir) == std::set<std::string>{"a.diff", "a.json"});
  CHECK(otm::io::read_file(dir / "a.json") == "{}\n");
  CHECK((stat_of(dir / "a.json").st_mode & 07777) == 0644);
  CHECK(names(tmp.path() / "out") == std::set<std::string>{"packets"});
}

TEST_CASE("publish: the new set replaces the old one in one step", "[io][publish]") {
  TempDir tmp("publish-replace");
  fs::path dir = tmp.path() / "packets";
  write_text(dir / "same.json", "same\n");
  write_text(dir / "changed.json", "old\n");
  write_text(dir / "stale.json", "stale\n");
  write_text(dir / "notes.txt", "mine\n");
  fs::create_directories(dir / "sub");
  write_text(dir / "sub" / "x", "x\n");
  auto same_before = stat_of(dir / "same.json");
  auto dir_before = stat_of(dir);
  // A reader's handle on the directory opened before the publish.
  int reader = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(reader >= 0);
  {
    DirectoryPublish p(dir);
    CHECK(p.current() == std::vector<std::string>{"changed.json", "notes.txt", "same.json", "stale.json", "sub"});
    CHECK_FALSE(p.add("same.json", "same\n"));
    CHECK(p.add("changed.json", "new\n"));
    CHECK(p.add("fresh.json", "fresh\n"));
    p.keep("notes.txt");
    p.keep("sub");
    // Until the commit, readers see the old set only.
    CHECK(otm::io::read_file(dir / "changed.json") == "old\n");
    CHECK_FALSE(fs::exists(dir / "fresh.json"));
    CHECK(p.changed());
    CHECK(p.commit());
  }
  CHECK(names(dir) == std::set<std::string>{"changed.json", "fresh.json", "notes.txt", "same.json", "sub"});
  CHECK(otm::io::read_file(dir / "changed.json") == "new\n");
  CHECK(otm::io::read_file(dir / "sub" / "x") == "x\n");
  // An unchanged file is the same inode, not a copy.
  auto same_after = stat_of(dir / "same.json");
  CHECK(same_after.st_ino == same_before.st_ino);
  CHECK(same_after.st_mtim.tv_nsec == same_before.st_mtim.tv_nsec);
  CHECK(stat_of(dir).st_mode == dir_before.st_mode);
  CHECK(names(tmp.path()) == std::set<std::string>{"packets"});
  struct stat st {};
  // The old set is removed after the exchange (its unchanged files live on).
  CHECK(::fstatat(reader, "stale.json", &st, 0) != 0);
  ::close(reader);
}

TEST_CASE("publish: two threads add into one set", "[io][publish]") {
  // otm-packet's two builder threads each write the packets they build.
  TempDir tmp("publish-threads");
  fs::path dir = tmp.path() / "packets";
  write_text(dir / "same-0.json", "same 0\n");
  write_text(dir / "same-1.json", "same 1\n");
  auto same_before = stat_of(dir / "same-0.json");
  {
    DirectoryPublish p(dir);
    std::atomic<int> refused{0}, written{0}, linked{0};
    auto add = [&](int thread) {
      for (int i = 0; i < 200; ++i) {
        if (p.add("t" + std::to_string(thread) + "-" + std::to_string(i) + ".json", std::to_string(i) + "\n"))
          ++written;
        try {
          p.add("shared-" + std::to_string(i) + ".json", "either\n"); // both threads give it: one is refused
        } catch (const IoError &) {
          ++refused;
        }
      }
      if (!p.add("same-" + std::to_string(thread) + ".json", "same " + std::to_string(thread) + "\n")) ++linked;
    };
    std::thread other(add, 1);
    add(0);
    other.join();
    CHECK(written == 400);
    CHECK(refused == 200);
    CHECK(linked == 2);
    CHECK(p.given("shared-7.json"));
    CHECK_FALSE(p.given("t2-0.json"));
    CHECK(p.commit());
  }
  auto got = names(dir);
  CHECK(got.size() == 602);
  CHECK(got.count("t1-199.json"));
  CHECK(got.count("shared-199.json"));
  CHECK(otm::io::read_file(dir / "t0-17.json") == "17\n");
  CHECK(stat_of(dir / "same-0.json").st_ino == same_before.st_ino);
}

TEST_CASE("publish: a failure before the commit leaves the old set", "[io][publish]") {
  TempDir tmp("publish-fail");
  fs::path dir = tmp.path() / "packets";
  write_text(dir / "a.json", "a\n");
  write_text(dir / "b.json", "b\n");
  auto a_before = stat_of(dir / "a.json");
  {
    DirectoryPublish p(dir);
    CHECK(p.add("a.json", "a2\n"));
    CHECK(p.add("c.json", "c\n"));
    CHECK_THROWS_AS(p.add("../escape", "x"), IoError);
    CHECK_THROWS_AS(p.add("c.json", "again"), IoError);
    CHECK_THROWS_AS(p.keep("missing.json"), IoError);
    // The stage fails here: no commit.
  }
  CHECK(names(dir) == std::set<std::string>{"a.json", "b.json"});
  CHECK(otm::io::read_file(dir / "a.json") == "a\n");
  CHECK(stat_of(dir / "a.json").st_ino == a_before.st_ino);
  CHECK(names(tmp.path()) == std::set<std::string>{"packets"});
  CHECK_FALSE(fs::exists(tmp.path() / "escape"));
}

TEST_CASE("publish: a rerun with the same files writes nothing", "[io][publish]") {
  TempDir tmp("publish-rerun");
  fs::path dir = tmp.path() / "packets";
  {
    DirectoryPublish p(dir);
    p.add("a.json", "a\n");
    p.add("b.py", "b\n");
    REQUIRE(p.commit());
  }
  auto dir_before = stat_of(dir), parent_before = stat_of(tmp.path()), a_before = stat_of(dir / "a.json");
  {
    DirectoryPublish p(dir);
    CHECK_FALSE(p.add("a.json", "a\n"));
    CHECK_FALSE(p.add("b.py", "b\n"));
    CHECK_FALSE(p.changed());
    CHECK_FALSE(p.commit());
  }
  auto dir_after = stat_of(dir), parent_after = stat_of(tmp.path()), a_after = stat_of(dir / "a.json");
  CHECK(dir_after.st_ino == dir_before.st_ino);
  CHECK(dir_after.st_mtim.tv_sec == dir_before.st_mtim.tv_sec);
  CHECK(dir_after.st_mtim.tv_nsec == dir_before.st_mtim.tv_nsec);
  CHECK(parent_after.st_mtim.tv_nsec == parent_before.st_mtim.tv_nsec);
  CHECK(a_after.st_ino == a_before.st_ino);
  CHECK(a_after.st_nlink == 1);
  // Dropping a file is a change: it is published without it.
  {
    DirectoryPublish p(dir);
    CHECK_FALSE(p.add("a.json", "a\n"));
    CHECK(p.changed());
    CHECK(p.commit());
  }
  CHECK(names(dir) == std::set<std::string>{"a.json"});
  CHECK(stat_of(dir / "a.json").st_ino == a_before.st_ino);
}

TEST_CASE("publish: the leftovers of a killed publish are removed, a live one's kept", "[io][publish]") {
  TempDir tmp("publish-leftover");
  fs::path dir = tmp.path() / "packets";
  // No process has pid 2^22 + 1 (above the kernel's pid_max limit).
  fs::path dead = tmp.path() / ".packets.publish-4194305-abcdef";
  fs::path live = tmp.path() / (".packets.publish-" + std::to_string(::getpid()) + "-abcdef");
  write_text(dead / "half.json", "{");
  write_text(live / "half.json", "{");
  {
    DirectoryPublish p(dir);
    p.add("a.json", "a\n");
    p.commit();
  }
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live));
  CHECK(names(dir) == std::set<std::string>{"a.json"});
}
