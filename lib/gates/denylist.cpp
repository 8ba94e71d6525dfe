#include "gates/denylist.hpp"

#include "io/file.hpp"
#include "text/utf8.hpp"

namespace otm::gates {

std::vector<std::string> denylist_terms(const std::string &file_text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= file_text.size()) {
    auto nl = file_text.find('\n', pos);
    std::string_view line(file_text.data() + pos, (nl == std::string::npos ? file_text.size() : nl) - pos);
    if (line.empty() || line[0] != '#') {
      auto t = text::strip(line);
      if (!t.empty()) out.emplace_back(t);
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

std::shared_ptr<const text::Regex> denylist_regex(const std::vector<std::string> &terms) {
  if (terms.empty()) return nullptr;
  std::string pattern;
  for (const auto &t : terms) {
    if (!pattern.empty()) pattern += "|";
    // \Q...\E quotes the term; a literal \E inside is split out.
    std::string quoted;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t.compare(i, 2, "\\E") == 0) {
        quoted += "\\E\\\\E\\Q";
        ++i;
      } else {
        quoted += t[i];
      }
    }
    pattern += "\\Q" + quoted + "\\E";
  }
  return std::make_shared<const text::Regex>(pattern);
}

std::shared_ptr<const text::Regex> load_denylist(const std::filesystem::path &path) {
  if (!io::is_regular_file(path)) return nullptr;
  return denylist_regex(denylist_terms(io::read_file(path)));
}

} // namespace otm::gates
