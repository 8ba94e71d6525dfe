#include "code/accumulators.hpp"

#include <optional>
#include <set>

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

using Precision = RunningSum::Precision;

std::string without_comment(std::string_view line, bool python) {
  std::string s(line);
  if (auto at = s.find(python ? "#" : "//"); at != std::string::npos) s.erase(at);
  return s;
}

// What an initial value makes a name: "fp32", "low", or unknown.
Precision precision_of_value(std::string_view value) {
  static const text::Regex low(R"(\b(?:bfloat16|float16|bf16|fp16|half)\b)");
  static const text::Regex fp32(R"(\b(?:float32|fp32|float64)\b)");
  static const text::Regex literal(
      R"(^\s*(?:-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d*\.\d+(?:[eE][-+]?\d+)?|float\([^)]*\))\s*$)");
  if (low.contains(value)) return Precision::Low;
  if (fp32.contains(value) || literal.contains(value)) return Precision::Fp32;
  return Precision::Unknown;
}

struct Scan {
  std::vector<RunningSum> sums;
  std::set<std::string> seen;
  void add(const std::string &name, Precision p, std::size_t line) {
    if (seen.insert(name).second) sums.push_back({name, p, line});
  }
};

void in_python(const ModuleOutline &outline, const std::vector<std::string_view> &raw, Scan &scan) {
  static const text::Regex plus_equal(R"(^\s*([A-Za-z_]\w*)\s*\+=)");
  static const text::Regex self_sum(R"(^\s*([A-Za-z_]\w*)\s*=\s*(.*)$)");
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)\s*(.+)$)");
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    for (std::size_t i = s.header + 1; i < s.end && i < raw.size(); ++i) {
      const std::string code = without_comment(raw[i], true);
      std::string name;
      if (auto m = plus_equal.search(code)) {
        name = std::string((*m)[1]);
      } else if (auto a = self_sum.search(code)) {
        // `s = s * alpha + ...`, `s = ... + s`: the name read on its own
        // right-hand side beside a `+`.
        const std::string n((*a)[1]), rhs((*a)[2]);
        const text::Regex reads("(?<![\\w.])" + n + "(?!\\w)");
        if (rhs.find('+') != std::string::npos && reads.contains(rhs)) name = n;
      }
      if (name.empty()) continue;
      // Its last plain assignment before this line.
      Precision p = Precision::Unknown;
      for (std::size_t k = i; k-- > s.header + 1;) {
        const std::string earlier = without_comment(raw[k], true); // the match's views point into it
        auto a = assignment.search(earlier);
        if (!a || (*a)[1] != name) continue;
        const std::string rhs((*a)[2]);
        const text::Regex reads("(?<![\\w.])" + name + "(?!\\w)");
        if (reads.contains(rhs)) continue; // another accumulation
        p = precision_of_value(rhs);
        break;
      }
      scan.add(name, p, i);
    }
  }
}

void in_c(const ModuleOutline &outline, const std::vector<std::string_view> &raw, Scan &scan) {
  static const text::Regex device(R"(\b__(?:global|device)__\b)");
  static const text::Regex plus_equal(R"((?<![\w.>])([A-Za-z_]\w*)\s*\+=)");
  static const text::Regex half_op(R"((?<![\w.>])([A-Za-z_]\w*)\s*=\s*__h(?:add|fma)2?\s*\(\s*([A-Za-z_]\w*))");
  for (const auto &item : outline.c_items) {
    if (item.kind != CItem::Kind::Function || !device.contains(item.head)) continue;
    std::string body;
    for (std::size_t i = item.begin; i < item.end && i < raw.size(); ++i) body += without_comment(raw[i], false) + "\n";
    auto declared = [&](const std::string &name) -> std::optional<Precision> {
      const text::Regex decl("\\b((?:const\\s+)?(?:unsigned\\s+)?[A-Za-z_][\\w:]*)\\s+" + name + "\\s*(?:=|;|\\[|,)");
      std::optional<Precision> p;
      for (const auto &m : decl.find_all(body)) {
        const std::string type(m[1]);
        static const text::Regex low(R"(\b(?:__half2?|half2?|__nv_bfloat162?|nv_bfloat162?|bfloat16)\b)");
        static const text::Regex wide(R"(\b(?:float|double|float2|float4)\b)");
        static const text::Regex integer(R"(\b(?:int|long|short|char|size_t|unsigned|int\d+_t|uint\d+_t|bool|auto)\b)");
        if (low.contains(type))
          p = Precision::Low;
        else if (wide.contains(type))
          p = Precision::Fp32;
        else if (integer.contains(type))
          p = std::nullopt; // a counter
        else
          continue;
        return p;
      }
      return Precision::Unknown;
    };
    auto line_of = [&](std::size_t offset) {
      std::size_t line = item.begin;
      for (std::size_t k = 0; k < offset && k < body.size(); ++k) line += body[k] == '\n';
      return line;
    };
    for (const auto &m : half_op.find_all(body))
      if (m[1] == m[2]) scan.add(std::string(m[1]), Precision::Low, line_of(m.begin));
    for (const auto &m : plus_equal.find_all(body)) {
      const std::string name(m[1]);
      if (auto p = declared(name)) scan.add(name, *p, line_of(m.begin));
    }
  }
}

} // namespace

std::vector<RunningSum> running_sums(std::string_view source) {
  const auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  Scan scan;
  in_python(outline, raw, scan);
  in_c(outline, raw, scan);
  return scan.sums;
}

} // namespace otm::code
