#include "gates/denylist.hpp"

#include "scrub/denylist.hpp"

namespace otm::gates {
namespace {
// Shares ownership of the Denylist while exposing its regex.
std::shared_ptr<const text::Regex> regex_of(scrub::Denylist d) {
  if (d.empty()) return nullptr;
  auto owner = std::make_shared<const scrub::Denylist>(std::move(d));
  return std::shared_ptr<const text::Regex>(owner, owner->regex());
}
} // namespace

std::shared_ptr<const text::Regex> denylist_regex(const std::vector<std::string> &terms) {
  return regex_of(scrub::Denylist::from_terms(terms));
}

std::shared_ptr<const text::Regex> load_denylist(const std::filesystem::path &path) {
  return regex_of(scrub::Denylist::from_setting(path.string()));
}

} // namespace otm::gates
