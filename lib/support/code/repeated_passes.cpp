#include "code/repeated_passes.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "code/c_loops.hpp"
#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/source_reading.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

// One read: its line and the loops around it, outermost first.
struct Read {
  std::size_t line = 0;
  std::vector<std::size_t> loops;
};

// The first pair of reads of one name whose innermost loops differ and
// neither lies inside the other.
std::optional<RepeatedPass> two_passes(const std::map<std::string, std::vector<Read>> &reads) {
  for (const auto &[name, list] : reads)
    for (std::size_t i = 0; i < list.size(); ++i)
      for (std::size_t j = i + 1; j < list.size(); ++j) {
        const auto &a = list[i].loops, &b = list[j].loops;
        if (a.empty() || b.empty() || a.back() == b.back()) continue;
        if (std::find(b.begin(), b.end(), a.back()) != b.end() || std::find(a.begin(), a.end(), b.back()) != a.end())
          continue;
        return RepeatedPass{name, list[i].line, list[j].line};
      }
  return std::nullopt;
}

std::optional<RepeatedPass> in_python(const ModuleOutline &outline, const std::vector<std::string_view> &raw) {
  static const text::Regex loop_head(R"(^(?:async\s+)?(?:for|while)\b)");
  static const text::Regex load(R"(\bload\s*\(\s*([A-Za-z_]\w*))");
  std::size_t next_loop = 0;
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    std::map<std::string, std::vector<Read>> reads;
    std::vector<std::pair<std::size_t, std::size_t>> open; // (indent, loop) of the loops around the line
    int depth = 0;
    for (std::size_t i = s.header + 1; i < s.end && i < outline.lines.size() && i < raw.size(); ++i) {
      std::string_view code = text::strip(outline.lines[i].python);
      if (code.empty()) continue;
      const bool starts = depth <= 0;
      depth = std::max(0, depth) + bracket_balance(code);
      if (starts) {
        const std::size_t indent = indent_of(raw[i]);
        while (!open.empty() && indent <= open.back().first) open.pop_back();
        if (loop_head.contains(code)) {
          open.emplace_back(indent, next_loop++);
          continue; // a read in the header is no pass
        }
      }
      if (open.empty()) continue;
      for (const auto &m : load.find_all(code)) {
        Read r{i, {}};
        for (const auto &o : open) r.loops.push_back(o.second);
        reads[std::string(m[1])].push_back(std::move(r));
      }
    }
    if (auto p = two_passes(reads)) return p;
  }
  return std::nullopt;
}

std::optional<RepeatedPass> in_c(const ModuleOutline &outline) {
  static const text::Regex device(R"(\b__(?:global|device)__\b)");
  static const text::Regex parameter(R"(\*\s*(?:const\s+)?(?:__restrict__\s+)?([A-Za-z_]\w*)\s*[,)])");
  static const text::Regex local(R"(\*\s*(?:const\s+)?(?:__restrict__\s+)?([A-Za-z_]\w*)\s*=[^=])");
  for (const auto &item : outline.c_items) {
    if (item.kind != CItem::Kind::Function || !device.contains(item.head)) continue;
    const auto fn = c_function_body(outline, item);
    const std::string &body = fn.text;
    std::vector<std::string> pointers;
    for (const auto &m : parameter.find_all(item.head)) pointers.emplace_back(m[1]);
    for (const auto &m : local.find_all(body)) pointers.emplace_back(m[1]);
    if (pointers.empty()) continue;
    const auto loops = c_loops(body);
    std::map<std::string, std::vector<Read>> reads;
    for (const auto &p : pointers) {
      if (reads.count(p)) continue;
      const text::Regex read("(?<![\\w.>])" + p + R"(\s*(?:\+|\[))");
      const text::Regex written("(?<![\\w.>])" + p + R"(\s*\[[^\]]*\]\s*=(?!=))");
      auto &list = reads[p];
      for (const auto &m : read.find_all(body)) {
        const std::size_t at = m.begin;
        const auto eol = body.find('\n', at), bol = body.rfind('\n', at);
        const std::string_view line = std::string_view(body).substr(bol == std::string::npos ? 0 : bol + 1,
                                                                    (eol == std::string::npos ? body.size() : eol) -
                                                                        (bol == std::string::npos ? 0 : bol + 1));
        if (written.contains(line)) continue;
        Read r{fn.line_of[at], {}};
        bool in_header = false;
        for (std::size_t l = 0; l < loops.size(); ++l) {
          if (at >= loops[l].head && at < loops[l].begin) in_header = true;
          if (at >= loops[l].begin && at < loops[l].end) r.loops.push_back(l);
        }
        if (!in_header && !r.loops.empty()) list.push_back(std::move(r));
      }
    }
    if (auto p = two_passes(reads)) return p;
  }
  return std::nullopt;
}

} // namespace

std::optional<RepeatedPass> pointer_read_in_two_passes(std::string_view source) {
  const auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  if (auto r = in_python(outline, raw)) return r;
  return in_c(outline);
}

} // namespace otm::code
