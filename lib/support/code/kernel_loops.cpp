#include "code/kernel_loops.hpp"

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "text/regex.hpp"

namespace otm::code {

std::optional<bool> device_code_loops(std::string_view python_source) {
  static const text::Regex python_loop(R"(^\s*(?:async\s+)?(?:for|while)\b)");
  static const text::Regex c_loop(R"(\b(?:for|while)\s*\(|\bdo\s*\{)");
  static const text::Regex device(R"(\b__(?:global|device)__\b)");
  auto outline = outline_module(python_source);
  bool seen = false;
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    seen = true;
    for (std::size_t i = s.header + 1; i < s.end && i < outline.lines.size(); ++i)
      if (python_loop.contains(outline.lines[i].python)) return true;
  }
  for (const auto &c : outline.c_items) {
    if (c.kind != CItem::Kind::Function || !device.contains(c.head)) continue;
    seen = true;
    for (std::size_t i = c.begin; i < c.end && i < outline.lines.size(); ++i)
      if (c_loop.contains(outline.lines[i].c)) return true;
  }
  if (!seen) return std::nullopt;
  return false;
}

} // namespace otm::code
