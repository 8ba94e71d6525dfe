#include "code/shared_array_bounds.hpp"

#include <map>
#include <optional>
#include <set>

#include "code/c_constants.hpp"
#include "code/source_reading.hpp"
#include "code/top_level_split.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

struct Range {
  long long lo = 0, hi = 0;
};
// Each name's bindings in source order, each with the line it is made on;
// a use reads the nearest one before it (a loop's `d` and a later
// `const int d` in another block are two variables). nullopt: unknown.
struct Binding {
  std::size_t line = 0;
  std::optional<Range> range;
};
using Ranges = std::map<std::string, std::vector<Binding>, std::less<>>;

std::optional<Range> range_at(const Ranges &ranges, std::string_view name, std::size_t line) {
  auto r = ranges.find(name);
  if (r == ranges.end()) return std::nullopt;
  for (auto b = r->second.rbegin(); b != r->second.rend(); ++b)
    if (b->line <= line) return b->range;
  return std::nullopt;
}
using Names = std::set<std::string>;
// What each variable's initialiser (or loop head) reads.
using Reads = std::map<std::string, Names>;

Names variables_in(std::string_view expression, const CConstants &constants) {
  static const text::Regex name(R"((?<![\w.>:])([A-Za-z_]\w*)\b(?!\s*\())");
  Names out;
  for (const auto &m : name.find_all(expression))
    if (!constants.count(m[1])) out.insert(std::string(m[1]));
  return out;
}

// The extremes of `expression` over the corners of its names' ranges;
// nullopt when a name has no known range or an operator is not monotone
// in each name (`%`, `&`, `?:`, a shift by a name).
std::optional<Range> range_of(std::string_view expression, const Ranges &ranges, std::size_t line,
                              const CConstants &constants) {
  if (expression.find_first_of("%&|^?<>=!") != std::string_view::npos) return std::nullopt;
  auto names = variables_in(expression, constants);
  if (names.size() > 6) return std::nullopt;
  std::vector<std::pair<std::string, Range>> vars;
  for (const auto &n : names) {
    auto r = range_at(ranges, n, line);
    if (!r) return std::nullopt;
    vars.emplace_back(n, *r);
  }
  std::optional<Range> out;
  for (std::size_t corner = 0; corner < (std::size_t{1} << vars.size()); ++corner) {
    CConstants at = constants;
    for (std::size_t k = 0; k < vars.size(); ++k)
      at[vars[k].first] = (corner >> k) & 1 ? vars[k].second.hi : vars[k].second.lo;
    auto v = evaluate_c_integer(expression, at);
    if (!v) return std::nullopt;
    if (!out)
      out = Range{*v, *v};
    else
      out->lo = std::min(out->lo, *v), out->hi = std::max(out->hi, *v);
  }
  return out;
}

// A variable's range from its initialiser: `x & C`, `x % C`, or an
// expression over known ranges.
std::optional<Range> initial_range(std::string_view init, const Ranges &ranges, std::size_t line,
                                   const CConstants &constants) {
  static const text::Regex mask(R"(^.*&\s*(\w+)\s*\)?\s*$)");
  static const text::Regex modulo(R"(^[^%]*%\s*(\w+)\s*\)?\s*$)");
  if (auto m = modulo.search(init))
    if (auto c = evaluate_c_integer(m->operator[](1), constants); c && *c > 0) return Range{0, *c - 1};
  if (auto m = mask.search(init); m && init.find('%') == std::string_view::npos)
    if (auto c = evaluate_c_integer(m->operator[](1), constants); c && *c >= 0) return Range{0, *c};
  return range_of(init, ranges, line, constants);
}

void bind_range(Ranges &ranges, const std::string &name, std::size_t line, std::optional<Range> r) {
  ranges[name].push_back(Binding{line, r});
}

// Declarations (`const int warp = ..., lane = threadIdx.x & 31;`) and loop
// heads (`for (int j = 0; j < 4; ++j)`) of the code, in order.
Ranges ranges_of(const std::vector<std::string> &lines, const CConstants &constants, Reads &reads) {
  static const text::Regex loop(
      R"(\bfor\s*\(\s*(?:const\s+)?(?:unsigned\s+)?(?:int|long|size_t|int64_t|int32_t|uint32_t|auto)\s+([A-Za-z_]\w*)\s*=\s*([^;]*);\s*([A-Za-z_]\w*)\s*(<=?)\s*([^;&|]*?)\s*(?:&&[^;]*)?;)");
  static const text::Regex declaration(
      R"((?:^\s*|[;{(]\s*)(?:const\s+)?(?:unsigned\s+)?(?:int|long|size_t|int64_t|int32_t|uint32_t|auto)\s+([^;]*);)");
  static const text::Regex declarator(R"(^\s*([A-Za-z_]\w*)\s*=\s*(.+?)\s*$)");
  Ranges ranges;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    if (l.empty()) continue;
    for (const auto &m : loop.find_all(l)) {
      if (m[1] != m[3]) continue;
      auto hi = evaluate_c_integer(m[5], constants);
      std::optional<Range> r;
      if (hi) {
        auto lo = initial_range(m[2], ranges, i, constants);
        r = Range{lo ? lo->lo : 0, *hi - (m[4] == "<" ? 1 : 0)};
      }
      bind_range(ranges, std::string(m[1]), i, r);
      auto &r1 = reads[std::string(m[1])];
      for (auto part : {m[2], m[5]})
        for (const auto &n : variables_in(part, constants)) r1.insert(n);
    }
    std::string rest = loop.replace(l, "");
    for (const auto &m : declaration.find_all(rest))
      for (const auto &d : split_top_level(m[1], ','))
        if (auto dm = declarator.search(d)) {
          bind_range(ranges, std::string((*dm)[1]), i, initial_range((*dm)[2], ranges, i, constants));
          for (const auto &n : variables_in((*dm)[2], constants)) reads[std::string((*dm)[1])].insert(n);
        }
  }
  return ranges;
}

struct SharedArray {
  std::string name;
  std::vector<std::string> extents;
  std::vector<long long> sizes;
};

// `__shared__ float s_cos[A][B];`: group 1 the name, group 2 its extents.
const text::Regex &shared_declaration() {
  static const text::Regex decl(R"(\b__shared__\s+[\w:<>\s]+?\b([A-Za-z_]\w*)\s*((?:\[[^\]]+\]\s*)+);)");
  return decl;
}

std::vector<SharedArray> shared_arrays(const std::vector<std::string> &lines, const CConstants &constants) {
  static const text::Regex dim(R"(\[([^\]]+)\])");
  std::vector<SharedArray> out;
  for (const auto &l : lines)
    for (const auto &m : shared_declaration().find_all(l)) {
      SharedArray a{std::string(m[1]), {}, {}};
      bool known = true;
      for (const auto &d : dim.find_all(m[2])) {
        auto v = evaluate_c_integer(d[1], constants);
        known = known && v && *v > 0;
        a.extents.emplace_back(text::strip(d[1]));
        a.sizes.push_back(v ? *v : 0);
      }
      if (known) out.push_back(std::move(a));
    }
  return out;
}

// The conditions that guard each line: every `if` whose block (or single
// statement) holds it, and every early exit (`if (c) break;`) before it in
// an enclosing block.
std::vector<std::string> guards_of_lines(const std::vector<std::string> &lines) {
  static const text::Regex if_head(R"(\bif\s*\()");
  static const text::Regex exit(R"(^\s*(?:break|continue|return\b[^;]*)\s*;)");
  std::vector<std::string> out(lines.size());
  std::vector<std::string> frames{""}; // the guards in force in each open block
  std::string pending;                 // a brace-less if's condition, for the next line
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto &l = lines[i];
    std::string here = pending;
    pending.clear();
    for (const auto &f : frames) here += " " + f;
    std::string opened; // the condition of an if whose block this line opens
    for (const auto &m : if_head.find_all(l)) {
      auto close = matching_bracket(l, m.end - 1);
      if (!close) continue;
      std::string cond = l.substr(m.end, *close - m.end);
      std::string_view after = std::string_view(l).substr(*close + 1);
      here += " " + cond;
      if (exit.contains(after))
        frames.back() += " " + cond;
      else if (text::strip(after).empty())
        pending = cond;
      else if (text::strip(after).starts_with("{"))
        opened = cond;
    }
    out[i] = here;
    for (char ch : l) {
      if (ch == '{') frames.push_back(opened), opened.clear();
      if (ch == '}' && frames.size() > 1) frames.pop_back();
    }
  }
  return out;
}

} // namespace

std::string SharedArrayOverrun::why() const {
  return "indexes the __shared__ array `" + array + "` with `" + index + "`, which reaches " + std::to_string(reaches) +
         " where that dimension holds " + std::to_string(size) + " (`" + extent +
         "`), and no condition guards it: it reads or writes outside the array";
}

std::vector<SharedArrayOverrun> shared_array_overruns(std::string_view source, Language language) {
  std::vector<SharedArrayOverrun> out;
  if (source.find("__shared__") == std::string_view::npos) return out;
  const auto lexed = lex_source(source, language);
  std::vector<std::string> lines(lexed.size());
  std::string all;
  for (std::size_t i = 0; i < lexed.size(); ++i) {
    lines[i] = code_of(lexed[i], language).c;
    all += lines[i] + '\n';
  }
  const auto constants = c_integer_constants(all);
  const auto arrays = shared_arrays(lines, constants);
  if (arrays.empty()) return out;
  Reads reads;
  const auto ranges = ranges_of(lines, constants, reads);
  const auto guards = guards_of_lines(lines);
  for (const auto &a : arrays) {
    const text::Regex use(R"re((?<![\w.]))re" + a.name + R"re(\s*(\[))re");
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].find("__shared__") != std::string::npos) continue;
      for (const auto &m : use.find_all(lines[i])) {
        std::size_t open = m.end - 1;
        for (std::size_t d = 0; d < a.sizes.size(); ++d) {
          auto close = matching_bracket(lines[i], open);
          if (!close) break;
          std::string index(text::strip(std::string_view(lines[i]).substr(open + 1, *close - open - 1)));
          auto r = range_of(index, ranges, i, constants);
          if (r && r->hi >= a.sizes[d]) {
            // Guarded by a condition on the index or on what it is made of.
            Names made_of = variables_in(index, constants);
            for (std::size_t round = 0; round < 3; ++round)
              for (const auto &n : Names(made_of))
                if (auto r1 = reads.find(n); r1 != reads.end()) made_of.insert(r1->second.begin(), r1->second.end());
            bool guarded = false;
            for (const auto &g : variables_in(guards[i], constants)) guarded = guarded || made_of.count(g);
            if (!guarded) out.push_back({i + 1, a.name, a.extents[d], a.sizes[d], index, r->hi});
          }
          auto next = lines[i].find_first_not_of(" \t", *close + 1);
          if (next == std::string::npos || lines[i][next] != '[') break;
          open = next;
        }
      }
    }
  }
  return out;
}

std::vector<SharedStaging> shared_stagings(std::string_view source, Language language,
                                           const std::vector<std::string> &pointers) {
  std::vector<SharedStaging> out;
  if (source.find("__shared__") == std::string_view::npos || pointers.empty()) return out;
  const auto lexed = lex_source(source, language);
  std::vector<std::string> lines(lexed.size());
  for (std::size_t i = 0; i < lexed.size(); ++i) lines[i] = code_of(lexed[i], language).c;
  std::string alternation;
  for (const auto &p : pointers) alternation += (alternation.empty() ? "" : "|") + ("\\Q" + p + "\\E");
  const text::Regex pointer("(?<![\\w.])(" + alternation + ")(?![\\w])");
  for (const auto &l : lines)
    for (const auto &m : shared_declaration().find_all(l)) {
      const std::string name(m[1]);
      // `s_bias[i] = ... bias ...;`: a store into the array whose value
      // reads the pointer.
      const text::Regex store("(?<![\\w.])" + name + R"re(\s*(?:\[[^\]]*\]\s*)+=(?!=)([^;]*))re");
      for (std::size_t i = 0; i < lines.size(); ++i) {
        bool found = false;
        for (const auto &st : store.find_all(lines[i]))
          if (auto p = pointer.search(st[1])) {
            out.push_back({i + 1, name, std::string((*p)[1])});
            found = true;
            break;
          }
        if (found) break;
      }
    }
  return out;
}

} // namespace otm::code
