#include "code/kernel_parameters.hpp"

#include "code/identifiers.hpp"
#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/top_level_split.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

std::vector<JitKernelParameters> jit_kernel_parameters(std::string_view source) {
  std::vector<JitKernelParameters> out;
  if (source.find("jit") == std::string_view::npos) return out;
  static const text::Regex name(R"(^\s*\**([A-Za-z_]\w*))");
  const auto outline = outline_module(source);
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
    JitKernelParameters k{s.name, {}, {}, s.header, end + 1};
    for (const auto &part : split_top_level(std::string_view(signature).substr(open + 1, *close - open - 1), ','))
      if (auto m = name.search(part)) k.params.emplace_back((*m)[1]);
    std::set<std::string> read;
    for (std::size_t i = k.signature_end; i < s.end && i < outline.lines.size(); ++i) {
      const auto &code = outline.lines[i].python;
      for (const auto &id : identifier_spans(code)) read.insert(code.substr(id.begin, id.end - id.begin));
    }
    for (const auto &p : k.params)
      if (!read.count(p)) k.unread.insert(p);
    out.push_back(std::move(k));
  }
  return out;
}

} // namespace otm::code
