// otm's own pack machinery (lib/support/git/: git_delta, pack_writer,
// pack_reader, version_pack): git's delta encoding round-trips and composes
// for any bytes, and what otm writes is a pack both libgit2 and git read
// (`git fsck --full`, `git cat-file`). The git CLI is used here only to
// look at what otm wrote.
#include <catch2/catch.hpp>

#include <git2.h>

#include <cstdio>
#include <iostream>
#include <random>
#include <set>
#include <sys/wait.h>

#include "git/git_delta.hpp"
#include "git/pack_reader.hpp"
#include "git/pack_writer.hpp"
#include "git/repository.hpp"
#include "git/version_pack.hpp"
#include "git/work_tree.hpp"
#include "io/file.hpp"
#include "scratch.hpp"

using namespace otm;
namespace fs = std::filesystem;

namespace {

struct Run {
  int rc = -1;
  std::string out;
};

Run shell(const std::string &cmd) {
  Run r;
  FILE *p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string q(const fs::path &p) { return "'" + p.string() + "'"; }

bool have_git() { return shell("git --version").rc == 0; }

git_oid blob_id(const std::string &content) {
  git_oid id;
  REQUIRE(git_odb_hash(&id, content.data(), content.size(), GIT_OBJECT_BLOB) == 0);
  return id;
}

std::string hex(const git_oid &id) {
  char buf[GIT_OID_HEXSZ + 1];
  git_oid_tostr(buf, sizeof buf, &id);
  return buf;
}

std::string random_bytes(std::mt19937 &rng, std::size_t n, int alphabet = 256) {
  std::string s(n, '\0');
  std::uniform_int_distribution<int> d(0, alphabet - 1);
  for (auto &c : s) c = static_cast<char>(d(rng));
  return s;
}

// An index-like text: `n` JSON entries of a few hundred bytes, with
// repeated keys (as records/index.json has), numbered from `first`.
std::string entries(int first, int n, const std::string &tag = "") {
  std::string s;
  for (int i = first; i < first + n; ++i)
    s += "  {\"id\": \"nvidia.b200.triton.toy-op.rec-" + std::to_string(i) +
         "\", \"kind\": \"strategy\", \"title\": \"a change that made op " + std::to_string(i * 7919 % 1000) +
         " faster" + tag + "\", \"score\": " + std::to_string(i % 97) + ", \"files\": [\"records/strategy/" +
         std::to_string(i) + ".json\"]},\n";
  return s;
}

// What libgit2 reads as object `id` of the repository at `dir`.
std::string libgit2_read(const fs::path &dir, const git_oid &id) {
  static const int initialised = git_libgit2_init();
  REQUIRE(initialised > 0);
  git_repository *repo = nullptr;
  REQUIRE(git_repository_open_bare(&repo, dir.c_str()) == 0);
  git_odb *odb = nullptr;
  REQUIRE(git_repository_odb(&odb, repo) == 0);
  git_odb_object *obj = nullptr;
  int rc = git_odb_read(&obj, odb, &id);
  std::string out;
  if (rc == 0) out.assign(static_cast<const char *>(git_odb_object_data(obj)), git_odb_object_size(obj));
  git_odb_object_free(obj);
  git_odb_free(odb);
  git_repository_free(repo);
  INFO("libgit2 reads " << hex(id));
  REQUIRE(rc == 0);
  return out;
}

fs::path bare_repo(const fs::path &dir) {
  REQUIRE(shell("git init -q --bare " + q(dir)).rc == 0);
  return dir;
}

// Each blob reads back byte for byte through libgit2 and `git cat-file`,
// and the repository passes `git fsck --full --strict`.
void check_blobs_read_back(const fs::path &repo, std::initializer_list<const std::string *> blobs) {
  for (const std::string *v : blobs) {
    CHECK(libgit2_read(repo, blob_id(*v)) == *v);
    auto r = shell("git -C " + q(repo) + " cat-file -p " + hex(blob_id(*v)));
    REQUIRE(r.rc == 0);
    CHECK(r.out == *v);
  }
  auto fsck = shell("git -C " + q(repo) + " fsck --full --strict");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
}

} // namespace

TEST_CASE("git delta: encode and apply round-trip any two byte strings", "[git][pack]") {
  std::mt19937 rng(26);
  std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""}, {"", "abc"}, {"abc", ""}, {"short", "shorter"}, {std::string(100, 'a'), std::string(300, 'a')}};
  for (int i = 0; i < 40; ++i) {
    std::string a = random_bytes(rng, rng() % 5000, i % 2 ? 4 : 256);
    std::string b = random_bytes(rng, rng() % 5000, i % 2 ? 4 : 256);
    cases.emplace_back(a, b);
    // An edit of `a`: a piece cut, a piece inserted, a piece moved.
    std::string e = a;
    if (e.size() > 100) {
      e.erase(rng() % (e.size() - 50), 40);
      e.insert(rng() % e.size(), random_bytes(rng, 300));
      e += a.substr(0, 77);
    }
    cases.emplace_back(a, e);
  }
  // Long shared runs: every copy instruction size and offset form, and a
  // copy longer than one instruction holds (0xFFFFFF bytes).
  std::string big = random_bytes(rng, 40000000, 256);
  std::string big2 = big.substr(0, 17000000) + "spliced entry" + big.substr(17000001);
  cases.emplace_back(big, big2);
  for (const auto &[src, tgt] : cases) {
    std::string d = git::encode_delta(src, tgt);
    REQUIRE(git::apply_delta(src, d) == tgt);
    auto sizes = git::delta_sizes(d);
    CHECK(sizes.source == src.size());
    CHECK(sizes.target == tgt.size());
  }
  // The splice costs a few instructions, not the target.
  CHECK(git::encode_delta(big, big2).size() < 64);
}

TEST_CASE("git delta: an index with entries added and changed is a small delta both ways", "[git][pack]") {
  std::string old_text = "[\n" + entries(0, 3000) + "]\n";
  std::string new_text = "[\n" + entries(0, 1000) + entries(5000, 20) + entries(1000, 1500) +
                         entries(2500, 3, " (confirmed)") + entries(2503, 497) + entries(6000, 20) + "]\n";
  std::string back = git::encode_delta(new_text, old_text);
  std::string forth = git::encode_delta(old_text, new_text);
  CHECK(git::apply_delta(new_text, back) == old_text);
  CHECK(git::apply_delta(old_text, forth) == new_text);
  CHECK(back.size() < 2000);
  CHECK(forth.size() < 20000);
}

TEST_CASE("git delta: composing two deltas gives one that rebuilds the same bytes", "[git][pack]") {
  std::mt19937 rng(7);
  for (int i = 0; i < 30; ++i) {
    std::string c = "[\n" + entries(0, 200 + i) + "]\n";
    std::string b = c;
    b.insert(rng() % b.size(), entries(900, 3));
    b.erase(rng() % (b.size() - 10), 9);
    std::string a = b;
    a.replace(rng() % (a.size() - 500), 300, random_bytes(rng, 120, 26));
    if (i % 3 == 0) a = random_bytes(rng, 500); // nothing shared
    std::string a_from_b = git::encode_delta(b, a);
    std::string b_from_c = git::encode_delta(c, b);
    std::string a_from_c = git::compose_deltas(a_from_b, b_from_c);
    REQUIRE(git::apply_delta(c, a_from_c) == a);
  }
  // Deltas that do not fit together, and malformed ones, are refused.
  CHECK_THROWS_AS(git::compose_deltas(git::encode_delta("abc", "abcd"), git::encode_delta("x", "y")), git::DeltaError);
  CHECK_THROWS_AS(git::apply_delta("abc", std::string("\x03\x02\x90\x05", 4)), git::DeltaError);
  CHECK_THROWS_AS(git::apply_delta("abc", std::string("\x03\x02\x00", 3)), git::DeltaError);
  CHECK_THROWS_AS(git::apply_delta("abcd", git::encode_delta("abc", "abcabc")), git::DeltaError);
}

TEST_CASE("pack writer: a pack of whole objects and deltas is read by libgit2 and by git fsck", "[git][pack]") {
  if (!have_git()) {
    std::cout << "OTM-SKIP: the git CLI is not installed (the test reads the pack with it)\n";
    return;
  }
  testsupport::TempDir tmp("pack");
  fs::path repo = bare_repo(tmp.path() / "r.git");
  std::string v1 = "[\n" + entries(0, 400) + "]\n";
  std::string v2 = "[\n" + entries(0, 200) + entries(700, 5) + entries(200, 200) + "]\n";
  std::string v3 = "[\n" + entries(0, 100) + entries(700, 5) + entries(100, 300) + entries(800, 9) + "]\n";
  git::PackWriter w;
  w.add_object(blob_id(v3), git::PackType::Blob, v3);
  w.add_ref_delta(blob_id(v2), blob_id(v3), git::encode_delta(v3, v2));
  // A delta whose base lies after it in the pack (REF_DELTA allows it).
  w.add_ref_delta(blob_id(v1), blob_id(v2), git::encode_delta(v2, v1));
  w.add_object(blob_id(""), git::PackType::Blob, "");
  std::mt19937 rng(3);
  const std::string noise = random_bytes(rng, 300000); // compresses to more than its size
  w.add_object(blob_id(noise), git::PackType::Blob, noise);
  std::string noted;
  fs::path pack_dir = repo / "objects" / "pack";
  std::string name = w.write(pack_dir, true, [&](const std::string &n) {
    noted = n;
    CHECK(!fs::exists(pack_dir / (n + ".pack"))); // nothing visible yet
  });
  CHECK(name == noted);
  CHECK(fs::exists(pack_dir / (name + ".pack")));
  CHECK(fs::exists(pack_dir / (name + ".idx")));
  for (const auto &e : fs::directory_iterator(pack_dir))
    CHECK(e.path().filename().string().rfind("tmp_", 0) != 0); // no temporary file left

  check_blobs_read_back(repo, {&v1, &v2, &v3, &noise});
  auto verify = shell("git -C " + q(repo) + " verify-pack " + q(pack_dir / (name + ".idx")));
  INFO(verify.out);
  CHECK(verify.rc == 0);

  // otm's reader finds the entries as written.
  git::PackReader reader(pack_dir, name);
  REQUIRE(reader.entries().size() == 5);
  const auto *e2 = reader.find(blob_id(v2));
  REQUIRE(e2);
  CHECK(e2->type == git::PackType::RefDelta);
  const git_oid id3 = blob_id(v3);
  CHECK(git_oid_equal(&*e2->base, &id3));
  CHECK(git::apply_delta(v3, reader.inflate(*e2)) == v2);
  CHECK(reader.inflate(*reader.find(blob_id(v3))) == v3);
}

TEST_CASE("version pack: each version replaces the pack, older versions stay as bounded deltas", "[git][pack]") {
  if (!have_git()) {
    std::cout << "OTM-SKIP: the git CLI is not installed (the test reads the packs with it)\n";
    return;
  }
  testsupport::TempDir tmp("vpack");
  fs::path repo = bare_repo(tmp.path() / "r.git");
  fs::path pack_dir = repo / "objects" / "pack";
  const int depth = 3;
  std::vector<std::string> versions;
  std::string text = entries(0, 300);
  std::optional<git_oid> previous;
  std::uintmax_t whole_size = 0;
  for (int i = 0; i < 12; ++i) {
    // Each version adds entries and changes one, as a batch admission does.
    text.insert(text.size() / (i % 3 + 2), entries(1000 + 10 * i, 4));
    text.replace(text.find("rec-" + std::to_string(i * 7) + "\""), 4, "REC-");
    versions.push_back("[\n" + text + "]\n");
    git_oid id = blob_id(versions.back());
    auto r = git::write_version_pack(repo, {{id, git::PackType::Blob, versions.back(), previous}}, false, {}, depth);
    INFO("version " << i);
    CHECK(r.versions == versions.size());
    CHECK(r.replaced.empty() == (i == 0));
    CHECK((r.rebased > 0) == (i > depth)); // the depth bound reached: re-encoded against the newest
    // One version pack, one note, nothing else.
    std::vector<std::string> packs;
    std::uintmax_t total = 0;
    for (const auto &e : fs::directory_iterator(pack_dir)) {
      packs.push_back(e.path().filename().string());
      total += fs::file_size(e.path());
    }
    CHECK(packs.size() == 2);
    CHECK(fs::exists(pack_dir / (r.written + ".idx")));
    CHECK(fs::exists(git::version_pack_notes(repo) / r.written));
    CHECK(std::distance(fs::directory_iterator(git::version_pack_notes(repo)), fs::directory_iterator()) == 1);
    if (i == 0) whole_size = total;
    // Every version readable by libgit2 and git; chains within the bound.
    for (const auto &v : versions) CHECK(libgit2_read(repo, blob_id(v)) == v);
    auto verify = shell("git -C " + q(repo) + " verify-pack -v " + q(pack_dir / (r.written + ".idx")));
    REQUIRE(verify.rc == 0);
    for (int d = depth + 1; d < 20; ++d)
      CHECK(verify.out.find("chain length = " + std::to_string(d) + ":") == std::string::npos);
    previous = id;
  }
  auto fsck = shell("git -C " + q(repo) + " fsck --full");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  for (const auto &v : versions) {
    auto r = shell("git -C " + q(repo) + " cat-file -p " + hex(blob_id(v)));
    CHECK(r.out == v);
  }
  // Twelve versions cost little more than one: a few hundred bytes each
  // (its delta, its header and its line in the index), where each is
  // about 80 KB and a few kilobytes compressed.
  std::uintmax_t total = 0;
  for (const auto &e : fs::directory_iterator(pack_dir)) total += fs::file_size(e.path());
  CHECK(total < whole_size + 400 * versions.size());

  // A previous version that is in no version pack (a `git gc` since):
  // a new version pack of its own, and the old one stays.
  std::string next = versions.back() + "\n";
  auto r = git::write_version_pack(repo, {{blob_id(next), git::PackType::Blob, next, blob_id("not here")}}, false, {},
                                   depth);
  CHECK(r.replaced.empty());
  CHECK(r.versions == 1);
  CHECK(std::distance(fs::directory_iterator(git::version_pack_notes(repo)), fs::directory_iterator()) == 2);
  for (const auto &v : versions) CHECK(libgit2_read(repo, blob_id(v)) == v);
  CHECK(libgit2_read(repo, blob_id(next)) == next);
}

TEST_CASE("version pack: several chains in one pack, each lengthened only when its object changes", "[git][pack]") {
  if (!have_git()) {
    std::cout << "OTM-SKIP: the git CLI is not installed (the test reads the packs with it)\n";
    return;
  }
  testsupport::TempDir tmp("vpack2");
  fs::path repo = bare_repo(tmp.path() / "r.git");
  fs::path pack_dir = repo / "objects" / "pack";
  const int depth = 4;
  std::string a = entries(0, 200), b = entries(500, 100, " (b)");
  std::optional<git_oid> prev_a, prev_b;
  std::vector<std::string> all;
  for (int i = 0; i < 14; ++i) {
    INFO("push " << i);
    std::vector<git::Version> versions;
    a.insert(a.size() / 2, entries(1000 + i, 1));
    std::string va = "[\n" + a + "]\n";
    all.push_back(va);
    versions.push_back({blob_id(va), git::PackType::Blob, all.back(), prev_a});
    std::string vb;
    if (i % 3 == 0) { // b changes on every third push only
      b.insert(b.size() / 3, entries(2000 + i, 1, " (b)"));
      vb = "{\n" + b + "}\n";
      versions.push_back({blob_id(vb), git::PackType::Blob, vb, prev_b});
    }
    // A seed (an object the remote holds, to head a chain) is written once.
    const std::string c = "a tree the push did not change\n";
    git::Seeds seeds{{blob_id(c)}, git::PackType::Blob, [&](const git_oid &) { return c; }};
    auto r = git::write_version_pack(repo, versions, false, seeds, depth);
    CHECK(r.seeded == (i == 0 ? 1u : 0u));
    CHECK(libgit2_read(repo, blob_id(c)) == c);
    CHECK(r.replaced.empty() == (i == 0));
    CHECK(r.chained == (i == 0 ? 0u : versions.size()));
    if (!vb.empty()) {
      all.push_back(vb);
      prev_b = blob_id(vb);
    }
    prev_a = blob_id(va);
    std::size_t packs = 0;
    for (const auto &e : fs::directory_iterator(pack_dir)) packs += e.path().extension() == ".pack";
    CHECK(packs == 1);
    CHECK(r.versions == all.size() + 1);
    for (const auto &v : all) CHECK(libgit2_read(repo, blob_id(v)) == v);
    auto verify = shell("git -C " + q(repo) + " verify-pack -v " + q(pack_dir / (r.written + ".idx")));
    REQUIRE(verify.rc == 0);
    for (int d = depth + 1; d < 20; ++d)
      CHECK(verify.out.find("chain length = " + std::to_string(d) + ":") == std::string::npos);
  }
  auto fsck = shell("git -C " + q(repo) + " fsck --full --strict");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
}

namespace {

// The zlib level an entry's data was compressed at, from the FLEVEL bits
// of its zlib header (0: fastest, 1: fast, 2: default, 3: best).
int zlib_flevel(const git::PackReader &pack, const git::PackEntry &e) {
  std::string raw = pack.raw(e);
  std::size_t at = e.data_at - e.offset;
  REQUIRE(raw.size() > at + 1);
  return static_cast<unsigned char>(raw[at + 1]) >> 6;
}

// A non-bare repository with one commit of `file` (content `text`).
fs::path work_repo(const fs::path &dir, const std::string &file, const std::string &text) {
  REQUIRE(shell("git init -q -b main " + q(dir)).rc == 0);
  io::write_file_atomic(dir / file, text);
  REQUIRE(shell("git -C " + q(dir) + " add -A && git -C " + q(dir) +
                " -c user.name=t -c user.email=t@example.org commit -q -m first")
              .rc == 0);
  return dir;
}

std::set<std::string> loose_objects(const fs::path &repo_git_dir) {
  std::set<std::string> out;
  for (const auto &d : fs::directory_iterator(repo_git_dir / "objects")) {
    std::string n = d.path().filename().string();
    if (n.size() != 2 || !d.is_directory()) continue;
    for (const auto &f : fs::directory_iterator(d.path())) out.insert(n + f.path().filename().string());
  }
  return out;
}

} // namespace

TEST_CASE("pack writer: a megabyte or more at zlib's fastest level unless git's config says, read back as written",
          "[git][pack]") {
  CHECK(git::compression_level(git::kFastCompressionBytes, std::nullopt) == 1);
  CHECK(git::compression_level(git::kFastCompressionBytes - 1, std::nullopt) == -1);
  CHECK(git::compression_level(10, 9) == 9);
  CHECK(git::compression_level(git::kFastCompressionBytes, 0) == 0);
  CHECK(git::compression_level(git::kFastCompressionBytes, -1) == -1);
  CHECK(git::compression_level(git::kFastCompressionBytes, 42) == 1); // not a level: otm's own choice
  if (!have_git()) {
    std::cout << "OTM-SKIP: the git CLI is not installed (the test reads the pack with it)\n";
    return;
  }
  testsupport::TempDir tmp("fastpack");
  fs::path repo = bare_repo(tmp.path() / "r.git");
  std::string big = "[\n" + entries(0, 12000) + "]\n";
  REQUIRE(big.size() >= git::kFastCompressionBytes);
  std::string small = "[\n" + entries(0, 10) + "]\n";
  git::PackWriter w;
  w.add_object(blob_id(big), git::PackType::Blob, big, git::compression_level(big.size(), std::nullopt));
  w.add_object(blob_id(small), git::PackType::Blob, small, git::compression_level(small.size(), std::nullopt));
  fs::path pack_dir = repo / "objects" / "pack";
  std::string name = w.write(pack_dir, false);
  git::PackReader reader(pack_dir, name);
  CHECK(zlib_flevel(reader, *reader.find(blob_id(big))) == 0);
  CHECK(zlib_flevel(reader, *reader.find(blob_id(small))) == 2);
  check_blobs_read_back(repo, {&big, &small});
}

TEST_CASE("work tree: a commit's new objects are one pack, the big file compressed once and fast, pushed as packed",
          "[git][pack]") {
  if (!have_git()) {
    std::cout << "OTM-SKIP: the git CLI is not installed (the test checks the repositories with it)\n";
    return;
  }
  testsupport::TempDir tmp("commitpack");
  const std::string index_v1 = "{\"records\": [\n" + entries(0, 12000) + "]}\n";
  const std::string index_v2 =
      "{\"records\": [\n" + entries(0, 6000) + entries(20000, 3) + entries(6000, 6000) + "]}\n";
  fs::path dir = work_repo(tmp.path() / "w", "index.json", index_v1);
  fs::path remote = tmp.path() / "r.git";
  REQUIRE(shell("git clone -q --bare " + q(dir) + " " + q(remote) + " && git -C " + q(dir) + " remote add origin " +
                q(remote))
              .rc == 0);
  auto before = loose_objects(dir / ".git");
  io::write_file_atomic(dir / "index.json", index_v2);
  io::write_file_atomic(dir / "records" / "a.json", "{\"id\": \"a\"}\n");
  auto tree = git::WorkTree::discover(dir);
  REQUIRE(tree);
  std::string sha = tree->commit_files({"index.json", "records/a.json"}, "two files\n\nbody", {"t", "t@example.org"});

  // No loose object: the blobs, trees and commit are one pack.
  CHECK(loose_objects(dir / ".git") == before);
  auto head = shell("git -C " + q(dir) + " rev-parse HEAD");
  CHECK(head.out == sha + "\n");
  CHECK(shell("git -C " + q(dir) + " cat-file -p HEAD:index.json").out == index_v2);
  CHECK(shell("git -C " + q(dir) + " cat-file -p HEAD:records/a.json").out == "{\"id\": \"a\"}\n");
  auto fsck = shell("git -C " + q(dir) + " fsck --full --strict");
  INFO(fsck.out);
  CHECK(fsck.rc == 0);
  // The repository's index follows, without a file to hash again.
  CHECK(shell("git -C " + q(dir) + " status --porcelain").out.empty());
  CHECK(shell("git -C " + q(dir) + " reflog -1 --format=%gs").out == "commit: two files\n");
  std::string pack;
  for (const auto &e : fs::directory_iterator(dir / ".git" / "objects" / "pack"))
    if (e.path().extension() == ".idx") pack = e.path().stem().string();
  REQUIRE(!pack.empty());
  git::PackReader reader(dir / ".git" / "objects" / "pack", pack);
  CHECK(reader.entries().size() == 5); // two blobs, two trees, the commit
  git_oid big = blob_id(index_v2);
  REQUIRE(reader.find(big));
  CHECK(zlib_flevel(reader, *reader.find(big)) == 0);

  // The push copies the packed entries: the remote holds them as they are.
  auto pushed = tree->push("origin", "main", shell("git -C " + q(remote) + " rev-parse main").out.substr(0, 40), {},
                           "index.json");
  CHECK(pushed.pushed);
  auto rfsck = shell("git -C " + q(remote) + " fsck --full --strict");
  INFO(rfsck.out);
  CHECK(rfsck.rc == 0);
  CHECK(shell("git -C " + q(remote) + " cat-file -p main:index.json").out == index_v2);
  REQUIRE(shell("git clone -q " + q(remote) + " " + q(tmp.path() / "c")).rc == 0);
  CHECK(io::read_file(tmp.path() / "c" / "index.json") == index_v2);

  // git's pack.compression applies to every object otm packs.
  REQUIRE(shell("git -C " + q(dir) + " config pack.compression 9").rc == 0);
  const std::string index_v3 = "{\"records\": [\n" + entries(0, 12000, " again") + "]}\n";
  io::write_file_atomic(dir / "index.json", index_v3);
  auto again = git::WorkTree::discover(dir);
  REQUIRE(again);
  again->commit_files({"index.json"}, "back", {"t", "t@example.org"});
  bool found = false;
  for (const auto &e : fs::directory_iterator(dir / ".git" / "objects" / "pack")) {
    if (e.path().extension() != ".idx") continue;
    git::PackReader r(dir / ".git" / "objects" / "pack", e.path().stem().string());
    if (const auto *entry = r.find(blob_id(index_v3))) {
      CHECK(zlib_flevel(r, *entry) == 3);
      found = true;
    }
  }
  CHECK(found);
  CHECK(shell("git -C " + q(dir) + " cat-file -p HEAD:index.json").out == index_v3);
  CHECK(shell("git -C " + q(dir) + " status --porcelain").out.empty());
}
