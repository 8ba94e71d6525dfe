#include "code/module_outline.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "code/identifiers.hpp"
#include "code/source_lexer.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string name_at(std::string_view code, IdentifierSpan t) {
  return std::string(code.substr(t.begin, t.end - t.begin));
}

bool is_python_keyword(std::string_view w) {
  static const std::set<std::string, std::less<>> kw = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return kw.count(w) > 0;
}

// Bracket depth before each byte of `code` (Python or C brackets alike).
std::vector<int> depths(std::string_view code) {
  std::vector<int> d(code.size() + 1, 0);
  int depth = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    d[i] = depth;
    char c = code[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
  }
  d[code.size()] = depth;
  return d;
}

// The names `code` reads: identifiers but attributes (after `.`, `->`,
// `::`), keyword-argument names (`f(x, num_warps=8)`) and string prefixes
// (`r"""`).
void collect_reads(std::string_view code, std::set<std::string> &out, bool python) {
  auto depth = depths(code);
  for (auto t : identifier_spans(code)) {
    std::size_t p = t.begin;
    while (p > 0 && is_space(code[p - 1])) --p;
    if (p > 0 && code[p - 1] == '.') continue;
    // A C member (`p->field`, `ns::name`); in Python `-> Tuple[...]` is a
    // return annotation, which reads the name.
    if (p > 1 && ((!python && code.substr(p - 2, 2) == "->") || code.substr(p - 2, 2) == "::")) continue;
    std::size_t q = t.end;
    if (q < code.size() && (code[q] == '"' || code[q] == '\'')) continue;
    while (q < code.size() && is_space(code[q])) ++q;
    bool keyword_arg = depth[t.begin] > 0 && q < code.size() && code[q] == '=' &&
                       (q + 1 >= code.size() || code[q + 1] != '=') && p > 0 &&
                       (code[p - 1] == '(' || code[p - 1] == ',');
    if (keyword_arg) continue;
    auto name = name_at(code, t);
    if (python && is_python_keyword(name)) continue;
    out.insert(std::move(name));
  }
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    auto p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return out;
}

// `import a.b as c, d` / `from m import (x, y as z)`: the names bound.
void import_binds(std::string_view stmt, std::vector<std::string> &binds, bool &wildcard) {
  std::string flat;
  for (char c : stmt)
    if (c != '(' && c != ')' && c != '\\') flat += is_space(c) ? ' ' : c;
  std::string_view s = trim(flat);
  std::string_view names;
  bool from = s.starts_with("from ");
  if (from) {
    auto at = s.find(" import ");
    if (at == std::string_view::npos) return;
    names = s.substr(at + 8);
  } else if (s.starts_with("import ")) {
    names = s.substr(7);
  } else {
    return;
  }
  for (auto part : split(names, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    if (part == "*") {
      wildcard = true;
      continue;
    }
    auto as = part.find(" as ");
    if (as != std::string_view::npos) {
      binds.emplace_back(trim(part.substr(as + 4)));
      continue;
    }
    auto dot = part.find('.');
    binds.emplace_back(from ? part : part.substr(0, dot));
  }
}

// Positions of the assignment operators of one statement line at bracket
// depth 0 (`=`, `+=`, `:=` …, not `==`, `<=`, `>=`, `!=`).
std::vector<std::size_t> assignment_ops(std::string_view code, const std::vector<int> &depth, std::size_t from,
                                        std::size_t to) {
  std::vector<std::size_t> out;
  for (std::size_t i = from; i < to; ++i) {
    if (code[i] != '=' || depth[i] != 0) continue;
    if (i + 1 < code.size() && code[i + 1] == '=') {
      ++i;
      continue;
    }
    char prev = i > 0 ? code[i - 1] : ' ';
    if (prev == '=' || prev == '!' || prev == '<' || prev == '>') continue;
    out.push_back(i);
  }
  return out;
}

// The names an assignment target binds (`a, (b, c)`, `x: int`, `X[k]`,
// `X.attr`). At module level an item assignment or attribute store belongs
// with the name it changes; inside a function (`stores_bind` false) it binds
// nothing: `_CACHE[n] = v` reads the module's `_CACHE`.
void target_binds(std::string_view target, std::vector<std::string> &out, bool stores_bind = true) {
  std::string t;
  int square = 0;
  for (char c : target) {
    if (c == '[') {
      if (square == 0 && !stores_bind) t += '[';
      ++square;
    }
    if (square == 0) t += c;
    if (c == ']' && square > 0) --square;
  }
  // A one-line block (`if ready: x = 1`): the target follows its colon.
  static const text::Regex block_head(R"(^\s*(?:if|elif|else|while|for|with|try|except|finally)\b)");
  if (block_head.contains(t)) {
    auto colon = t.rfind(':');
    t = colon == std::string::npos ? std::string() : t.substr(colon + 1);
  }
  // An annotation (`x: int`) is read, not bound.
  auto colon = t.find(':');
  if (colon != std::string::npos) t.resize(colon);
  std::string_view v = t;
  for (auto tok : identifier_spans(v)) {
    std::size_t p = tok.begin;
    while (p > 0 && is_space(v[p - 1])) --p;
    if (p > 0 && v[p - 1] == '.') continue;
    if (!stores_bind) {
      std::size_t q = tok.end;
      while (q < v.size() && is_space(v[q])) ++q;
      if (q < v.size() && (v[q] == '[' || v[q] == '.')) continue;
    }
    auto name = name_at(v, tok);
    if (!is_python_keyword(name)) out.push_back(std::move(name));
  }
}

// Every name a block of Python code binds for itself: assignment targets,
// loop and comprehension variables, `as` names, imports, nested defs and
// classes, parameters of its defs and lambdas; `global`/`nonlocal` names
// are returned apart (they are not its own).
struct Bindings {
  std::set<std::string> names, global;
};
Bindings block_bindings(std::string_view code) {
  static const text::Regex def(R"(\b(?:def|class)\s+([A-Za-z_]\w*))");
  static const text::Regex for_in(R"(\bfor\s+(.+?)\s+in\b)");
  static const text::Regex as(R"(\bas\s+\(?\s*([A-Za-z_][\w\s,]*))");
  static const text::Regex walrus(R"(([A-Za-z_]\w*)\s*:=)");
  static const text::Regex lambda(R"(\blambda\b([^:]*):)");
  static const text::Regex global(R"(^\s*(?:global|nonlocal)\s+(.+)$)");
  static const text::Regex import_line(R"(^\s*(?:import|from)\s)");
  Bindings b;
  auto depth = depths(code);
  auto add_names = [&](std::string_view text) {
    std::vector<std::string> names;
    target_binds(text, names);
    b.names.insert(names.begin(), names.end());
  };
  // An assignment's target: an item or attribute store binds no local.
  auto add_targets = [&](std::string_view text) {
    std::vector<std::string> names;
    target_binds(text, names, false);
    b.names.insert(names.begin(), names.end());
  };
  std::size_t start = 0;
  while (start <= code.size()) {
    auto nl = code.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? code.size() : nl;
    auto line = code.substr(start, end - start);
    if (depth[start] == 0) {
      if (auto m = global.search(line)) {
        for (auto n : split((*m)[1], ',')) b.global.insert(std::string(trim(n)));
      } else if (import_line.contains(line)) {
        std::vector<std::string> names;
        bool wild = false;
        // An import inside a block: up to the line's end (parenthesised lists rarely nest here).
        import_binds(trim(line), names, wild);
        b.names.insert(names.begin(), names.end());
      } else {
        std::size_t from = start;
        for (auto op : assignment_ops(code, depth, start, end)) {
          std::size_t target_end = op;
          while (target_end > from &&
                 std::string_view("+-*/%&|^@<>:").find(code[target_end - 1]) != std::string_view::npos)
            --target_end;
          auto target = code.substr(from, target_end - from);
          // target_binds reads a one-line block's target after its colon.
          if (!trim(target).empty()) add_targets(target);
          from = op + 1;
        }
      }
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  def.for_each_match(code, [&](const text::Match &m) { b.names.insert(std::string(m[1])); });
  for_in.for_each_match(code, [&](const text::Match &m) { add_names(m[1]); });
  as.for_each_match(code, [&](const text::Match &m) { add_names(m[1]); });
  walrus.for_each_match(code, [&](const text::Match &m) { b.names.insert(std::string(m[1])); });
  lambda.for_each_match(code, [&](const text::Match &m) {
    for (auto piece : split(m[1], ',')) {
      piece = trim(piece);
      while (!piece.empty() && piece.front() == '*') piece.remove_prefix(1);
      auto ids = identifier_spans(piece);
      if (!ids.empty() && ids.front().begin == 0) b.names.insert(name_at(piece, ids.front()));
    }
  });
  // Parameters of every def: the leading name of each top-level piece of its list.
  static const text::Regex def_open(R"(\bdef\s+[A-Za-z_]\w*\s*\()");
  def_open.for_each_match(code, [&](const text::Match &m) {
    std::size_t open = m.end - 1;
    int d = 0;
    std::size_t piece = open + 1;
    for (std::size_t i = open; i < code.size(); ++i) {
      char c = code[i];
      if (c == '(' || c == '[' || c == '{') ++d;
      bool close = c == ')' || c == ']' || c == '}';
      if (close) --d;
      if ((c == ',' && d == 1) || (close && d == 0)) {
        auto p = trim(code.substr(piece, i - piece));
        while (!p.empty() && p.front() == '*') p.remove_prefix(1);
        auto ids = identifier_spans(p);
        if (!ids.empty() && ids.front().begin == 0) b.names.insert(name_at(p, ids.front()));
        piece = i + 1;
      }
      if (close && d == 0) break;
    }
  });
  for (const auto &g : b.global) b.names.erase(g);
  return b;
}

// Comprehension and lambda variables of code at module level.
std::set<std::string> inner_bindings(std::string_view code) {
  static const text::Regex for_in(R"(\bfor\s+(.+?)\s+in\b)");
  static const text::Regex lambda(R"(\blambda\b([^:]*):)");
  std::set<std::string> out;
  auto add = [&](std::string_view text) {
    std::vector<std::string> names;
    target_binds(text, names);
    out.insert(names.begin(), names.end());
  };
  for_in.for_each_match(code, [&](const text::Match &m) { add(m[1]); });
  lambda.for_each_match(code, [&](const text::Match &m) {
    for (auto piece : split(m[1], ',')) {
      piece = trim(piece);
      while (!piece.empty() && piece.front() == '*') piece.remove_prefix(1);
      auto ids = identifier_spans(piece);
      if (!ids.empty() && ids.front().begin == 0) out.insert(name_at(piece, ids.front()));
    }
  });
  return out;
}

std::string joined_python(const ModuleOutline &o, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += '\n';
    out += o.lines[i].python;
  }
  return out;
}

void fill_statement(ModuleOutline &o, PythonStatement &s) {
  static const text::Regex def(R"(^(?:async\s+)?def\s+([A-Za-z_]\w*))");
  static const text::Regex cls(R"(^class\s+([A-Za-z_]\w*))");
  static const text::Regex main_guard(R"(^if\s+__name__\s*==)");
  static const text::Regex compound(R"(^(?:if|try|with|for|while|match|async\s+(?:with|for))\b)");
  auto head = trim(o.lines[s.header].python);
  std::string code = joined_python(o, s.header, s.end);
  std::string decorators = joined_python(o, s.begin, s.header);
  if (head.starts_with("import ") || head.starts_with("from ")) {
    s.kind = PythonStatement::Kind::Import;
    import_binds(code, s.binds, s.wildcard);
    return; // an import reads nothing a module defines
  }
  if (auto m = def.search(head)) {
    s.kind = PythonStatement::Kind::Function;
    s.name = std::string((*m)[1]);
  } else if (auto m = cls.search(head)) {
    s.kind = PythonStatement::Kind::Class;
    s.name = std::string((*m)[1]);
  } else if (main_guard.contains(head)) {
    s.kind = PythonStatement::Kind::MainGuard;
  } else if (compound.contains(head)) {
    s.kind = PythonStatement::Kind::Compound;
  } else {
    auto depth = depths(code);
    auto first_nl = code.find('\n');
    auto ops = assignment_ops(code, depth, 0, first_nl == std::string::npos ? code.size() : first_nl);
    // The first line's operators: a later line of the statement is inside
    // brackets (a keyword argument, not an assignment) or after a backslash.
    s.kind = ops.empty() ? PythonStatement::Kind::Expression : PythonStatement::Kind::Assignment;
    std::size_t from = 0;
    for (auto op : ops) {
      std::size_t target_end = op;
      while (target_end > from && std::string_view("+-*/%&|^@<>:").find(code[target_end - 1]) != std::string_view::npos)
        --target_end;
      target_binds(std::string_view(code).substr(from, target_end - from), s.binds);
      from = op + 1;
    }
  }
  if (s.kind == PythonStatement::Kind::Function || s.kind == PythonStatement::Kind::Class) {
    s.binds.push_back(s.name);
    std::set<std::string> reads;
    collect_reads(code, reads, true);
    auto own = block_bindings(code);
    for (const auto &n : own.names) reads.erase(n);
    reads.erase(s.name);
    std::set<std::string> decorator_reads;
    collect_reads(decorators, decorator_reads, true);
    for (const auto &n : inner_bindings(decorators)) decorator_reads.erase(n);
    reads.insert(decorator_reads.begin(), decorator_reads.end());
    s.reads = std::move(reads);
  } else {
    std::set<std::string> own_names;
    if (s.kind == PythonStatement::Kind::Compound || s.kind == PythonStatement::Kind::MainGuard)
      own_names = block_bindings(code).names;
    // A main guard binds nothing the module sees on import, but its own
    // reads of what it assigns are bound (`out = f(x)` then `print(out)`).
    if (s.kind == PythonStatement::Kind::Compound) s.binds.assign(own_names.begin(), own_names.end());
    collect_reads(code, s.reads, true);
    for (const auto &n : inner_bindings(code)) s.reads.erase(n);
    if (s.kind == PythonStatement::Kind::MainGuard)
      for (const auto &n : own_names) s.reads.erase(n);
  }
  std::sort(s.binds.begin(), s.binds.end());
  s.binds.erase(std::unique(s.binds.begin(), s.binds.end()), s.binds.end());
}

// The C items of the embedded source lines of statement `k`.
void c_items_of(ModuleOutline &o, const std::vector<std::string_view> &text, std::size_t k) {
  static const text::Regex define(R"(^#\s*define\s+([A-Za-z_]\w*)(\([^)]*\))?)");
  static const text::Regex include(R"(^(?:#\s*(?:include|pragma|if|ifdef|ifndef|elif|else|endif|undef|error|line)\b|)"
                                   R"(using\s+namespace\b))");
  static const text::Regex type(R"(\b(?:struct|class|union|enum)\s+(?:class\s+|struct\s+)?([A-Za-z_]\w*))");
  static const text::Regex typedef_(R"(^typedef\b.*\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;?$)");
  static const text::Regex using_(R"(^using\s+([A-Za-z_]\w*)\s*=)");
  static const text::Regex call(R"(\b([A-Za-z_]\w*)\s*\()");
  const auto &s = o.statements[k];
  std::size_t i = s.begin;
  auto c_of = [&](std::size_t line) { return trim(o.lines[line].c); };
  while (i < s.end) {
    auto code = c_of(i);
    if (code.empty()) {
      ++i;
      continue;
    }
    CItem item;
    item.statement = k;
    item.begin = i;
    std::string all;
    if (code.front() == '#') {
      std::size_t j = i;
      while (j + 1 < s.end && trim(text[j]).ends_with("\\")) ++j;
      for (std::size_t l = i; l <= j; ++l) all += std::string(c_of(l)) + " ";
      item.end = j + 1;
      std::string_view a = trim(all);
      if (auto m = define.search(a)) {
        item.kind = CItem::Kind::Define;
        item.binds.emplace_back((*m)[1]);
        collect_reads(a.substr(m->end), item.reads, false);
        if (!(*m)[2].empty())
          for (auto t : identifier_spans((*m)[2])) item.reads.erase(name_at((*m)[2], t));
      } else {
        item.kind = CItem::Kind::Include;
      }
      item.head = std::string(a);
    } else {
      int depth = 0;
      bool braced = false;
      std::size_t j = i;
      for (; j < s.end; ++j) {
        auto c = c_of(j);
        all += std::string(c) + "\n";
        for (char ch : c) {
          if (ch == '{') ++depth, braced = true;
          if (ch == '}' && depth > 0) --depth;
        }
        if (depth == 0 && !c.empty() && (c.back() == ';' || (braced && c.back() == '}'))) break;
        // `using namespace x;` and friends end at their `;` above; a
        // directive line inside a declaration is left in it.
      }
      item.end = std::min(j + 1, s.end);
      std::string_view a = all;
      auto brace = a.find('{');
      std::string head;
      for (char ch : a.substr(0, brace == std::string_view::npos ? a.find(';') : brace))
        if (!is_space(ch) || (!head.empty() && head.back() != ' ')) head += is_space(ch) ? ' ' : ch;
      item.head = std::string(trim(head));
      std::string_view h = item.head;
      // `template <class T>` names no type of its own.
      static const text::Regex template_head(R"(^template\s*<[^>]*>\s*)");
      if (auto t = template_head.search(h)) h.remove_prefix(t->end);
      auto paren = h.find('(');
      if (include.contains(h)) {
        item.kind = CItem::Kind::Include;
      } else if (auto m = using_.search(h)) {
        item.kind = CItem::Kind::Type;
        item.binds.emplace_back((*m)[1]);
      } else if (h.starts_with("typedef")) {
        item.kind = CItem::Kind::Type;
        auto decl = trim(a.substr(0, a.rfind(';')));
        if (auto m = typedef_.search(decl)) item.binds.emplace_back((*m)[1]);
      } else if (auto m = type.search(h); m && (paren == std::string_view::npos || m->begin < paren)) {
        item.kind = CItem::Kind::Type;
        item.binds.emplace_back((*m)[1]);
      } else if (paren != std::string_view::npos) {
        item.kind = braced ? CItem::Kind::Function : CItem::Kind::Declaration;
        for (const auto &m : call.find_all(h)) {
          std::string_view n = m[1];
          if (n.starts_with("__") || n == "alignas" || n == "decltype" || n == "sizeof" || n == "operator") continue;
          item.binds.emplace_back(n);
          break;
        }
        if (item.binds.empty()) item.kind = CItem::Kind::Other;
      } else {
        item.kind = CItem::Kind::Declaration;
        auto stop = h.find_first_of("=[;");
        auto ids = identifier_spans(h.substr(0, stop));
        if (!ids.empty()) item.binds.push_back(name_at(h, ids.back()));
      }
      if (item.kind != CItem::Kind::Include) collect_reads(all, item.reads, false);
    }
    for (const auto &b : item.binds) item.reads.erase(b);
    o.c_items.push_back(std::move(item));
    i = o.c_items.back().end;
  }
}

} // namespace

ModuleOutline outline_module(std::string_view source) {
  ModuleOutline o;
  std::vector<std::string_view> text;
  {
    std::size_t start = 0;
    while (start < source.size()) {
      auto nl = source.find('\n', start);
      if (nl == std::string_view::npos) {
        text.push_back(source.substr(start));
        break;
      }
      text.push_back(source.substr(start, nl - start));
      start = nl + 1;
    }
  }
  const std::size_t n = text.size();
  o.lines.resize(n);
  std::vector<bool> starts(n, false), embedded_any(n, false);
  std::vector<LineKind> kinds(n, LineKind::Blank);
  {
    SourceLexer lexer(Language::Python);
    bool continued = false;
    for (std::size_t i = 0; i < n; ++i) {
      bool in_string = lexer.in_string();
      int depth = lexer.bracket_depth();
      auto spans = lexer.lex_line(text[i]);
      kinds[i] = classify_line(text[i], spans);
      auto &l = o.lines[i];
      l.in_string = in_string;
      l.blank = kinds[i] == LineKind::Blank;
      for (const auto &sp : spans) {
        if (sp.embedded) embedded_any[i] = true;
        if (sp.kind != SpanKind::Code) {
          if (!sp.embedded && sp.kind == SpanKind::String) l.python += ' ';
          continue;
        }
        auto part = text[i].substr(sp.begin, sp.end - sp.begin);
        (sp.embedded ? l.c : l.python).append(part);
        (sp.embedded ? l.c : l.python) += ' ';
      }
      bool first_is_code = !text[i].empty() && !is_space(text[i][0]) && !spans.empty() && spans.front().begin == 0 &&
                           spans.front().kind != SpanKind::Comment && !spans.front().embedded;
      starts[i] = !in_string && depth == 0 && !continued && first_is_code;
      auto py = trim(l.python);
      continued = !py.empty() && py.ends_with("\\");
    }
  }

  // Statements: a start line opens one, but for a clause of the one before
  // (else, elif, except, finally); decorators join the def or class below.
  static const text::Regex clause(R"(^(?:else|elif|except|finally)\b)");
  bool decorating = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!starts[i]) continue;
    auto py = trim(o.lines[i].python);
    if (!o.statements.empty() && clause.contains(py)) continue;
    bool decorator = py.starts_with("@");
    if (decorating) {
      if (!decorator) {
        o.statements.back().header = i;
        decorating = false;
      }
      continue;
    }
    PythonStatement s;
    s.begin = s.header = i;
    decorating = decorator;
    o.statements.push_back(std::move(s));
  }
  if (decorating) o.statements.pop_back(); // decorators of nothing
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    auto &s = o.statements[k];
    std::size_t end = k + 1 < o.statements.size() ? o.statements[k + 1].begin : n;
    while (end > s.header + 1 && !o.lines[end - 1].in_string &&
           (kinds[end - 1] == LineKind::Blank || kinds[end - 1] == LineKind::Comment))
      --end;
    s.end = end;
    for (std::size_t i = s.begin; i < s.end; ++i) s.holds_source = s.holds_source || embedded_any[i];
    fill_statement(o, s);
  }
  for (std::size_t k = 0; k < o.statements.size(); ++k)
    if (o.statements[k].holds_source) c_items_of(o, text, k);
  return o;
}

} // namespace otm::code
