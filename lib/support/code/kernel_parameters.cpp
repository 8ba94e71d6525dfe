#include "code/kernel_parameters.hpp"

#include <algorithm>

#include "code/identifiers.hpp"
#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/source_reading.hpp"
#include "code/top_level_split.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<JitKernelParameters> jit_kernel_parameters(std::string_view source) {
  std::vector<JitKernelParameters> out;
  if (source.find("jit") == std::string_view::npos) return out;
  static const text::Regex name(R"(^\s*\**([A-Za-z_]\w*))");
  const auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s) || s.header >= outline.lines.size()) continue;
    // The signature: from the `def` line's `(` to the bracket closing it.
    std::string signature;
    std::size_t end = s.header;
    for (; end < s.end && end < outline.lines.size(); ++end) {
      signature += outline.lines[end].python + " ";
      auto open = signature.find('(');
      if (open != std::string::npos && matching_bracket(signature, open)) break;
    }
    auto open = signature.find('(');
    auto close = open == std::string::npos ? std::nullopt : matching_bracket(signature, open);
    if (!close) continue;
    JitKernelParameters k{s.name, {}, {}, s.header, end + 1, s.end, {}};
    for (const auto &part : split_top_level(std::string_view(signature).substr(open + 1, *close - open - 1), ','))
      if (auto m = name.search(part)) k.params.emplace_back((*m)[1]);
    std::set<std::string> read, rebound;
    // What a body line binds: the targets of `P = `, `P += `, `a, P = `,
    // `for a, P in`, `as P` and `P :=`.
    static const text::Regex targets(R"(^\s*([A-Za-z_][\w\s,()\[\]]*?)\s*(?:[-+*/%&|^]|//|<<|>>)?=(?!=))"
                                     R"(|^\s*for\s+(.+?)\s+in\b|\bas\s+([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*:=)");
    for (std::size_t i = k.signature_end; i < s.end && i < outline.lines.size(); ++i) {
      const auto &code = outline.lines[i].python;
      for (const auto &id : identifier_spans(code)) read.insert(code.substr(id.begin, id.end - id.begin));
      targets.for_each_match(code, [&](const text::Match &m) {
        for (std::size_t g = 1; g <= 4; ++g)
          if (m.has(g))
            for (const auto &id : identifier_spans(m[g])) rebound.emplace(m[g].substr(id.begin, id.end - id.begin));
      });
    }
    for (const auto &p : k.params)
      if (!rebound.count(p)) k.shadowing.insert(p);
    // A parameter the kernel's decorators name is read by them: an
    // autotune `key=['max_seq_len']` re-tunes on it (kit 49, V03).
    std::string decorators;
    for (std::size_t i = s.begin; i < s.header && i < raw.size(); ++i) decorators += std::string(raw[i]) + "\n";
    for (const auto &p : k.params)
      if (!read.count(p) && decorators.find("'" + p + "'") == std::string::npos &&
          decorators.find("\"" + p + "\"") == std::string::npos)
        k.unread.insert(p);
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<UnreadParameterText> unread_parameter_texts(std::string_view source) {
  std::vector<UnreadParameterText> out;
  const auto kernels = jit_kernel_parameters(source);
  if (std::none_of(kernels.begin(), kernels.end(), [](const auto &k) { return !k.unread.empty(); })) return out;
  const auto outline = outline_module(source);
  auto names_of = [](const std::string &code) {
    std::vector<std::string> names;
    for (const auto &id : identifier_spans(code)) names.push_back(code.substr(id.begin, id.end - id.begin));
    return names;
  };
  // `P=value` after `(`, `,` or the line's start; the value up to the next
  // top-level `,` or `)`.
  static const text::Regex keyword(
      R"((?:^|[(,])\s*(([A-Za-z_]\w*)\s*=(?!=)\s*([^,()]*?(?:\([^()]*\)[^,()]*?)*))\s*(?=[,)]|$))");
  for (const auto &k : kernels) {
    if (k.unread.empty()) continue;
    // The signature's own names (a default value's reads stay).
    for (const auto &p : k.unread)
      for (std::size_t i = k.header; i < k.signature_end && i < outline.lines.size(); ++i) {
        const auto names = names_of(outline.lines[i].python);
        if (std::find(names.begin(), names.end(), p) != names.end()) {
          out.push_back({i, p, {p}});
          break;
        }
      }
    const text::Regex launch(R"((?<![\w.]))" + k.name + R"(\s*\[)");
    for (std::size_t i = 0; i < outline.lines.size(); ++i) {
      if (!launch.contains(outline.lines[i].python)) continue;
      // The call spans lines until its brackets close.
      int depth = 0;
      for (std::size_t j = i; j < outline.lines.size(); ++j) {
        const std::string &code = outline.lines[j].python;
        for (const auto &m : keyword.find_all(code))
          if (k.unread.count(std::string(m[2]))) {
            auto reads = names_of(std::string(m[3]));
            reads.insert(reads.begin(), std::string(m[2]));
            out.push_back({j, std::string(text::strip(m[1])), std::move(reads)});
          }
        depth += bracket_balance(code);
        if (depth <= 0 && (j > i || code.find('(') != std::string::npos)) break;
      }
    }
  }
  return out;
}

} // namespace otm::code
