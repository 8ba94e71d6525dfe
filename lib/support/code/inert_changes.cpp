#include "code/inert_changes.hpp"

#include "code/kernel_parameters.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <set>

#include "code/kernel_parameters.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

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

// A line's text with every version id inside a string literal made one
// (`name="decode_v130"` and `name="decode_v135"` read the same).
std::string without_stamped_versions(const DiffLine &l) {
  static const text::Regex version(R"((?<![A-Za-z0-9])[vV]\d+(?![A-Za-z0-9]))");
  std::string out;
  for (const auto &s : l.spans) {
    const std::size_t begin = std::max(s.begin, l.body);
    if (begin >= s.end) continue; // the diff's own marker
    auto part = l.text.substr(begin, s.end - begin);
    out += s.kind == SpanKind::String ? version.replace(part, "v#") : std::string(part);
  }
  return out;
}

// Calls `fn(removed, added)` for each removed line and the added line that
// replaces it: the k-th lines of a run of removed lines followed by as
// many added ones.
void for_each_replaced_line(const std::vector<DiffLine> &diff,
                            const std::function<void(std::size_t, std::size_t)> &fn) {
  for (std::size_t i = 0; i < diff.size();) {
    if (diff[i].role != DiffLine::Role::Removed) {
      ++i;
      continue;
    }
    std::size_t removed_end = i;
    while (removed_end < diff.size() && diff[removed_end].role == DiffLine::Role::Removed) ++removed_end;
    std::size_t added_end = removed_end;
    while (added_end < diff.size() && diff[added_end].role == DiffLine::Role::Added) ++added_end;
    if (added_end - removed_end == removed_end - i)
      for (std::size_t k = 0; k < removed_end - i; ++k) fn(i + k, removed_end + k);
    i = std::max(added_end, i + 1);
  }
}

// A removed line and the added line that replaces it, differing only in a
// version id inside a string literal (load_inline's build name, a cache
// key): a stamp, which changes what the build is called, not what runs
// (round 13: a final kernel credited with "THREADS 256 -> 128" whose step
// changed only `name="gqa_decode_v135"` and a comment).
void mark_stamp_pairs(const std::vector<DiffLine> &diff, InertChanges &out) {
  for_each_replaced_line(diff, [&](std::size_t r, std::size_t a) {
    if (diff[r].kind != LineKind::Code || diff[a].kind != LineKind::Code) return;
    if (without_stamped_versions(diff[r]) == without_stamped_versions(diff[a])) {
      out.lines[r] = out.lines[a] = InertCode::Why::NotCode;
      out.owner[r].clear(), out.owner[a].clear();
    }
  });
}

// A removed line and the added line that replaces it, differing only in
// the value a launch passes to a JIT kernel parameter the body never reads
// (`VEC=1` -> `VEC=8`, the kernel reading no VEC): it changes nothing that
// runs (kit 42, N11: 128-bit loads credited to a `VEC=8` launch keyword).
// `at`: each added line's 0-based line of the file after the change.
void mark_unread_keyword_pairs(const std::vector<DiffLine> &diff, const std::vector<std::size_t> &at,
                               std::string_view after, InertChanges &out) {
  const auto unread = unread_parameter_texts(after);
  if (unread.empty()) return;
  for_each_replaced_line(diff, [&](std::size_t r, std::size_t a) {
    // The readings above may already find one side inert (the removed
    // `VEC=1` as an assignment of a name the file no longer reads); the
    // other then still reads as a running change.
    if (at[a] == SIZE_MAX || out.lines[r] == InertCode::Why::NotCode || out.lines[a] == InertCode::Why::NotCode) return;
    const std::string removed(diff[r].text.substr(diff[r].body)), added(diff[a].text.substr(diff[a].body));
    for (const auto &u : unread) {
      const auto eq = u.text.find('=');
      if (u.line != at[a] || eq == std::string::npos) continue;
      const auto in_added = added.find(u.text);
      if (in_added == std::string::npos) continue;
      // The removed line's keyword for the same parameter, with its old value.
      const std::string name(text::strip(std::string_view(u.text).substr(0, eq)));
      const text::Regex keyword("(?<![\\w.])" + name + R"(\s*=\s*[^,()\s]+)");
      auto old = keyword.search(removed);
      if (!old) continue;
      std::string a_rest = added, r_rest = removed;
      a_rest.erase(in_added, u.text.size());
      r_rest.erase(old->begin, old->end - old->begin);
      if (a_rest != r_rest) continue;
      out.lines[r] = out.lines[a] = InertCode::Why::UnreadName;
      out.owner[r] = out.owner[a] = name;
    }
  });
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
    // Functions the diff defines on added lines and no removed line defined:
    // Python functions, and CUDA `__device__` helpers, in a .cu file or a
    // load_inline source (round 28, W03: an `ld_nc_v4` helper nothing
    // calls, its asm line read as the change's 128-bit load).
    static const text::Regex def(R"(^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\()");
    static const text::Regex device(
        R"(^\s*(?:template\s*<[^>]*>\s*)?(?:(?:static|inline|__forceinline__|__noinline__|__host__|constexpr)\s+)*)"
        R"(__device__\s+(?:(?:static|inline|__forceinline__|__noinline__|__host__|constexpr|const|unsigned)\s+)*)"
        R"([A-Za-z_][\w:<>]*[\s*&]+([A-Za-z_]\w*)\s*\()");
    std::set<std::string> added, removed;
    for (std::size_t i = 0; i < diff.size(); ++i)
      if (is_change(diff[i])) {
        auto &side = diff[i].role == DiffLine::Role::Added ? added : removed;
        if (auto m = def.search(code[i])) side.emplace((*m)[1]);
        if (auto m = device.search(code[i])) side.emplace((*m)[1]);
      }
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
    std::size_t next = 0;                               // 0-based line of `after` the next new-side line is
    std::vector<std::size_t> at(diff.size(), SIZE_MAX); // an added line's line of `after`
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
          at[i] = next;
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
    // A run of added lines between lines the file repeats can be drawn
    // t lines higher: `@triton.jit` above a new helper and the same line
    // added below it are one alignment of `+helper` above the old kernel's
    // decorator (round 13: a dead helper read as a change to the live
    // kernel). Both describe the same change; the one whose added lines
    // run least is taken.
    for (std::size_t i = 0; i < diff.size();) {
      if (diff[i].role != DiffLine::Role::Added || at[i] == SIZE_MAX) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < diff.size() && diff[end].role == DiffLine::Role::Added && at[end] == at[i] + (end - i)) ++end;
      const std::size_t p = at[i], n = end - i;
      auto running = [&](std::size_t first) {
        std::size_t live = 0;
        for (std::size_t k = 0; k < n; ++k) live += file.lines[first + k] == InertCode::Why::Live ? 1 : 0;
        return live;
      };
      std::size_t best = p, best_live = running(p);
      for (std::size_t t = 1; t <= n && t <= p; ++t) {
        // Sliding up by t: the t lines above the run repeat its last t lines.
        if (file_lines[p - t] != file_lines[p + n - t]) break;
        if (auto live = running(p - t); live < best_live) best = p - t, best_live = live;
      }
      if (best != p)
        for (std::size_t k = 0; k < n; ++k)
          if (diff[i + k].kind == LineKind::Code) {
            out.lines[i + k] = file.lines[best + k];
            out.owner[i + k] = file.owner[best + k];
          }
      i = end;
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
    mark_unread_keyword_pairs(diff, at, *after, out);
    out.unread_names = file.unread_names;
    out.uncalled_functions = file.uncalled_functions;
    out.restated_hints = file.restated_hints;
  }
  mark_stamp_pairs(diff, out);
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
