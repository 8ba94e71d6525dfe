// Test support for bench/tracegen: a generated story replayed commit by
// commit, so a test can read kernel.py and every file as each version's
// commits left them, and the manifest's ground truth can be checked against
// the code itself (which lines changed, which of them are code).
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "tracegen/story.hpp"

namespace otm::testing {

struct VersionCommits {
  std::vector<std::string> kernels;         // kernel.py after each of the version's commits
  std::map<std::string, std::string> files; // every file its commits wrote, last content
};

// Versions by name ("v12"), from the subjects' "v<N>:" prefix; commits
// without one (the import, notes) only carry kernel.py along.
inline std::map<std::string, VersionCommits> replay(const tracegen::Story &story) {
  std::map<std::string, VersionCommits> out;
  std::string kernel;
  for (const auto &c : story.commits) {
    for (const auto &f : c.files)
      if (f.path == "kernel.py" && f.content) kernel = *f.content;
    auto colon = c.message.find(':');
    if (c.message.empty() || c.message[0] != 'v' || colon == std::string::npos) continue;
    std::string version = c.message.substr(0, colon);
    if (version.find_first_not_of("0123456789", 1) != std::string::npos) continue;
    auto &v = out[version];
    v.kernels.push_back(kernel);
    for (const auto &f : c.files)
      if (f.content) v.files[f.path] = *f.content;
  }
  return out;
}

inline std::string trimmed(const std::string &s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

inline std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

// kernel.py's code lines: not the module docstring, not a one-line
// docstring, not a `#` or `//` comment (the preprocessor's `#define`,
// `#include` and `#pragma` are code), not blank.
inline std::vector<std::string> code_lines(const std::string &kernel) {
  std::vector<std::string> out;
  auto lines = lines_of(kernel);
  std::size_t i = 0;
  if (!lines.empty() && lines[0].starts_with("\"\"\"")) {
    while (i < lines.size() && trimmed(lines[i]) != "\"\"\"") ++i;
    ++i;
  }
  for (; i < lines.size(); ++i) {
    std::string t = trimmed(lines[i]);
    bool preprocessor = t.starts_with("#define") || t.starts_with("#include") || t.starts_with("#pragma");
    if (t.empty() || t.starts_with("//") || t.starts_with("\"\"\"") || (t.starts_with("#") && !preprocessor)) continue;
    out.push_back(lines[i]);
  }
  return out;
}

// The code lines one kernel has and the other has not (counting repeats).
inline std::vector<std::string> changed_code_lines(const std::string &before, const std::string &after) {
  auto a = code_lines(before), b = code_lines(after);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::string> out;
  std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

} // namespace otm::testing
