#include "packet/changed_lines.hpp"

#include <algorithm>
#include <optional>

#include "code/inert_changes.hpp"
#include "text/utf8.hpp"

namespace otm::packet {

ChangedLines changed_lines(const KernelDiff &diff, unsigned filter) {
  ChangedLines out;
  if (!diff.lexed) return out;
  const auto &lines = diff.lexed->lines;
  std::optional<code::InertChanges> inert;
  if (filter & ChangedLines::Running)
    inert = code::inert_changes(lines, diff.after ? std::optional<std::string_view>(*diff.after) : std::nullopt);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    const bool added = l.role == code::DiffLine::Role::Added;
    if (!added && l.role != code::DiffLine::Role::Removed) continue;
    if (!code::is_executable(l.kind) || (inert && !inert->runs(i))) continue;
    std::string text = text::without_whitespace(l.text.substr(std::min(l.body, l.text.size())));
    if (!text.empty()) (added ? out.added : out.removed).insert(std::move(text));
  }
  if (filter & ChangedLines::NotMoved)
    for (auto it = out.added.begin(); it != out.added.end();)
      it = out.removed.erase(*it) ? out.added.erase(it) : std::next(it);
  return out;
}

bool meets(const ChangedLines &a, const ChangedLines &b) {
  auto any = [](const std::set<std::string> &x, const std::set<std::string> &y) {
    return std::any_of(x.begin(), x.end(), [&](const std::string &s) { return y.count(s) > 0; });
  };
  return any(a.added, b.added) || any(a.removed, b.removed);
}

} // namespace otm::packet
