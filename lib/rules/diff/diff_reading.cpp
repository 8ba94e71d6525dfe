#include "diff/diff_reading.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "code/identifiers.hpp"
#include "code/inert_changes.hpp"
#include "scrub/scrubber.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::diff {

namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string code_text(const code::DiffLine &l) {
  std::string out;
  for (const auto &s : l.spans)
    if (s.kind == code::SpanKind::Code || s.kind == code::SpanKind::String)
      out += l.text.substr(s.begin, s.end - s.begin);
  return out;
}

std::size_t indent_of(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

bool is_change(const code::DiffLine &l) {
  return l.role == code::DiffLine::Role::Added || l.role == code::DiffLine::Role::Removed;
}

// Words too common in prose, or Python keywords, to say which hunk a change
// text is about.
bool is_stopword(std::string_view lower) {
  static const std::set<std::string, std::less<>> words = {
      "with",    "from",    "into",   "onto",     "that",   "this",  "these",  "those",  "each",    "than",   "then",
      "instead", "over",    "only",   "when",     "also",   "more",  "less",   "fewer",  "same",    "after",  "before",
      "which",   "their",   "there",  "every",    "while",  "where", "does",   "done",   "make",    "made",   "uses",
      "used",    "using",   "keep",   "keeps",    "kept",   "back",  "none",   "true",   "false",   "pass",   "else",
      "elif",    "return",  "import", "class",    "lambda", "yield", "assert", "global", "async",   "await",  "raise",
      "except",  "finally", "break",  "continue", "step",   "steps", "about",  "under",  "between", "without"};
  return words.count(lower) != 0;
}

struct Token {
  std::size_t begin, end;
};

// Dotted names and numbers (`gl.BlockedLayout`, `0.5`) as one token, any
// other character but white space as a token of its own.
std::vector<Token> tokens_of(std::string_view s) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    if (is_ident(s[i]) || s[i] == '.')
      while (j < s.size() && (is_ident(s[j]) || s[j] == '.')) ++j;
    out.push_back({i, j});
    i = j;
  }
  return out;
}

// The part of `code` (tokens `own`) that differs from `other` (tokens
// `theirs`), after the name that owns it: the name just before an opening
// `(`, `[`, `{`, `=` or `:` run that the part follows, or just before the
// part when it starts with a literal.
struct ChangedPart {
  std::string text, owner;
};
ChangedPart changed_part(std::string_view code, const std::vector<Token> &own, std::string_view other,
                         const std::vector<Token> &theirs) {
  auto text = [](std::string_view s, Token t) { return s.substr(t.begin, t.end - t.begin); };
  std::size_t n = std::min(own.size(), theirs.size()), prefix = 0, suffix = 0;
  while (prefix < n && text(code, own[prefix]) == text(other, theirs[prefix])) ++prefix;
  while (suffix < n - prefix &&
         text(code, own[own.size() - 1 - suffix]) == text(other, theirs[theirs.size() - 1 - suffix]))
    ++suffix;
  std::string out;
  std::size_t k = prefix;
  bool opened = false;
  while (k > 0 && text(code, own[k - 1]).find_first_not_of("([{=:") == std::string_view::npos) --k, opened = true;
  // A value right after a name (`#define UNROLL 2`) is that name's too.
  bool value = prefix < own.size() - suffix && (std::isdigit(static_cast<unsigned char>(code[own[prefix].begin])) ||
                                                code[own[prefix].begin] == '"' || code[own[prefix].begin] == '\'');
  if ((opened || value) && k > 0 && is_ident(code[own[k - 1].begin])) out = std::string(text(code, own[k - 1]));
  // Otherwise an argument's change is the call's: `tl.multiple_of(offs, 2)`
  // -> `(offs, 4)` changes multiple_of (the innermost call still open
  // before the changed part).
  if (out.empty()) {
    int depth = 0;
    for (std::size_t j = prefix; j > 0; --j) {
      auto t = text(code, own[j - 1]);
      if (t == ")" || t == "]") ++depth;
      if (t == "(" || t == "[") {
        if (depth == 0) {
          if (j > 1 && is_ident(code[own[j - 2].begin])) out = std::string(text(code, own[j - 2]));
          break;
        }
        --depth;
      }
    }
  }
  std::string owner = out;
  if (prefix < own.size() - suffix) {
    if (!out.empty()) out += ' ';
    out += code.substr(own[prefix].begin, own[own.size() - 1 - suffix].end - own[prefix].begin);
  }
  return {out, owner};
}

// The name a line defines: `#define NAME`, or the target of an assignment
// at its start after declaration words (`constexpr int NAME =`,
// `NAME: tl.constexpr =`, `self.NAME =`); empty otherwise.
std::string defined_name(std::string_view code) {
  static const text::Regex define(R"(^\s*#\s*define\s+([A-Za-z_]\w*))");
  static const text::Regex assign(
      R"(^\s*(?:(?:[A-Za-z_][\w:<>]*[\s*&]+)*?)([A-Za-z_][\w.]*)\s*(?::[^=]*)?(?:\[[^\]]*\])?\s*=(?!=))");
  if (auto m = define.search(code)) return std::string((*m)[1]);
  if (auto m = assign.search(code)) return std::string((*m)[1]);
  return {};
}

// Each running line's `changed` part: a run of removed lines and the run of
// added lines right after it are paired line by line (the i-th with the
// i-th); an unpaired line changes all of itself.
void narrow_to_changed_parts(const std::vector<code::DiffLine> &lexed, const std::vector<std::string> &code,
                             DiffReading &r) {
  std::vector<std::size_t> partner(lexed.size(), lexed.size());
  for (std::size_t i = 0; i < lexed.size();) {
    if (lexed[i].role != code::DiffLine::Role::Removed) {
      ++i;
      continue;
    }
    std::size_t removed_end = i;
    while (removed_end < lexed.size() && lexed[removed_end].role == code::DiffLine::Role::Removed) ++removed_end;
    std::size_t added_end = removed_end;
    while (added_end < lexed.size() && lexed[added_end].role == code::DiffLine::Role::Added) ++added_end;
    for (std::size_t k = 0; k < removed_end - i && k < added_end - removed_end; ++k) {
      partner[i + k] = removed_end + k;
      partner[removed_end + k] = i + k;
    }
    i = added_end;
  }
  for (auto &h : r.hunks)
    for (auto &c : h.running) {
      if (std::size_t other = partner[c.line]; other < lexed.size()) {
        auto part = changed_part(code[c.line], tokens_of(code[c.line]), code[other], tokens_of(code[other]));
        c.changed = std::move(part.text);
        c.owner = std::move(part.owner);
      }
      c.defines = defined_name(code[c.line]);
    }
}

// Each running line's `feeds`: the later lines of its hunk on its side
// (context, or its own role) that read a name its `for` target binds. An
// assignment's value is left out: its name may be read on a path that does
// not run (`cfg = CONFIG if ... else {"BLOCK_D": 128}`).
void mark_what_lines_feed(const std::vector<code::DiffLine> &lexed, const std::vector<std::string> &code,
                          DiffReading &r) {
  static const text::Regex for_targets(R"(^\s*(?:async\s+)?for\s+(.+?)\s+in\b)");
  for (auto &h : r.hunks)
    for (auto &c : h.running) {
      auto m = for_targets.search(code[c.line]);
      if (!m) continue;
      const std::string targets((*m)[1]);
      const auto other = c.added ? code::DiffLine::Role::Removed : code::DiffLine::Role::Added;
      // The other side loops over the same targets: the iterable changed,
      // not the loop (a new `for tile in ...` feeds what it wraps, and
      // changes none of it; kit 28, Q24).
      bool same_loop = false;
      for (std::size_t j = h.body_begin; j < h.body_end && j < lexed.size(); ++j)
        if (lexed[j].role == other)
          if (auto o = for_targets.search(code[j]); o && (*o)[1] == targets) same_loop = true;
      if (!same_loop) continue;
      std::vector<std::string> bound;
      for (const auto &id : code::identifier_spans(targets))
        bound.push_back(targets.substr(id.begin, id.end - id.begin));
      for (std::size_t j = c.line + 1; j < h.body_end && j < lexed.size(); ++j) {
        if (lexed[j].role == other || lexed[j].role == code::DiffLine::Role::Marker) continue;
        for (const auto &name : bound)
          if (holds_name(code[j], name)) {
            c.feeds += code[j] + "\n";
            break;
          }
      }
    }
}

// Each running line's `moved`: its code with whitespace taken out is also
// on the other side of the diff (one there per line here).
void mark_moved_lines(const std::vector<std::string> &code, DiffReading &r) {
  auto squeezed = [&](std::size_t line) { return text::without_whitespace(code[line]); };
  std::map<std::string, std::size_t> removed, added;
  for (const auto &h : r.hunks)
    for (const auto &c : h.running)
      if (auto key = squeezed(c.line); !key.empty()) ++(c.added ? added : removed)[key];
  // As many lines of each side move as the other side holds.
  std::map<std::string, std::size_t> marked_removed, marked_added;
  for (auto &h : r.hunks)
    for (auto &c : h.running) {
      auto key = squeezed(c.line);
      if (key.empty()) continue;
      auto pairs = std::min(removed[key], added[key]);
      auto &marked = (c.added ? marked_added : marked_removed)[key];
      if (marked < pairs) c.moved = true, ++marked;
    }
}

} // namespace

std::size_t HunkReading::running_lines() const {
  return static_cast<std::size_t>(std::count_if(running.begin(), running.end(), [](const auto &c) { return !c.dead; }));
}

std::size_t DiffReading::running_lines() const {
  std::size_t n = 0;
  for (const auto &h : hunks) n += h.running_lines();
  return n;
}

DiffReading read_diff(std::string_view diff, std::optional<std::string_view> after) {
  static const text::Regex def(R"(^(\s*)(?:async\s+)?def\s+(\w+)\s*\()");
  DiffReading r;
  auto lexed = code::lex_diff(diff, after);
  r.lines.reserve(lexed.size());
  for (const auto &l : lexed) {
    r.lines.push_back(l.text);
    bool comment = (l.role == code::DiffLine::Role::Context || is_change(l)) && l.kind == code::LineKind::Comment;
    // A context line is there for orientation: one whose trailing comment
    // the scrubber rewrote ("# an earlier step: ...") orients no one.
    bool context = l.role == code::DiffLine::Role::Context;
    bool quotes = l.text.find(R"(""")") != std::string_view::npos || l.text.find("'''") != std::string_view::npos;
    r.scrubbed_comment.push_back((comment || context) && !quotes &&
                                 scrub::holds_replacement_phrase(l.text.substr(l.body)));
  }
  std::vector<std::string> code(lexed.size());
  for (std::size_t i = 0; i < lexed.size(); ++i) code[i] = code_text(lexed[i]);

  // Functions the diff adds (a `+def` line, its decorators and its more
  // deeply indented added body) that no other line names.
  std::vector<bool> dead(lexed.size(), false);
  std::set<std::string> defined_before;
  for (std::size_t i = 0; i < lexed.size(); ++i)
    if (lexed[i].role == code::DiffLine::Role::Removed)
      if (auto m = def.match(code[i])) defined_before.insert(std::string((*m)[2]));
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    const auto &l = lexed[i];
    if (l.role != code::DiffLine::Role::Added || l.kind != code::LineKind::Code) continue;
    auto m = def.match(code[i]);
    if (!m) continue;
    std::string name((*m)[2]);
    if (defined_before.count(name)) continue;
    std::size_t indent = (*m)[1].size(), begin = i, end = i + 1;
    while (begin > 0 && lexed[begin - 1].role == code::DiffLine::Role::Added &&
           text::strip(code[begin - 1]).starts_with("@"))
      --begin;
    for (std::size_t k = i + 1; k < lexed.size() && lexed[k].role == code::DiffLine::Role::Added; ++k) {
      auto body = lexed[k].text.substr(lexed[k].body);
      if (text::strip(body).empty()) continue;
      if (indent_of(body) <= indent) break;
      end = k + 1;
    }
    bool referenced = false;
    for (std::size_t k = 0; k < lexed.size() && !referenced; ++k)
      if ((k < begin || k >= end) && lexed[k].role != code::DiffLine::Role::Header && holds_name(code[k], name))
        referenced = true;
    if (referenced) continue;
    r.dead_definitions.push_back(name);
    for (std::size_t k = begin; k < end; ++k) dead[k] = true;
  }

  // Judged against the whole file after the change: assignments nothing
  // reads, new functions nothing calls, and what the file's own lexing
  // (not a hunk's guess) calls a docstring.
  if (after) {
    auto inert = code::inert_changes(lexed, after);
    for (std::size_t i = 0; i < lexed.size(); ++i)
      if (is_change(lexed[i]) && !inert.runs(i)) dead[i] = true;
    r.unread_names = inert.unread_names;
    r.restated_hints = inert.restated_hints;
    for (const auto &f : inert.uncalled_functions)
      if (std::find(r.dead_definitions.begin(), r.dead_definitions.end(), f) == r.dead_definitions.end())
        r.dead_definitions.push_back(f);
  }
  // A changed line that runs for nothing and carries a rewritten comment
  // (`_TUNE_ID = 608064  # an earlier step: ...`) is noise in a snippet too.
  for (std::size_t i = 0; i < lexed.size(); ++i)
    if (dead[i] && scrub::holds_replacement_phrase(lexed[i].text.substr(lexed[i].body))) r.scrubbed_comment[i] = true;

  for (std::size_t i = 0; i < lexed.size(); ++i) {
    const auto &l = lexed[i];
    if (l.role == code::DiffLine::Role::HunkHeader) {
      if (!r.hunks.empty() && r.hunks.back().body_end == 0) r.hunks.back().body_end = i;
      HunkReading h;
      h.header = i;
      h.body_begin = i + 1;
      r.hunks.push_back(std::move(h));
      continue;
    }
    if (r.hunks.empty() || r.hunks.back().body_end != 0) continue;
    auto &h = r.hunks.back();
    if (l.role == code::DiffLine::Role::Header) { // the next file's headers end the hunk
      h.body_end = i;
      continue;
    }
    if (!is_change(l)) continue;
    if (h.changed++ == 0) h.first_change = i;
    if (code::is_executable(l.kind))
      h.running.push_back({i, code[i], code[i], {}, {}, {}, l.role == code::DiffLine::Role::Added, dead[i]});
  }
  if (!r.hunks.empty() && r.hunks.back().body_end == 0) r.hunks.back().body_end = lexed.size();
  narrow_to_changed_parts(lexed, code, r);
  mark_what_lines_feed(lexed, code, r);
  mark_moved_lines(code, r);
  return r;
}

std::vector<ChangeName> names_of(std::string_view change_text) {
  static const text::Regex token(R"(\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)");
  std::vector<ChangeName> out;
  std::set<std::string> seen;
  for (const auto &m : token.find_all(change_text)) {
    std::string t(m[0]);
    std::size_t upper = 0;
    bool digit = false, inner_upper = false;
    for (std::size_t i = 0; i < t.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(t[i]);
      if (std::isupper(c)) {
        ++upper;
        if (i > 0 && std::islower(static_cast<unsigned char>(t[i - 1]))) inner_upper = true;
      }
      if (std::isdigit(c)) digit = true;
    }
    bool strong =
        t.find('_') != std::string::npos || t.find('.') != std::string::npos || digit || upper >= 2 || inner_upper;
    std::string lower = text::to_lower(t);
    if (!strong && (t.size() < 4 || is_stopword(lower))) continue;
    if (!seen.insert(strong ? t : lower).second) continue;
    out.push_back({strong ? t : lower, strong});
  }
  return out;
}

bool holds_name(std::string_view code, std::string_view name) {
  if (name.empty()) return false;
  bool dotted = name.find('.') != std::string_view::npos;
  bool exact =
      dotted || name.find('_') != std::string_view::npos ||
      std::any_of(name.begin(), name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }) ||
      std::any_of(name.begin(), name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  std::string hay = exact ? std::string(code) : text::to_lower(code);
  std::string needle = exact ? std::string(name) : text::to_lower(name);
  for (std::size_t pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1)) {
    bool before_ok = pos == 0 || needle[0] == '.' || !is_ident(hay[pos - 1]);
    std::size_t end = pos + needle.size();
    bool after_ok = end >= hay.size() || !is_ident(hay[end]);
    if (before_ok && after_ok) return true;
  }
  return false;
}

std::vector<ChangeName> named_in(const DiffReading &diff, std::string_view change_text) {
  std::vector<ChangeName> out;
  for (auto &n : names_of(change_text)) {
    bool found = false;
    for (const auto &h : diff.hunks)
      for (const auto &c : h.running)
        if (!c.dead && holds_name(c.code, n.text)) found = true;
    if (found) out.push_back(std::move(n));
  }
  return out;
}

namespace {
// `NAME=` / `NAME =` / `NAME:` (a keyword, an assignment, an annotated
// parameter) somewhere in `part`.
bool assigns_name(std::string_view part, std::string_view name) {
  for (std::size_t pos = part.find(name); pos != std::string_view::npos; pos = part.find(name, pos + 1)) {
    if (pos > 0 && (is_ident(part[pos - 1]) || part[pos - 1] == '.')) continue;
    std::size_t end = pos + name.size();
    if (end < part.size() && is_ident(part[end])) continue;
    while (end < part.size() && part[end] == ' ') ++end;
    if (end < part.size() &&
        (part[end] == ':' || (part[end] == '=' && (end + 1 == part.size() || part[end + 1] != '='))))
      return true;
  }
  return false;
}

// The value `code` binds `name` to as a keyword (`BLOCK_H=BLOCK_H,` ->
// "BLOCK_H"), up to the next top-level `,` or `)`; nullopt when `name` is
// not bound with `=` there.
std::optional<std::string> keyword_value(std::string_view code, std::string_view name) {
  for (std::size_t pos = code.find(name); pos != std::string_view::npos; pos = code.find(name, pos + 1)) {
    if (pos > 0 && (is_ident(code[pos - 1]) || code[pos - 1] == '.')) continue;
    std::size_t end = pos + name.size();
    if (end < code.size() && is_ident(code[end])) continue;
    while (end < code.size() && code[end] == ' ') ++end;
    if (end >= code.size() || code[end] != '=' || (end + 1 < code.size() && code[end + 1] == '=')) continue;
    std::size_t v = end + 1, e = v;
    int depth = 0;
    for (; e < code.size(); ++e) {
      char ch = code[e];
      if (ch == '(' || ch == '[' || ch == '{') ++depth;
      if ((ch == ')' || ch == ']' || ch == '}') && depth-- == 0) break;
      if (ch == ',' && depth == 0) break;
    }
    return std::string(text::strip(code.substr(v, e - v)));
  }
  return std::nullopt;
}
} // namespace

bool changes_name(const DiffReading &diff, std::string_view name) {
  bool on_added = false, on_removed = false;
  // The values the removed and the added lines bind the name to as a
  // keyword: a rewritten launch that passes `num_warps=NUM_WARPS` before
  // and after, or `BLOCK_H=BLOCK_H` (the name itself), leaves it as it was
  // (stop 44: "the diff also changes `BLOCK_H` and `num_warps`" of a
  // launch rewritten for a fused kernel).
  std::multiset<std::string> bound[2];
  bool bound_in_a_change = false;
  for (const auto &h : diff.hunks)
    for (const auto &c : h.running) {
      if (c.dead) continue;
      if (auto value = keyword_value(c.code, name)) {
        if (*value != name) bound[c.added ? 1 : 0].insert(*value);
        if (holds_name(c.changed, name) || holds_name(c.owner, name) || holds_name(c.defines, name))
          bound_in_a_change = true;
        continue;
      }
      if (holds_name(c.owner, name) || holds_name(c.defines, name)) return true;
      if (!holds_name(c.changed, name)) continue;
      if (assigns_name(c.changed, name)) return true;
      (c.added ? on_added : on_removed) = true;
    }
  if (bound_in_a_change && bound[0] != bound[1]) return true;
  return on_added != on_removed;
}

bool is_code_name(std::string_view term) {
  auto names = names_of(term);
  return names.size() == 1 && names[0].strong && names[0].text == text::strip(term);
}

bool is_language_call(std::string_view name) {
  for (std::string_view module : {"tl.", "gl.", "ttgl.", "triton.", "torch."})
    if (name.starts_with(module)) return true;
  return false;
}

} // namespace otm::diff
