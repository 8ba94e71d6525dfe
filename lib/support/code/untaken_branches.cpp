#include "code/untaken_branches.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "code/c_constants.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

// The lines joined, and where each starts.
struct Joined {
  std::string text;
  std::vector<std::size_t> starts;
  std::size_t line_of(std::size_t pos) const {
    return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), pos) - starts.begin()) - 1;
  }
};

Joined join(const std::vector<std::string> &lines) {
  Joined j;
  for (const auto &l : lines) {
    j.starts.push_back(j.text.size());
    j.text += l;
    j.text += '\n';
  }
  return j;
}

// Where the bracket opened at `open` closes (the index of its closer), or npos.
std::size_t closing(const std::string &s, std::size_t open) {
  const char o = s[open], c = o == '(' ? ')' : o == '{' ? '}' : o == '<' ? '>' : ']';
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i;
  }
  return std::string::npos;
}

// The end (one past the closer) of the statement or block starting at or after `pos`.
std::size_t statement_end(const std::string &s, std::size_t pos) {
  while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  if (pos >= s.size()) return std::string::npos;
  if (s[pos] == '{') {
    auto c = closing(s, pos);
    return c == std::string::npos ? c : c + 1;
  }
  int depth = 0;
  for (std::size_t i = pos; i < s.size(); ++i) {
    if (s[i] == '(' || s[i] == '{' || s[i] == '[') ++depth;
    if (s[i] == ')' || s[i] == '}' || s[i] == ']') --depth;
    if (s[i] == ';' && depth == 0) return i + 1;
  }
  return std::string::npos;
}

struct Template {
  std::string name, param;
  std::size_t header_begin, name_at, body_begin, body_end;
};

using Values = std::optional<std::set<long long>>; // nullopt: not all known

std::vector<Template> templates_of(const std::string &s) {
  static const text::Regex head(
      R"(\btemplate\s*<\s*(?:int|unsigned|unsigned\s+int|bool|size_t|long)\s+([A-Za-z_]\w*)\s*>)");
  static const text::Regex called(R"(\b([A-Za-z_]\w*)\s*\()");
  static const std::set<std::string, std::less<>> attributes = {"__launch_bounds__", "__align__", "alignas",
                                                                "__attribute__", "__declspec"};
  std::vector<Template> out;
  head.for_each_match(s, [&](const text::Match &m) {
    const auto brace = s.find_first_of("{;", m.end);
    if (brace == std::string::npos || s[brace] != '{') return;
    std::string_view header(s.data() + m.end, brace - m.end);
    static const text::Regex type_like(R"(\b(?:struct|class|union|using)\b)");
    if (type_like.contains(header)) return;
    std::optional<text::Match> name;
    called.for_each_match(header, [&](const text::Match &c) {
      if (!name && !attributes.count(c[1])) name = c;
    });
    if (!name) return;
    auto end = closing(s, brace);
    if (end == std::string::npos) return;
    out.push_back({std::string((*name)[1]), std::string(m[1]), m.begin, m.end + name->begin, brace, end});
  });
  return out;
}

// The values each template's parameter takes over the instantiations the
// source spells, to a fixed point through templates that instantiate others
// with their own parameter.
std::map<std::string, Values> instantiations(const std::string &s, const std::vector<Template> &templates,
                                             const CConstants &constants) {
  std::map<std::string, Values> values;
  std::set<std::string> ambiguous; // a name two templates define: not followed
  for (const auto &t : templates)
    if (!values.emplace(t.name, std::set<long long>{}).second) ambiguous.insert(t.name);
  for (const auto &n : ambiguous) values[n] = std::nullopt;
  auto enclosing = [&](std::size_t pos) -> const Template * {
    for (const auto &t : templates)
      if (pos > t.body_begin && pos < t.body_end) return &t;
    return nullptr;
  };
  struct Site {
    std::string callee;
    std::optional<long long> value;
    std::string via; // the template whose parameter it passes on
    bool unknown = false;
  };
  std::vector<Site> sites;
  for (const auto &t : templates) {
    if (ambiguous.count(t.name)) continue;
    const text::Regex use("\\b" + t.name + "\\b");
    use.for_each_match(s, [&](const text::Match &m) {
      if (std::any_of(templates.begin(), templates.end(), [&](const Template &d) { return d.name_at == m.begin; }))
        return; // its own definition
      std::size_t at = m.end;
      while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
      Site site{t.name, std::nullopt, "", false};
      if (at >= s.size() || s[at] != '<') {
        site.unknown = true; // a deduced call, a pointer taken: not followed
      } else {
        auto close = closing(s, at);
        std::string arg = close == std::string::npos ? "" : s.substr(at + 1, close - at - 1);
        static const text::Regex ident(R"(^\s*([A-Za-z_]\w*)\s*$)");
        const auto *in = enclosing(m.begin);
        auto id = ident.search(arg);
        if (auto v = evaluate_c_integer(arg, constants))
          site.value = v;
        else if (id && in && in->param == (*id)[1])
          site.via = in->name;
        else
          site.unknown = true;
      }
      sites.push_back(std::move(site));
    });
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto &site : sites) {
      auto &into = values[site.callee];
      if (!into) continue;
      auto forget = [&] {
        into = std::nullopt;
        changed = true;
      };
      if (site.unknown) {
        forget();
      } else if (site.value) {
        changed = into->insert(*site.value).second || changed;
      } else {
        const auto &from = values[site.via];
        if (!from) {
          forget();
          continue;
        }
        for (long long v : *from) changed = into->insert(v).second || changed;
      }
    }
  }
  // A template the source never instantiates may be the host's to use.
  for (auto &[name, v] : values)
    if (v && v->empty()) v = std::nullopt;
  return values;
}

bool holds(long long a, std::string_view op, long long b) {
  if (op == "==") return a == b;
  if (op == "!=") return a != b;
  if (op == ">=") return a >= b;
  if (op == "<=") return a <= b;
  if (op == ">") return a > b;
  return a < b;
}

} // namespace

std::vector<UntakenBranch> untaken_branches(const std::vector<std::string> &c_lines) {
  std::vector<UntakenBranch> out;
  const auto j = join(c_lines);
  const std::string &s = j.text;
  if (s.find("if") == std::string::npos) return out;
  const auto constants = c_integer_constants(s);
  const auto templates = templates_of(s);
  const auto values = instantiations(s, templates, constants);

  // The values a name has at `pos`: a constant's, or the enclosing template's parameter's.
  auto values_at = [&](const std::string &name, std::size_t pos) -> Values {
    for (const auto &t : templates)
      if (pos > t.body_begin && pos < t.body_end && t.param == name) {
        auto it = values.find(t.name);
        return it == values.end() ? std::nullopt : it->second;
      }
    if (auto c = constants.find(name); c != constants.end()) return std::set<long long>{c->second};
    return std::nullopt;
  };
  static const text::Regex if_head(R"(\bif\s*(?:constexpr\s*)?\()");
  static const text::Regex compare(R"(^\s*([A-Za-z_]\w*)\s*(==|!=|>=|<=|>|<)\s*(-?\d+)[uUlL]*\s*$)");
  static const text::Regex compare_reversed(R"(^\s*(-?\d+)[uUlL]*\s*(==|!=|>=|<=|>|<)\s*([A-Za-z_]\w*)\s*$)");
  static const text::Regex flag(R"(^\s*(!?)\s*([A-Za-z_]\w*)\s*$)");
  auto mirrored = [](std::string_view op) -> std::string {
    if (op == ">") return "<";
    if (op == "<") return ">";
    if (op == ">=") return "<=";
    if (op == "<=") return ">=";
    return std::string(op);
  };
  auto dead = [&](std::size_t begin, std::size_t end, const std::string &condition) {
    if (end == std::string::npos || end <= begin) return;
    out.push_back({j.line_of(begin), j.line_of(end - 1) + 1, condition});
  };
  if_head.for_each_match(s, [&](const text::Match &m) {
    std::size_t before = m.begin;
    while (before > 0 && (s[before - 1] == ' ' || s[before - 1] == '\t')) --before;
    if (before > 0 && s[before - 1] == '#') return; // `#if (...)`: the preprocessor's
    const std::size_t open = m.end - 1, close = closing(s, open);
    if (close == std::string::npos) return;
    const std::string cond = s.substr(open + 1, close - open - 1);
    std::string name, op;
    long long operand = 0;
    bool negated = false, is_flag = false;
    if (auto c = compare.search(cond)) {
      name = (*c)[1], op = (*c)[2], operand = std::stoll(std::string((*c)[3]));
    } else if (auto r = compare_reversed.search(cond)) {
      name = (*r)[3], op = mirrored((*r)[2]), operand = std::stoll(std::string((*r)[1]));
    } else if (auto f = flag.search(cond)) {
      name = (*f)[2], negated = !(*f)[1].empty(), is_flag = true;
    } else {
      return;
    }
    const auto vals = values_at(name, m.begin);
    if (!vals) return;
    bool any_true = false, all_true = true;
    for (long long v : *vals) {
      bool t = is_flag ? ((v != 0) != negated) : holds(v, op, operand);
      any_true = any_true || t;
      all_true = all_true && t;
    }
    const std::string written = std::string(m[0]) + cond + ")";
    const std::size_t then_end = statement_end(s, close + 1);
    if (!any_true) dead(m.begin, then_end, written);
    if (all_true && then_end != std::string::npos) {
      static const text::Regex else_kw(R"(^\s*else\b)");
      if (auto e = else_kw.search(std::string_view(s).substr(then_end)))
        dead(then_end + e->begin, statement_end(s, then_end + e->end), written);
    }
  });
  return out;
}

} // namespace otm::code
