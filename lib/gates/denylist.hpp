// The private denylist (README §4): a UTF-8 file of substrings, one per line;
// lines trimmed, blanks skipped, a line whose first character is `#` is a
// comment. Compiled into one literal alternation.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "text/regex.hpp"

namespace otm::gates {

std::vector<std::string> denylist_terms(const std::string &file_text);
// Null when there are no terms. A path that is not a regular file is
// ignored, as the reference does (returns null).
std::shared_ptr<const text::Regex> load_denylist(const std::filesystem::path &path);
std::shared_ptr<const text::Regex> denylist_regex(const std::vector<std::string> &terms);

} // namespace otm::gates
