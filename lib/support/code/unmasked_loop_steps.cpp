#include "code/unmasked_loop_steps.hpp"

#include <cctype>

#include "code/identifiers.hpp"
#include "code/source_reading.hpp"
#include "code/top_level_split.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

std::vector<std::string> names_in(std::string_view code) {
  std::vector<std::string> out;
  for (const auto &id : identifier_spans(code)) out.emplace_back(code.substr(id.begin, id.end - id.begin));
  return out;
}

bool names(std::string_view code, const std::string &name) {
  for (const auto &n : names_in(code))
    if (n == name) return true;
  return false;
}

} // namespace

std::vector<UnmaskedLoopStep> unmasked_loop_steps(std::string_view source) {
  static const text::Regex loop(R"(^\s*for\s+([A-Za-z_]\w*)\s+in\s+(?:tl\.|gl\.)?range\((.*)\)\s*:)");
  static const text::Regex made(R"(^\s*([A-Za-z_]\w*)\s*=\s*(?:tl|gl)\.arange\(\s*0\s*,\s*([A-Za-z_]\w*)\s*[,)])");
  static const text::Regex load(R"(\b(?:tl|gl)\.load\()");
  static const text::Regex mask_arg(R"(\bmask\s*=)");
  const auto lines = text::split_lines(source);
  // Offsets of a block from 0: `offs_k = gl.arange(0, BLOCK_K, ...)`, by block.
  std::vector<std::pair<std::string, std::string>> offsets; // (offsets, block)
  for (const auto line : lines)
    if (auto m = made.search(line)) offsets.emplace_back(std::string((*m)[1]), std::string((*m)[2]));
  std::vector<UnmaskedLoopStep> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto m = loop.search(lines[i]);
    if (!m) continue;
    const std::string var((*m)[1]);
    const auto args = split_top_level((*m)[2], ',');
    if (args.size() < 3) continue;
    const std::string step(text::strip(args[2]));
    if (step.empty() || !(std::isalpha(static_cast<unsigned char>(step[0])) || step[0] == '_')) continue;
    if (step.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      continue;
    // The offsets of this step's block.
    std::vector<std::string> own;
    for (const auto &[o, block] : offsets)
      if (block == step) own.push_back(o);
    if (own.empty()) continue;
    const std::size_t indent = indent_of(lines[i]);
    std::vector<std::string> index{var}; // names that carry the loop's position
    std::string unchecked;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const auto line = lines[j];
      if (text::strip(line).empty()) continue;
      if (indent_of(line) <= indent) break;
      const auto at = load.search(line);
      if (!at) {
        // `k_idx = k0 + offs_k`: a name for the loop's offsets.
        static const text::Regex assign(R"(^\s*([A-Za-z_]\w*)\s*=(?!=)(.*)$)");
        if (auto a = assign.search(line)) {
          bool of_var = false, of_offs = false;
          for (const auto &n : names_in((*a)[2])) {
            for (const auto &x : index) of_var = of_var || n == x;
            for (const auto &o : own) of_offs = of_offs || n == o;
          }
          if (of_var && of_offs) index.emplace_back((*a)[1]);
        }
        continue;
      }
      // The call, joined with its continuation lines until its brackets close.
      std::string call(line.substr(at->begin));
      for (std::size_t k = j + 1; k < lines.size() && k < j + 8; ++k) {
        if (bracket_balance(call) <= 0) break;
        call += " " + std::string(text::strip(lines[k]));
      }
      bool offsets_used = false;
      for (const auto &x : index) offsets_used = offsets_used || (x != var && names(call, x));
      if (!offsets_used) {
        // Inline: `k0 + offs_k` in the address.
        bool v = names(call, var), o = false;
        for (const auto &x : own) o = o || names(call, x);
        offsets_used = v && o;
      }
      if (!offsets_used) continue;
      // A load with no mask at all is code::unmasked_block_accesses' to say.
      const auto mk = mask_arg.search(call);
      if (!mk) continue;
      const std::string mask = call.substr(mk->end);
      bool checked = false;
      for (const auto &x : index) checked = checked || names(mask, x);
      for (const auto &x : own) checked = checked || names(mask, x);
      if (!checked) {
        unchecked = index.size() > 1 ? index.back() : var + " + " + own.front();
        break;
      }
    }
    if (unchecked.empty()) continue;
    out.push_back({std::string(text::strip(lines[i])), step, names_in(args[1]), unchecked});
  }
  return out;
}

} // namespace otm::code
