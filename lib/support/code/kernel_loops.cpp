#include "code/kernel_loops.hpp"

#include <functional>

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

// Calls `fn` on each line of the file's device functions without its
// comments, with whether it is CUDA C; false when the file has none.
bool for_each_device_line(std::string_view python_source, const std::function<bool(const std::string &, bool c)> &fn) {
  static const text::Regex device(R"(\b__(?:global|device)__\b)");
  auto outline = outline_module(python_source);
  bool seen = false;
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    seen = true;
    for (std::size_t i = s.header + 1; i < s.end && i < outline.lines.size(); ++i)
      if (!fn(outline.lines[i].python, false)) return true;
  }
  for (const auto &c : outline.c_items) {
    if (c.kind != CItem::Kind::Function || !device.contains(c.head)) continue;
    seen = true;
    for (std::size_t i = c.begin; i < c.end && i < outline.lines.size(); ++i)
      if (!fn(outline.lines[i].c, true)) return true;
  }
  return seen;
}

} // namespace

std::optional<std::string> device_code(std::string_view python_source) {
  std::string out;
  bool seen = for_each_device_line(python_source, [&](const std::string &line, bool) {
    out.append(line) += '\n';
    return true;
  });
  if (!seen) return std::nullopt;
  return out;
}

std::optional<bool> device_code_loops(std::string_view python_source) {
  static const text::Regex python_loop(R"(^\s*(?:async\s+)?(?:for|while)\b)");
  static const text::Regex c_loop(R"(\b(?:for|while)\s*\(|\bdo\s*\{)");
  bool loops = false;
  bool seen = for_each_device_line(python_source, [&](const std::string &line, bool c) {
    loops = (c ? c_loop : python_loop).contains(line);
    return !loops;
  });
  if (!seen) return std::nullopt;
  return loops;
}

} // namespace otm::code
