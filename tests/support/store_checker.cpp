#include "store_checker.hpp"

#include "scratch.hpp"

namespace otm::testing {

namespace {
std::filesystem::path checker_path() {
  auto dir = real_store_dir();
  return dir ? *dir / "tools" / "check_kernel_wiki.py" : std::filesystem::path();
}
} // namespace

std::optional<std::filesystem::path> store_checker() {
  auto p = checker_path();
  std::error_code ec;
  if (p.empty() || !std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  // Without jsonschema the checker reports its schema gate as skipped and
  // still exits 0: a check that cannot fail.
  static const bool usable = testsupport::sh("python3 -c 'import jsonschema' >/dev/null 2>&1") == 0;
  if (!usable) return std::nullopt;
  return p;
}

std::string store_checker_missing() {
  auto p = checker_path();
  std::error_code ec;
  if (p.empty() || !std::filesystem::is_regular_file(p, ec))
    return "the store's own checker is not here (" + (p.empty() ? real_store_missing() : p.string() + " missing") + ")";
  return "the store's own checker needs python3 with jsonschema (Debian's python3-jsonschema; scripts/bootstrap "
         "--test installs it)";
}

testsupport::RunResult run_store_checker(const std::filesystem::path &checker,
                                         const std::filesystem::path &store_root) {
  testsupport::TempDir tmp("store-checker");
  return testsupport::run_capturing("python3 " + testsupport::shell_quote(checker.string()) + " --out " +
                                        testsupport::shell_quote(store_root.string()) + " --full",
                                    tmp.path());
}

} // namespace otm::testing
