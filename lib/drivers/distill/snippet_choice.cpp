#include "distill/snippet_choice.hpp"

#include <vector>

#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string_view> &lines, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += '\n';
    out += lines[i];
  }
  return out;
}

bool is_change(std::string_view line) {
  return !line.empty() && (line[0] == '-' || line[0] == '+') && line.substr(0, 3) != "---" &&
         line.substr(0, 3) != "+++";
}

// A changed line that carries code: not blank, not only a comment.
bool is_substantive_change(std::string_view line) {
  auto body = text::strip(line.substr(1));
  if (body.empty()) return false;
  return !(body.starts_with("#") || body.starts_with("//") || body.starts_with("/*") || body.starts_with("*"));
}

} // namespace

std::optional<DiffSnippet> choose_diff_hunk(std::string_view diff) {
  auto lines = split_lines(diff);
  struct Hunk {
    std::size_t body_begin, body_end, substantive = 0, first_change = 0;
    bool has_change = false;
  };
  std::vector<Hunk> hunks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("@@")) {
      if (!hunks.empty()) hunks.back().body_end = i;
      hunks.push_back({i + 1, lines.size()});
      continue;
    }
    // File headers of a following file end the current hunk.
    if (lines[i].starts_with("diff --git ")) {
      if (!hunks.empty() && hunks.back().body_end == lines.size()) hunks.back().body_end = i;
      continue;
    }
    if (hunks.empty() || hunks.back().body_end != lines.size()) continue;
    auto &h = hunks.back();
    if (is_change(lines[i])) {
      if (!h.has_change) h.first_change = i;
      h.has_change = true;
      if (is_substantive_change(lines[i])) ++h.substantive;
    }
  }
  const Hunk *best = nullptr;
  for (const auto &h : hunks)
    if (h.has_change && (!best || h.substantive > best->substantive)) best = &h;
  if (!best) return std::nullopt;
  std::size_t begin = best->body_begin, end = best->body_end;
  // Trailing empty strings come from the file's final newline, not the hunk.
  while (end > begin && lines[end - 1].empty()) --end;
  if (end - begin > kMaxSnippetLines) {
    begin = best->first_change > begin + kContextLines ? best->first_change - kContextLines : begin;
    end = std::min(end, begin + kMaxSnippetLines);
  }
  DiffSnippet s;
  s.text = join_lines(lines, begin, end);
  s.changed_lines = best->substantive;
  s.hunks = hunks.size();
  return s;
}

std::optional<EntryFunction> choose_entry_function(std::string_view source) {
  static const text::Regex decorator(R"(^(\s*)@[\w.]*(?:jit|kernel)\w*\b)");
  static const text::Regex def(R"(^(\s*)(?:async\s+)?def\s+(\w+)\s*\()");
  static const text::Regex word(R"(\b\w+\b)");
  auto lines = split_lines(source);
  struct Fn {
    std::string name;
    std::size_t begin, end;
  };
  std::vector<Fn> fns;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!decorator.match(lines[i])) continue;
    std::size_t j = i;
    while (j < lines.size() && text::lstrip(lines[j]).starts_with("@")) ++j;
    if (j >= lines.size()) break;
    auto m = def.match(lines[j]);
    if (!m) continue;
    std::size_t indent = (*m)[1].size();
    std::size_t end = j + 1;
    for (std::size_t k = j + 1; k < lines.size(); ++k) {
      auto stripped = text::strip(lines[k]);
      if (stripped.empty()) continue;
      std::size_t ind = lines[k].size() - text::lstrip(lines[k]).size();
      if (ind <= indent) break;
      end = k + 1;
    }
    fns.push_back({std::string((*m)[2]), i, end});
    i = end - 1;
  }
  if (fns.empty()) return std::nullopt;
  const Fn *best = nullptr;
  std::size_t best_uses = 0;
  for (const auto &f : fns) {
    std::size_t uses = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i >= f.begin && i < f.end) continue;
      for (const auto &w : word.find_all(lines[i]))
        if (w[0] == f.name) ++uses;
    }
    if (!best || uses > best_uses) {
      best = &f;
      best_uses = uses;
    }
  }
  return EntryFunction{best->name, join_lines(lines, best->begin, best->end)};
}

} // namespace otm::distill
