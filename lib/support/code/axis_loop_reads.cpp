#include "code/axis_loop_reads.hpp"

#include "code/c_loops.hpp"
#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/source_reading.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

// `name` as a whole identifier, not an attribute (`x.w`, `p->w`).
bool names(std::string_view code, const std::string &name, std::string_view after = "") {
  const text::Regex r("(?<![\\w.>])" + name + "\\b" + std::string(after));
  return r.contains(code);
}

std::optional<AxisLoopRead> in_python(const ModuleOutline &outline, const std::vector<std::string_view> &raw,
                                      const std::vector<std::string> &pointers, const text::Regex &axis) {
  static const text::Regex for_head(R"(^(?:async\s+)?for\b)");
  static const text::Regex load(R"(\bload\s*\()"); // the pointer is read inside the call
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    bool in_loop = false;        // inside a loop over the axis
    std::size_t loop_indent = 0; // that loop's indent
    int depth = 0;               // open brackets of the statement being read
    for (std::size_t i = s.header + 1; i < s.end && i < outline.lines.size() && i < raw.size(); ++i) {
      std::string_view code = text::strip(outline.lines[i].python);
      if (code.empty()) continue;
      const bool starts = depth <= 0;
      depth = std::max(0, depth) + bracket_balance(code);
      if (!starts) {
        // A continuation line belongs to its statement, whatever its indent.
      } else {
        const std::size_t indent = indent_of(raw[i]);
        if (in_loop && indent <= loop_indent) in_loop = false;
        if (!in_loop && for_head.contains(code) && axis.contains(code)) {
          in_loop = true, loop_indent = indent;
          continue;
        }
      }
      if (in_loop && load.contains(code))
        for (const auto &p : pointers)
          if (text::Regex(R"(\bload\s*\([^)]*?(?<![\w.]))" + p + "\\b").contains(code))
            return AxisLoopRead{i, p, std::string(text::strip(raw[i]))};
    }
  }
  return std::nullopt;
}

std::optional<AxisLoopRead> in_c(const ModuleOutline &outline, const std::vector<std::string_view> &raw,
                                 const std::vector<std::string> &pointers, const text::Regex &axis) {
  static const text::Regex device(R"(\b__(?:global|device)__\b)");
  for (const auto &item : outline.c_items) {
    if (item.kind != CItem::Kind::Function || !device.contains(item.head)) continue;
    // The pointers this function is given.
    std::vector<std::string> given;
    for (const auto &p : pointers)
      if (names(item.head, p) &&
          text::Regex("\\*\\s*(?:const\\s+)?(?:__restrict__\\s+)?" + p + "\\s*[,)]").contains(item.head))
        given.push_back(p);
    if (given.empty()) continue;
    const auto fn = c_function_body(outline, item);
    const std::string &body = fn.text;
    for (const auto &loop : c_loops(body, false)) {
      if (!axis.contains(std::string_view(body).substr(loop.head, loop.header_end - loop.head))) continue;
      const std::size_t begin = loop.begin, end = loop.end;
      for (std::size_t at = begin; at < end;) {
        std::size_t eol = std::min(body.find('\n', at), end);
        std::string_view code = std::string_view(body).substr(at, eol - at);
        for (const auto &p : given)
          if (names(code, p, R"(\s*(?:\+|\[))")) {
            const std::size_t line = fn.line_of[at];
            return AxisLoopRead{line, p, line < raw.size() ? std::string(text::strip(raw[line])) : std::string(code)};
          }
        at = eol + 1;
      }
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<AxisLoopRead> pointer_read_in_axis_loop(std::string_view source, const std::vector<std::string> &pointers,
                                                      const text::Regex &loop_header) {
  if (pointers.empty()) return std::nullopt;
  const auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  if (auto r = in_python(outline, raw, pointers, loop_header)) return r;
  return in_c(outline, raw, pointers, loop_header);
}

} // namespace otm::code
