#include "code/inert_changes.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "text/regex.hpp"

namespace otm::code {

namespace {

bool is_change(const DiffLine &l) { return l.role == DiffLine::Role::Added || l.role == DiffLine::Role::Removed; }

std::string code_of(const DiffLine &l) {
  std::string out;
  for (const auto &s : l.spans)
    if (s.kind == SpanKind::Code) out.append(l.text.substr(s.begin, s.end - s.begin)), out += ' ';
  return out;
}

// Whether `code` holds `name` as a whole identifier (not an attribute).
bool reads_name(std::string_view code, std::string_view name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto pos = code.find(name); pos != std::string_view::npos; pos = code.find(name, pos + 1)) {
    bool starts = pos == 0 || (!ident(code[pos - 1]) && code[pos - 1] != '.');
    bool ends = pos + name.size() >= code.size() || !ident(code[pos + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The new-side first line of a hunk header "@@ -a,b +c,d @@", 1-based.
std::optional<std::size_t> new_start(std::string_view header) {
  auto plus = header.find(" +");
  if (plus == std::string_view::npos) return std::nullopt;
  std::size_t v = 0, i = plus + 2;
  if (i >= header.size() || header[i] < '0' || header[i] > '9') return std::nullopt;
  while (i < header.size() && header[i] >= '0' && header[i] <= '9')
    v = v * 10 + static_cast<std::size_t>(header[i++] - '0');
  return v;
}

Language language_of(const std::vector<DiffLine> &diff) {
  static const text::Regex path(R"(^\+\+\+ (?:b/)?(\S+))");
  for (const auto &l : diff)
    if (l.role == DiffLine::Role::Header)
      if (auto m = path.search(l.text)) return language_of_path((*m)[1]);
  return Language::Python;
}

} // namespace

bool InertChanges::runs(std::size_t i) const { return i < lines.size() && lines[i] == InertCode::Why::Live; }

InertChanges inert_changes(const std::vector<DiffLine> &diff, std::optional<std::string_view> after) {
  InertChanges out;
  out.lines.assign(diff.size(), InertCode::Why::Live);
  out.owner.assign(diff.size(), {});
  std::vector<std::string> code(diff.size());
  for (std::size_t i = 0; i < diff.size(); ++i)
    if (is_change(diff[i])) {
      code[i] = code_of(diff[i]);
      if (diff[i].kind != LineKind::Code) out.lines[i] = InertCode::Why::NotCode;
    }
  if (after) {
    // Functions the diff defines on added lines and no removed line defined.
    static const text::Regex def(R"(^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\()");
    std::set<std::string> added, removed;
    for (std::size_t i = 0; i < diff.size(); ++i)
      if (is_change(diff[i]))
        if (auto m = def.search(code[i])) (diff[i].role == DiffLine::Role::Added ? added : removed).emplace((*m)[1]);
    for (const auto &r : removed) added.erase(r);
    auto language = language_of(diff);
    auto file = find_inert_code(*after, language, added);
    std::vector<std::string_view> file_lines;
    for (std::size_t pos = 0; pos < after->size();) {
      auto nl = after->find('\n', pos);
      file_lines.push_back(after->substr(pos, (nl == std::string_view::npos ? after->size() : nl) - pos));
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
    // '+' and ' ' lines walk the file after the change.
    std::size_t next = 0; // 0-based line of `after` the next new-side line is
    for (std::size_t i = 0; i < diff.size(); ++i) {
      const auto &l = diff[i];
      if (l.role == DiffLine::Role::HunkHeader) {
        auto start = new_start(l.text);
        next = start && *start > 0 ? *start - 1 : 0;
        continue;
      }
      if (l.role == DiffLine::Role::Context) {
        ++next;
        continue;
      }
      if (l.role == DiffLine::Role::Added) {
        // The whole file's reading decides (it knows where a docstring
        // starts, which a hunk can only guess) when the line is the file's.
        if (next < file.lines.size() && next < file_lines.size() && file_lines[next] == l.text.substr(l.body)) {
          out.lines[i] = file.lines[next];
          out.owner[i] = file.owner[next];
        }
        ++next;
        continue;
      }
      if (l.role == DiffLine::Role::Removed && out.lines[i] == InertCode::Why::Live) {
        // A removed assignment of names the file no longer reads.
        auto names = names_defined_by(code[i], true);
        bool read = std::any_of(names.begin(), names.end(),
                                [&](const std::string &nm) { return nm == "_" || file.live_names.count(nm); });
        if (!names.empty() && !read) {
          out.lines[i] = InertCode::Why::UnreadName;
          out.owner[i] = names.front();
        }
      }
    }
    // ...unless a removed line that ran read it: `m = tl.max(x)` dropped
    // with the `tl.exp(x - m)` that used it is part of a running change.
    // (To a fixpoint: a reader that is itself inert does not count.)
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < diff.size(); ++i) {
        if (diff[i].role != DiffLine::Role::Removed || out.lines[i] != InertCode::Why::UnreadName) continue;
        for (std::size_t k = 0; k < diff.size() && out.lines[i] != InertCode::Why::Live; ++k)
          if (k != i && diff[k].role == DiffLine::Role::Removed && out.lines[k] == InertCode::Why::Live &&
              reads_name(code[k], out.owner[i])) {
            out.lines[i] = InertCode::Why::Live;
            out.owner[i].clear();
            changed = true;
          }
      }
    }
    out.unread_names = file.unread_names;
    out.uncalled_functions = file.uncalled_functions;
    out.restated_hints = file.restated_hints;
  }
  for (std::size_t i = 0; i < diff.size(); ++i) {
    if (!is_change(diff[i])) continue;
    if (out.lines[i] == InertCode::Why::Live) ++out.running;
    if (out.lines[i] != InertCode::Why::Live && out.lines[i] != InertCode::Why::NotCode) ++out.inert_code;
  }
  // Only what some changed line is inert for is worth naming.
  auto named_by_a_change = [&](const std::string &nm) {
    for (std::size_t i = 0; i < diff.size(); ++i)
      if (is_change(diff[i]) && out.owner[i] == nm) return true;
    return false;
  };
  std::erase_if(out.unread_names, [&](const std::string &nm) { return !named_by_a_change(nm); });
  std::erase_if(out.uncalled_functions, [&](const std::string &nm) { return !named_by_a_change(nm); });
  std::erase_if(out.restated_hints, [&](const std::string &nm) { return !named_by_a_change(nm); });
  return out;
}

} // namespace otm::code
