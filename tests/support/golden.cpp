#include "golden.hpp"

#include <cstdlib>
#include <vector>

#include "io/file.hpp"
#include "test_paths.hpp"

namespace otm::testsupport {

namespace fs = std::filesystem;

bool update_golden() {
  const char *v = std::getenv("OTM_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

fs::path golden_path(const std::string &rel) {
  return fs::path(otm::testing::source_dir()) / "testdata" / "golden" / rel;
}

std::vector<std::string> golden_lines(const std::string &rel) {
  std::vector<std::string> lines;
  const std::string text = io::read_file(golden_path(rel));
  for (std::size_t pos = 0, nl; pos < text.size(); pos = nl + 1) {
    nl = text.find('\n', pos);
    lines.push_back(text.substr(pos, nl - pos));
  }
  return lines;
}

namespace {

std::vector<std::string> lines_of(const std::string &s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < s.size()) {
    auto nl = s.find('\n', at);
    if (nl == std::string::npos) {
      out.push_back(s.substr(at) + "\\ no newline at end");
      break;
    }
    out.push_back(s.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

} // namespace

std::string first_differences(const std::string &expected, const std::string &actual, std::size_t max_lines) {
  if (expected == actual) return "";
  const auto want = lines_of(expected), got = lines_of(actual);
  // The common prefix and suffix; what lies between is the first change.
  std::size_t head = 0;
  while (head < want.size() && head < got.size() && want[head] == got[head]) ++head;
  std::size_t tail = 0;
  while (tail < want.size() - head && tail < got.size() - head &&
         want[want.size() - 1 - tail] == got[got.size() - 1 - tail])
    ++tail;
  const std::size_t context = 2;
  const std::size_t from = head > context ? head - context : 0;
  std::string out = "@@ line " + std::to_string(head + 1) + " (expected " + std::to_string(want.size()) +
                    " lines, got " + std::to_string(got.size()) + ") @@\n";
  for (std::size_t i = from; i < head; ++i) out += " " + want[i] + "\n";
  std::size_t shown = 0;
  for (std::size_t i = head; i < want.size() - tail && shown < max_lines; ++i, ++shown) out += "-" + want[i] + "\n";
  shown = 0;
  for (std::size_t i = head; i < got.size() - tail && shown < max_lines; ++i, ++shown) out += "+" + got[i] + "\n";
  if (want.size() - tail - head > max_lines || got.size() - tail - head > max_lines) out += "...\n";
  const std::size_t after = want.size() - tail;
  for (std::size_t i = after; i < want.size() && i < after + context; ++i) out += " " + want[i] + "\n";
  return out;
}

std::string check_golden(const std::string &rel, const std::string &actual) {
  fs::path p = golden_path(rel);
  if (update_golden()) {
    io::write_file_atomic(p, actual);
    return "";
  }
  if (!fs::exists(p)) return "golden file " + p.string() + " is missing (regenerate with OTM_UPDATE_GOLDEN=1)";
  const std::string expected = io::read_file(p);
  if (expected != actual)
    return "output differs from " + p.string() + " (review, then regenerate with OTM_UPDATE_GOLDEN=1):\n" +
           first_differences(expected, actual);
  return "";
}

} // namespace otm::testsupport
