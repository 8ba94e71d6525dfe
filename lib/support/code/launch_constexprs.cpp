#include "code/launch_constexprs.hpp"

#include <algorithm>
#include <set>

#include "code/kernel_parameters.hpp"
#include "code/module_outline.hpp"
#include "code/top_level_split.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

struct Parameter {
  std::string name;
  bool constexpr_ = false, has_default = false;
};

// The parameters of the signature that opens at the first `(` of `text`.
std::vector<Parameter> signature_parameters(const std::string &text) {
  static const text::Regex name(R"(^\s*\**([A-Za-z_]\w*))");
  std::vector<Parameter> out;
  const auto open = text.find('(');
  if (open == std::string::npos) return out;
  const auto close = matching_bracket(text, open);
  if (!close) return out;
  for (const auto &part : split_top_level(std::string_view(text).substr(open + 1, *close - open - 1), ',')) {
    auto m = name.search(part);
    if (!m) continue;
    Parameter p{std::string((*m)[1])};
    p.constexpr_ = part.find("constexpr") != std::string::npos;
    p.has_default = split_top_level(part, '=').size() > 1;
    out.push_back(std::move(p));
  }
  return out;
}

std::size_t line_at(std::string_view text, std::size_t offset) {
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

} // namespace

std::vector<UnsuppliedConstexpr> unsupplied_constexprs(std::string_view source) {
  std::vector<UnsuppliedConstexpr> out;
  const auto kernels = jit_kernel_parameters(source);
  if (kernels.empty()) return out;
  const auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  static const text::Regex keyword(R"(^\s*([A-Za-z_]\w*)\s*=(?!=))");
  for (const auto &k : kernels) {
    // Its signature and its decorators, as written (a config's keys are
    // strings, which the outline leaves out).
    std::string signature, decorators;
    // A comment after a parameter is no part of the next one.
    for (std::size_t i = k.header; i < k.signature_end && i < raw.size(); ++i)
      signature += std::string(raw[i].substr(0, raw[i].find('#'))) + "\n";
    for (const auto &s : outline.statements)
      if (s.name == k.name && s.header == k.header)
        for (std::size_t i = s.begin; i < s.header && i < raw.size(); ++i) decorators += std::string(raw[i]) + "\n";
    const auto params = signature_parameters(signature);
    // An autotune or heuristics decorator of this kernel supplies a key its
    // configs name; they may be built elsewhere in the module
    // (`configs=_CONFIGS`), so any quoted key of the file counts.
    const bool tuned =
        decorators.find("autotune") != std::string::npos || decorators.find("heuristics") != std::string::npos;
    auto decorated = [&](const std::string &p) {
      return tuned && (source.find("'" + p + "'") != std::string_view::npos ||
                       source.find("\"" + p + "\"") != std::string_view::npos);
    };
    const text::Regex launch(R"((?<![\w.]))" + k.name + R"(\s*\[)");
    for (const auto &m : launch.find_all(source)) {
      const std::size_t at = m.begin;
      const auto open_grid = m.end - 1;
      const auto close_grid = matching_bracket(source, open_grid);
      if (!close_grid) continue;
      auto open_args = source.find_first_not_of(" \t\r\n", *close_grid + 1);
      if (open_args == std::string_view::npos || source[open_args] != '(') continue;
      const auto close_args = matching_bracket(source, open_args);
      if (!close_args) continue;
      std::set<std::string> keywords;
      std::size_t positional = 0;
      bool unknown = false;
      for (const auto &arg : split_top_level(source.substr(open_args + 1, *close_args - open_args - 1), ',')) {
        const auto a = text::strip(arg);
        if (a.empty()) continue;
        if (a.front() == '*') unknown = true;
        if (auto kw = keyword.search(a))
          keywords.insert(std::string((*kw)[1]));
        else
          ++positional;
      }
      if (unknown) continue;
      for (std::size_t i = 0; i < params.size(); ++i) {
        const auto &p = params[i];
        if (!p.constexpr_ || p.has_default || i < positional || keywords.count(p.name) || decorated(p.name)) continue;
        out.push_back({k.name, p.name, line_at(source, at)});
      }
    }
  }
  return out;
}

bool diff_leaves_it_unsupplied(std::string_view diff, const UnsuppliedConstexpr &u) {
  const text::Regex keyword(R"((?<![\w.]))" + u.parameter + R"(\s*=(?!=))");
  static const text::Regex tuning(R"(@\s*triton\.(?:autotune|heuristics)\b)");
  for (auto line : text::split_lines(diff)) {
    if (line.starts_with("---") || line.starts_with("+++")) continue;
    if (line.starts_with('-') && keyword.contains(line)) return true;
    if (line.starts_with('+') && tuning.contains(line)) return true;
  }
  return false;
}

std::string why_it_cannot_launch(const UnsuppliedConstexpr &u) {
  return "the launch of `" + u.kernel + "` supplies its constexpr `" + u.parameter +
         "` by neither keyword, position, default, nor an autotune config or heuristic on that kernel: it cannot "
         "launch";
}

} // namespace otm::code
