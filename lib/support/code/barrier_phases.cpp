#include "code/barrier_phases.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/source_reading.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {

namespace {

using Names = std::set<std::string>;

Names names_read_in(std::string_view code) {
  static const text::Regex name(R"((?<![\w.])([A-Za-z_]\w*)(?!\s*=[^=]))");
  Names out;
  for (const auto &m : name.find_all(code)) out.insert(std::string(m[1]));
  return out;
}

// One logical line of a function body: its indentation, its code (strings
// and comments left out, continuation lines joined) and the loops around it.
struct Statement {
  std::size_t indent = 0;
  std::string code;
  std::string raw;                // its first line as written, stripped
  std::vector<std::size_t> loops; // indices into Body::loops, outermost first
};

struct Loop {
  std::size_t header = 0; // its statement
  std::string head;
  Names vars, reads; // what it binds per iteration; what its iterable reads
};

struct Assignment {
  std::size_t statement = 0;
  std::string name;
  Names reads;
  bool augmented = false;
};

struct Body {
  std::vector<Statement> statements;
  std::vector<Loop> loops;
  std::vector<Assignment> assignments;
  bool inside(std::size_t statement, std::size_t loop) const {
    const auto &l = statements[statement].loops;
    return std::find(l.begin(), l.end(), loop) != l.end();
  }
};

std::size_t indentation(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

// What a complete statement binds and reads, and the loop it opens.
void read_statement(Body &b, std::vector<std::size_t> &open) {
  static const text::Regex for_head(R"(^(?:async\s+)?for\s+(.+?)\s+in\s+(.*):\s*$)");
  static const text::Regex while_head(R"(^while\b(.*):\s*$)");
  static const text::Regex plain(R"(^([A-Za-z_][\w\s,]*?)\s*(?::\s*[\w.\s]+?)?\s*=(?!=)\s*(.*)$)");
  static const text::Regex augmented(R"(^([A-Za-z_]\w*)\s*(?:\+|-|\*|//|/|%|\^|\||&|<<|>>)=\s*(.*)$)");
  const std::size_t at = b.statements.size() - 1;
  const auto &s = b.statements.back();
  auto loop = [&](Names vars, Names reads) {
    b.loops.push_back(Loop{at, s.raw, std::move(vars), std::move(reads)});
    open.push_back(b.loops.size() - 1);
  };
  if (auto m = for_head.search(s.code))
    loop(names_read_in((*m)[1]), names_read_in((*m)[2]));
  else if (auto w = while_head.search(s.code))
    loop({}, names_read_in((*w)[1]));
  else if (auto a = augmented.search(s.code))
    b.assignments.push_back(Assignment{at, std::string((*a)[1]), names_read_in((*a)[2]), true});
  else if (auto p = plain.search(s.code))
    for (const auto &target : names_read_in((*p)[1]))
      b.assignments.push_back(Assignment{at, target, names_read_in((*p)[2]), false});
}

Body read_body(const ModuleOutline &outline, const std::vector<std::string_view> &raw, std::size_t begin,
               std::size_t end) {
  Body b;
  std::vector<std::size_t> open; // the loops around the statement being read
  int depth = 0;
  for (std::size_t i = begin; i < end && i < outline.lines.size() && i < raw.size(); ++i) {
    std::string_view code = text::strip(outline.lines[i].python);
    if (code.empty()) continue;
    if (depth > 0 && !b.statements.empty()) {
      b.statements.back().code += " " + std::string(code);
    } else {
      Statement s;
      s.indent = indentation(raw[i]);
      s.code = std::string(code);
      s.raw = std::string(text::strip(raw[i]));
      while (!open.empty() && s.indent <= b.statements[b.loops[open.back()].header].indent) open.pop_back();
      s.loops = open;
      b.statements.push_back(std::move(s));
    }
    depth += bracket_balance(code);
    if (depth <= 0) {
      depth = 0;
      read_statement(b, open);
    }
  }
  return b;
}

// The text of the call's argument `n` (0-based) after `open` (the index of
// its opening parenthesis), top-level commas only; "" when there is none.
std::string argument(std::string_view code, std::size_t open, std::size_t n) {
  int depth = 0;
  std::size_t begin = open + 1, k = 0;
  for (std::size_t i = open + 1; i < code.size(); ++i) {
    char ch = code[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if ((ch == ')' || ch == ']' || ch == '}') && depth-- == 0)
      return k == n ? std::string(text::strip(code.substr(begin, i - begin))) : "";
    if (ch == ',' && depth == 0) {
      if (k == n) return std::string(text::strip(code.substr(begin, i - begin)));
      ++k, begin = i + 1;
    }
  }
  return "";
}

// The names `expression` (read at statement `at`) depends on, through the
// assignments before it and the iterables of the loops binding them.
Names depends_on(const Body &b, const Names &reads, std::size_t at) {
  Names seen;
  std::vector<std::pair<std::string, std::size_t>> unvisited;
  for (const auto &n : reads) unvisited.emplace_back(n, at);
  while (!unvisited.empty()) {
    auto [name, where] = unvisited.back();
    unvisited.pop_back();
    if (!seen.insert(name).second) continue;
    const Assignment *last = nullptr;
    for (const auto &a : b.assignments)
      if (a.name == name && !a.augmented && a.statement < where) last = &a;
    if (last)
      for (const auto &r : last->reads) unvisited.emplace_back(r, last->statement);
    for (std::size_t l : b.statements[where].loops)
      if (b.loops[l].vars.count(name))
        for (const auto &r : b.loops[l].reads) unvisited.emplace_back(r, b.loops[l].header);
  }
  return seen;
}

std::optional<PhaseRestart> restart_in(const Body &b) {
  static const text::Regex init(R"(\bmbarrier\s*\.\s*init\s*\(\s*([A-Za-z_]\w*))");
  static const text::Regex wait(R"(\bmbarrier\s*\.\s*wait\s*(\())");
  static const text::Regex barrier(R"(^([A-Za-z_]\w*))");
  for (std::size_t w = 0; w < b.statements.size(); ++w) {
    const auto &s = b.statements[w];
    auto m = wait.search(s.code);
    if (!m || s.loops.size() < 2) continue;
    const std::size_t paren = m->begin + (m->groups[0]->size() - 1);
    const std::string first = argument(s.code, paren, 0); // the match views it
    auto bar = barrier.search(first);
    std::string phase = argument(s.code, paren, 1);
    if (!bar || phase.empty()) continue;
    const std::string name((*bar)[1]);
    // Its initialisation: the loops it is outside of are the barrier's life.
    std::optional<std::size_t> initialised;
    for (std::size_t i = 0; i < w; ++i)
      if (auto in = init.search(b.statements[i].code); in && (*in)[1] == name) initialised = i;
    if (!initialised) continue;
    std::vector<std::size_t> life;
    for (std::size_t l : s.loops)
      if (!b.inside(*initialised, l)) life.push_back(l);
    if (life.size() < 2) continue; // one loop: its counter is the barrier's
    const std::size_t tiles = life.front(), inner = life.back();
    const Names phase_reads = names_read_in(phase);
    if (phase_reads.empty()) continue;
    const Names deps = depends_on(b, phase_reads, w);
    bool carried = false;
    for (std::size_t l : life)
      if (l != inner)
        for (const auto &v : b.loops[l].vars) carried = carried || deps.count(v);
    for (const auto &a : b.assignments) {
      if (!deps.count(a.name) || !b.inside(a.statement, tiles)) continue;
      // Counted across tiles: `it += 1`, `phase = phase ^ 1`, or bound
      // before the tile loop and again inside it.
      bool before = false;
      for (const auto &o : b.assignments) before = before || (o.name == a.name && !b.inside(o.statement, tiles));
      carried = carried || a.augmented || a.reads.count(a.name) || before;
    }
    if (carried) continue;
    // The phase as written: the wait's argument, or the one assignment of it.
    std::string shown = phase;
    if (phase_reads.size() == 1)
      for (const auto &a : b.assignments)
        if (a.name == *phase_reads.begin() && a.statement < w) {
          auto eq = b.statements[a.statement].raw.find('=');
          if (eq != std::string::npos) shown = std::string(text::strip(b.statements[a.statement].raw.substr(eq + 1)));
        }
    return PhaseRestart{name, shown, b.loops[tiles].head};
  }
  return std::nullopt;
}

} // namespace

std::string PhaseRestart::why() const {
  return "waits on the mbarrier `" + barrier + "` with the phase `" + phase +
         "`, which starts again with every iteration of `" + tile_loop + "` while `" + barrier +
         "` is initialised once before that loop: after a tile that completes a stage an odd number of times, the "
         "next tile's wait sees its parity already and returns before the data lands (a race a correctness check "
         "need not catch)";
}

std::optional<PhaseRestart> barrier_phase_restarted_per_tile(std::string_view source) {
  if (source.find("mbarrier") == std::string_view::npos) return std::nullopt;
  auto outline = outline_module(source);
  const auto raw = text::split_lines(source);
  for (const auto &s : outline.statements) {
    if (!is_jit_function(outline, s)) continue;
    if (auto r = restart_in(read_body(outline, raw, s.header + 1, s.end))) return r;
  }
  return std::nullopt;
}

} // namespace otm::code
