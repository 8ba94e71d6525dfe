#include "code/unmasked_accesses.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "code/identifiers.hpp"
#include "code/source_reading.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

bool reads_any(std::string_view code, const std::set<std::string> &names) {
  for (const auto &id : identifier_spans(code))
    if (names.count(std::string(code.substr(id.begin, id.end - id.begin)))) return true;
  return false;
}

} // namespace

std::vector<UnmaskedAccess> unmasked_block_accesses(std::string_view python_source) {
  static const text::Regex assignment(R"(^\s*([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$)");
  static const text::Regex arange(R"(\b(?:tl|gl)\.arange\s*\()");
  static const text::Regex access(R"(\b((?:tl|gl)\.(?:load|store))\s*\()");
  static const text::Regex evenness(R"((?i)^\s*(?:el)?if\b.*\b\w*(?:even|divisib|aligned|no_?mask)\w*)");
  static const text::Regex call(R"(([A-Za-z_]\w*)\s*\()");
  // What an offset expression may call: a loaded value, a reduction or a
  // math function makes a value, not an offset.
  static const std::set<std::string> offset_calls = {"arange",  "max_contiguous", "multiple_of", "broadcast_to",
                                                     "reshape", "expand_dims",    "view",        "to",
                                                     "cast",    "int64",          "int32"};
  const auto lines = code_in_place(python_source, Language::Python);
  // Each line's function: the `def` it is indented under (SIZE_MAX: the
  // module), so one function's names are not another's.
  std::vector<std::size_t> function(lines.size(), SIZE_MAX);
  for (std::size_t i = 0, def = SIZE_MAX, def_indent = 0; i < lines.size(); ++i) {
    const bool blank = lines[i].find_first_not_of(" \t") == std::string::npos;
    if (!blank && def != SIZE_MAX && indent_of(lines[i]) <= def_indent) def = SIZE_MAX;
    if (!blank && lines[i].compare(indent_of(lines[i]), 4, "def ") == 0) def = i, def_indent = indent_of(lines[i]);
    function[i] = def;
  }
  // Names holding a block of offsets, per function: assigned from
  // `arange`, or from offset arithmetic on such names (to a fixed point).
  std::map<std::size_t, std::set<std::string>> blocks;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      auto m = assignment.search(lines[i]);
      if (!m) continue;
      auto &block = blocks[function[i]];
      if (block.count(std::string((*m)[1]))) continue;
      const std::string_view value = (*m)[2];
      bool offsets_only = true;
      for (const auto &c : call.find_all(value)) offsets_only = offsets_only && offset_calls.count(std::string(c[1]));
      if (arange.contains(value) || (offsets_only && reads_any(value, block)))
        grew = block.insert(std::string((*m)[1])).second || grew;
    }
  }
  // The block sizes of each function's aranges, in line order, each once.
  static const text::Regex arange_size(R"(\b(?:tl|gl)\.arange\s*\(\s*0\s*,\s*([A-Za-z_]\w*|\d+)\s*[,)])");
  std::map<std::size_t, std::vector<std::string>> sizes;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto &m : arange_size.find_all(lines[i])) {
      auto &of = sizes[function[i]];
      if (std::find(of.begin(), of.end(), m[1]) == of.end()) of.emplace_back(m[1]);
    }
  std::vector<UnmaskedAccess> out;
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto &m : access.find_all(lines[i])) {
      // The call's arguments, to the bracket that closes it (over lines).
      std::string args;
      int depth = 1;
      std::size_t j = i, k = m.end;
      for (; j < lines.size() && depth > 0; ++j, k = 0) {
        for (; k < lines[j].size() && depth > 0; ++k) {
          const char c = lines[j][k];
          if (c == '(' || c == '[' || c == '{') ++depth;
          if ((c == ')' || c == ']' || c == '}') && --depth == 0) break;
          args += c;
        }
        if (depth > 0) args += ' ';
      }
      if (args.find("mask") != std::string::npos || args.find("boundary_check") != std::string::npos) continue;
      // The pointer: the first argument.
      std::string pointer;
      int nested = 0;
      for (char c : args) {
        if (c == '(' || c == '[' || c == '{') ++nested;
        if (c == ')' || c == ']' || c == '}') --nested;
        if (nested == 0 && c == ',') break;
        pointer += c;
      }
      if (!arange.contains(pointer) && !reads_any(pointer, blocks[function[i]])) continue;
      // In a branch on evenness, the caller decides.
      bool guarded = false;
      for (std::size_t up = i, want = indent_of(lines[i]); up-- > 0 && want > 0;) {
        if (lines[up].find_first_not_of(" \t") == std::string::npos || indent_of(lines[up]) >= want) continue;
        want = indent_of(lines[up]);
        if (evenness.contains(lines[up])) guarded = true;
        if (lines[up].find("def ") != std::string::npos) break;
      }
      if (!guarded) out.push_back({i, std::string(m[1]), sizes[function[i]]});
    }
  return out;
}

} // namespace otm::code
