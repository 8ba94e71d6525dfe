#include <catch2/catch.hpp>

#include "admission_fixtures.hpp"

using namespace otm;
using namespace otm::testing;

TEST_CASE("write_file_atomic_new never replaces and leaves no temporary file", "[io]") {
  TempDir tmp;
  auto p = tmp.path / "sub" / "a.json";
  CHECK(io::write_file_atomic_new(p, "first\n"));
  CHECK_FALSE(io::write_file_atomic_new(p, "second\n"));
  CHECK(io::read_file(p) == "first\n");
  io::write_file_atomic(p, "third\n");
  CHECK(io::read_file(p) == "third\n");
  CHECK(io::list_dir(tmp.path / "sub").size() == 1);
  CHECK_NOTHROW(io::fsync_directory(tmp.path / "sub"));
  CHECK_THROWS_AS(io::fsync_directory(tmp.path / "missing"), io::IoError);
}
