// The gates' view of the private denylist: the compiled alternation of
// scrub::Denylist (lib/rules/scrub/denylist.hpp), the one reader of the file, so
// the scrubber and every gate agree on what a term is and how it matches.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "text/regex.hpp"

namespace otm::gates {

// Null when there are no terms. A path that cannot be read throws
// io::IoError naming it (scrub::Denylist::from_setting).
std::shared_ptr<const text::Regex> load_denylist(const std::filesystem::path &path);
std::shared_ptr<const text::Regex> denylist_regex(const std::vector<std::string> &terms);

} // namespace otm::gates
