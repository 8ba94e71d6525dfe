#include "code/shape_paths.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "code/cuda_launch.hpp"
#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/python_expr.hpp"
#include "code/top_level_split.hpp"
#include "error/error.hpp"
#include "text/lines.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {
namespace {

// One logical line of code: continuation lines joined, its comment cut,
// whitespace collapsed; `indent` is its first physical line's.
struct Line {
  std::size_t indent = 0;
  std::string code;
  bool operator==(const Line &) const = default;
};

std::size_t indent_of(std::string_view raw) {
  std::size_t n = 0;
  for (char ch : raw) {
    if (ch == ' ')
      ++n;
    else if (ch == '\t')
      n += 8 - n % 8;
    else
      break;
  }
  return n;
}

// The code of a physical line (comment cut outside quotes, whitespace
// collapsed) and how many brackets it leaves open.
std::string code_of(std::string_view raw, int &depth) {
  std::string out;
  char quote = 0;
  bool space = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char ch = raw[i];
    if (quote) {
      out += ch;
      if (ch == '\\' && i + 1 < raw.size())
        out += raw[++i];
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '#') break;
    if (ch == '\'' || ch == '"') quote = ch;
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += ch;
  }
  return out;
}

bool opens_docstring(const std::string &code) {
  static const text::Regex triple(R"(^[rRbBuU]?("""|'''))");
  return triple.contains(code);
}

// Lines [begin, end) of the file as logical lines; docstrings, blank and
// comment-only lines left out.
std::vector<Line> logical_lines(const std::vector<std::string_view> &raw, std::size_t begin, std::size_t end) {
  std::vector<Line> out;
  for (std::size_t i = begin; i < end && i < raw.size(); ++i) {
    int depth = 0;
    Line line{indent_of(raw[i]), code_of(raw[i], depth)};
    if (line.code.empty()) continue;
    if (opens_docstring(line.code)) {
      std::string mark = line.code.substr(line.code.find_first_of("\"'"), 3);
      if (line.code.find(mark, line.code.find(mark) + 3) != std::string::npos) continue;
      while (++i < end && i < raw.size() && raw[i].find(mark) == std::string_view::npos) {
      }
      continue;
    }
    while ((depth > 0 || line.code.back() == '\\') && i + 1 < end && i + 1 < raw.size()) {
      if (line.code.back() == '\\') line.code.pop_back();
      std::string more = code_of(raw[++i], depth);
      if (!more.empty())
        line.code += (line.code.empty() || line.code.back() == '(' || line.code.back() == '[' ? "" : " ") + more;
    }
    out.push_back(std::move(line));
  }
  return out;
}

// A kernel file this reading cannot follow; shapes_running_changed_code
// turns it into "no answer" for every shape.
struct CannotTell : Error {
  CannotTell() : Error(ErrorKind::UnreadableInput, "a kernel file whose launch otm cannot follow") {}
};

std::string_view text_trimmed(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// What of a module a shape's run depends on.
struct Module {
  std::string kernel;                  // the launched JIT function's name
  Line signature;                      // its `def ...:` line
  std::vector<Line> body;              // its body
  std::vector<Line> launcher;          // the launcher's body
  std::vector<Line> rest;              // everything else that runs
  std::set<std::string> params;        // the kernel's constexpr parameters
  std::vector<std::string> parameters; // every parameter, in the signature's order
  Bindings defaults;                   // constexpr parameters' defaults
  Bindings constants;                  // module-level `NAME = expr`
};

// `NAME = expr` (not `==`, not augmented), or `a, b = expr`.
const text::Regex &assignment() {
  static const text::Regex re(R"(^((?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$)");
  return re;
}

std::vector<std::string> names_in(const std::string &targets) {
  std::vector<std::string> out;
  static const text::Regex name(R"([A-Za-z_]\w*)");
  for (const auto &m : name.find_all(targets)) out.emplace_back(m[0]);
  return out;
}

// `torch.cuda.get_device_properties(0).multi_processor_count`,
// `props.multi_processor_count`: the device's SM count, which only the
// caller knows (the trace's product).
bool queries_sm_count(std::string_view expression) {
  static const text::Regex query(R"(^\s*[A-Za-z_][\w.]*(?:\([^()]*\))?(?:\.[A-Za-z_]\w*)*\.multi_processor_count\s*$)");
  return query.contains(expression);
}

// Which launch a reading follows. A change is read only where the
// launcher launches one kernel (which shapes take which launch is beyond
// this reading); a kernel's own defects (shared memory, unmasked tails) are
// read in the first kernel it launches, which every shape runs (round 14:
// split-KV decode with its reduce kernel after it).
enum class Launches { One, FirstOfSeveral };

Module read_module(std::string_view text, std::optional<long> sm_count = std::nullopt,
                   Launches launches = Launches::One) {
  auto outline = outline_module(text);
  auto raw = text::split_lines(text);
  Module m;
  for (const auto &s : outline.statements)
    if (s.holds_source || s.wildcard) throw CannotTell{}; // embedded C/C++: its changes are in strings
  // Whether a statement other than `self` (and `besides`) reads `name`.
  auto read_elsewhere = [&](const PythonStatement &self, const std::string &name,
                            const PythonStatement *besides = nullptr) {
    for (const auto &s : outline.statements)
      if (&s != &self && &s != besides && s.reads.count(name)) return true;
    return false;
  };
  // The launched kernel and its one launcher: `NAME[grid](...)`.
  const PythonStatement *kernel = nullptr, *launcher = nullptr;
  std::size_t first_at = std::string::npos; // where the chosen kernel's launch starts in its launcher
  for (const auto &k : outline.statements) {
    if (!is_jit_function(outline, k)) continue;
    const text::Regex launch("\\b" + k.name + R"(\s*\[)");
    for (const auto &f : outline.statements) {
      if (f.kind != PythonStatement::Kind::Function || is_jit_function(outline, f)) continue;
      std::string body;
      for (std::size_t i = f.header; i < f.end; ++i) body += std::string(raw[i]) + "\n";
      auto at = launch.search(body);
      if (!at) continue;
      if (kernel && (launches == Launches::One || launcher != &f)) throw CannotTell{};
      if (!kernel || at->begin < first_at) kernel = &k, launcher = &f, first_at = at->begin;
    }
  }
  if (!kernel) throw CannotTell{};
  m.kernel = kernel->name;
  auto k_lines = logical_lines(raw, kernel->header, kernel->end);
  if (k_lines.empty()) throw CannotTell{};
  m.signature = k_lines.front();
  m.body.assign(k_lines.begin() + 1, k_lines.end());
  static const text::Regex constexpr_param(
      R"(([A-Za-z_]\w*)\s*:\s*(?:[A-Za-z_]\w*\s*\.\s*)*constexpr\b(?:\s*=\s*([^,)]+))?)");
  if (auto open = m.signature.code.find('('); open != std::string::npos) {
    static const text::Regex parameter(R"(^\s*\**([A-Za-z_]\w*))");
    const std::size_t close = m.signature.code.rfind(')');
    if (close != std::string::npos && close > open)
      for (const auto &part : split_top_level(m.signature.code.substr(open + 1, close - open - 1), ','))
        if (auto name = parameter.search(part)) m.parameters.emplace_back((*name)[1]);
  }
  for (const auto &p : constexpr_param.find_all(m.signature.code)) {
    std::string name(p[1]);
    m.params.insert(name);
    if (p.has(2)) m.defaults[name] = eval_python(p[2], {}).value_or("?" + name);
  }
  auto l_lines = logical_lines(raw, launcher->header, launcher->end);
  if (l_lines.size() < 2) throw CannotTell{};
  m.launcher.assign(l_lines.begin() + 1, l_lines.end());
  for (const auto &s : outline.statements) {
    if (&s == kernel || &s == launcher) continue;
    auto lines = logical_lines(raw, s.begin, s.end);
    if (s.kind == PythonStatement::Kind::Assignment) {
      // A stamp nothing reads (`_TUNE_TAG = 0x2307`) runs nothing.
      bool read = false, read_beyond_the_launcher = false;
      for (const auto &b : s.binds) {
        read = read || read_elsewhere(s, b);
        read_beyond_the_launcher = read_beyond_the_launcher || read_elsewhere(s, b, launcher);
      }
      if (!read) continue;
      if (lines.size() == 1)
        if (auto a = assignment().search(lines.front().code); a && names_in(std::string((*a)[1])).size() == 1) {
          std::string name(text_trimmed((*a)[1]));
          m.constants[name] = sm_count && queries_sm_count((*a)[2])
                                  ? std::to_string(*sm_count)
                                  : eval_python((*a)[2], m.constants).value_or("?" + name);
        }
      // A constant only the launcher reads counts through the launch's
      // values (round 14: `NUM_WARPS = 4` left unread when the launcher
      // computes num_warps, to 4 on every benchmarked shape).
      if (!read_beyond_the_launcher) continue;
    }
    m.rest.insert(m.rest.end(), lines.begin(), lines.end());
  }
  return m;
}

std::size_t matching(const std::string &s, std::size_t open) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char ch = s[i];
    if (quote) {
      if (ch == '\\')
        ++i;
      else if (ch == quote)
        quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '(' || ch == '[' || ch == '{') {
      ++depth;
    } else if ((ch == ')' || ch == ']' || ch == '}') && --depth == 0) {
      return i;
    }
  }
  throw CannotTell{};
}

// A value the evaluator cannot read (a lambda, a call with keywords, a
// name a block binds): its text and what the names in it are bound to, so
// the same text over different bindings never compares equal.
std::string unknown_of(const std::string &text, const Bindings &env) {
  std::string out = "?<" + text;
  for (const auto &n : names_in(text))
    if (auto it = env.find(n); it != env.end()) out += "|" + n + "=" + it->second;
  return out + ">";
}

// What one shape's launch passes: the grid and every argument, evaluated;
// and the bindings the kernel's constexprs take.
struct Launch {
  std::vector<std::string> passed; // "grid=...", "NAME=...", positional values
  Bindings constexprs;
  Bindings arguments; // every parameter the launch binds, by position or keyword
  bool operator==(const Launch &o) const { return passed == o.passed; }
};

Launch launch_of(const Module &m, const ShapeAxes &shape, const std::vector<std::string> &var_axes,
                 std::optional<long> sm_count = std::nullopt) {
  Bindings env = m.constants;
  static const text::Regex shape_unpack(R"(^[\w.]+\.shape$)");
  static const text::Regex compound(R"(^(?:if|elif|else|for|while|with|try|except|finally)\b)");
  const std::size_t base = m.launcher.front().indent;
  const text::Regex launch("\\b" + m.kernel + R"(\s*\[)");
  std::string block; // the compound statement the lines below it belong to
  for (const auto &line : m.launcher) {
    if (auto at = launch.search(line.code)) {
      // A launch inside a block runs for the shapes its condition picks.
      if (line.indent > base) throw CannotTell{};
      Launch out;
      std::size_t open = at->end - 1;
      std::size_t close = matching(line.code, open);
      std::string grid = line.code.substr(open + 1, close - open - 1);
      std::size_t args_open = line.code.find('(', close);
      if (args_open == std::string::npos || line.code.find_first_not_of(' ', close + 1) != args_open)
        throw CannotTell{};
      std::size_t args_close = matching(line.code, args_open);
      out.passed.push_back("grid=" + eval_python(grid, env).value_or(unknown_of(grid, env)));
      static const text::Regex keyword(R"(^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$)");
      std::size_t position = 0;
      for (const auto &arg : split_top_level(line.code.substr(args_open + 1, args_close - args_open - 1), ',')) {
        if (auto kw = keyword.search(arg)) {
          std::string name((*kw)[1]);
          std::string value = eval_python((*kw)[2], env).value_or(unknown_of(std::string((*kw)[2]), env));
          out.passed.push_back(name + "=" + value);
          if (m.params.count(name)) out.constexprs[name] = value;
          out.arguments[name] = value;
        } else {
          out.passed.push_back(eval_python(arg, env).value_or(unknown_of(arg, env)));
          if (position < m.parameters.size()) out.arguments[m.parameters[position]] = out.passed.back();
          ++position;
        }
      }
      for (const auto &[name, value] : m.defaults) out.constexprs.try_emplace(name, value);
      for (const auto &[name, value] : out.constexprs) out.arguments.try_emplace(name, value);
      for (const auto &p : m.params) out.constexprs.try_emplace(p, "?" + p);
      return out;
    }
    auto a = assignment().search(line.code);
    if (line.indent == base && compound.contains(line.code)) block = line.code;
    if (line.indent > base || compound.contains(line.code)) {
      // Inside a block: whatever it binds is unknown after it, read as the
      // block's condition and the assignment over their bindings.
      // `if _NUM_SMS is None: _NUM_SMS = props.multi_processor_count`, a
      // cache: whichever way the block goes, the name holds the SM count.
      if (a && sm_count && names_in(std::string((*a)[1])).size() == 1 && queries_sm_count((*a)[2])) {
        env[names_in(std::string((*a)[1])).front()] = std::to_string(*sm_count);
        continue;
      }
      if (a)
        for (const auto &n : names_in(std::string((*a)[1]))) env[n] = unknown_of(block + " | " + line.code, env);
      continue;
    }
    if (!a) continue;
    auto targets = names_in(std::string((*a)[1]));
    std::string value((*a)[2]);
    if (targets.size() == 1) {
      env[targets[0]] = sm_count && queries_sm_count(value) ? std::to_string(*sm_count)
                                                            : eval_python(value, env).value_or(unknown_of(value, env));
    } else if (shape_unpack.contains(value)) {
      // `n_rows, n_cols = x.shape`: a workload axis of the same name, else
      // the definition's variable axis at that position.
      for (std::size_t i = 0; i < targets.size(); ++i) {
        std::optional<double> v;
        for (const auto &[k, x] : shape.axes)
          if (k == targets[i]) v = x;
        for (const auto &[k, x] : shape.constants)
          if (!v && k == targets[i]) v = x;
        if (!v && var_axes.size() == shape.axes.size())
          for (std::size_t j = 0; j < var_axes.size(); ++j)
            if (var_axes[j] == targets[i]) v = shape.axes[j].second;
        // By position: `n_rows, n_cols = x.shape` over variable axes M, N
        // (round 14), when the unpack names as many axes as vary and none
        // of its names is an axis.
        if (!v && targets.size() == var_axes.size() && var_axes.size() == shape.axes.size() &&
            std::none_of(targets.begin(), targets.end(), [&](const std::string &t) {
              return std::find(var_axes.begin(), var_axes.end(), t) != var_axes.end() ||
                     std::any_of(shape.axes.begin(), shape.axes.end(), [&](const auto &a) { return a.first == t; });
            }))
          for (const auto &[k, x] : shape.axes)
            if (k == var_axes[i]) v = x;
        // A whole number is Python's int; anything else stays unknown.
        bool whole = v && std::fabs(*v) < 1e15 && *v == std::floor(*v);
        env[targets[i]] = whole ? std::to_string(static_cast<long long>(*v)) : "?" + targets[i];
      }
    } else {
      for (const auto &n : targets) env[n] = unknown_of(n + " of " + value, env);
    }
  }
  throw CannotTell{};
}

std::optional<bool> truth_of(const std::string &form) {
  if (!is_known(form)) return std::nullopt;
  if (form == "True") return true;
  if (form == "False" || form == "None" || form == "()") return false;
  if (form.front() == '(') return true;
  try {
    return std::stod(form) != 0;
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

// The body the compiler sees for these constexprs: an `if` they decide
// keeps the arm taken, dedented to the `if`'s level.
std::vector<Line> specialised(const std::vector<Line> &body, const Bindings &constexprs) {
  static const text::Regex if_line(R"(^if\s+(.+):$)");
  static const text::Regex else_line(R"(^else\s*:$)");
  static const text::Regex elif_line(R"(^elif\b)");
  std::vector<Line> out;
  auto block_end = [&](std::size_t from, std::size_t indent) {
    while (from < body.size() && body[from].indent > indent) ++from;
    return from;
  };
  auto emit = [&](std::size_t from, std::size_t to, std::size_t indent) {
    if (from >= to) return;
    std::size_t shift = body[from].indent - indent;
    std::vector<Line> arm(body.begin() + static_cast<std::ptrdiff_t>(from),
                          body.begin() + static_cast<std::ptrdiff_t>(to));
    for (auto &l : specialised(arm, constexprs)) {
      l.indent -= std::min(shift, l.indent);
      out.push_back(std::move(l));
    }
  };
  for (std::size_t i = 0; i < body.size();) {
    const auto &line = body[i];
    auto cond = if_line.search(line.code);
    std::optional<bool> taken;
    if (cond) taken = truth_of(eval_python((*cond)[1], constexprs).value_or("?"));
    if (!taken) {
      out.push_back(line);
      ++i;
      continue;
    }
    std::size_t then_end = block_end(i + 1, line.indent), else_from = then_end, else_end = then_end;
    if (then_end < body.size() && body[then_end].indent == line.indent) {
      if (elif_line.contains(body[then_end].code)) throw CannotTell{};
      if (else_line.contains(body[then_end].code)) {
        else_from = then_end + 1;
        else_end = block_end(else_from, line.indent);
      }
    }
    if (*taken)
      emit(i + 1, then_end, line.indent);
    else
      emit(else_from, else_end, line.indent);
    i = else_end;
  }
  return out;
}

// A loop of the kernel stepping by a constexpr, and the loads in it that
// index by the loop without masking by it.
struct SteppedLoop {
  std::string head;                   // "for k0 in range(k_lo, k_hi, BLOCK_K)"
  std::string step;                   // the constexpr it steps by
  std::set<std::string> bound_params; // the kernel parameters its stop is computed from
  std::vector<std::string> unmasked;  // the pointers of its unmasked loads, in order
};

std::set<std::string> names_of(const std::string &expression) {
  auto v = names_in(expression);
  return {v.begin(), v.end()};
}

bool meets(const std::set<std::string> &a, const std::set<std::string> &b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string &n) { return b.count(n) > 0; });
}

std::vector<SteppedLoop> stepped_loops(const Module &m, const std::vector<Line> &body) {
  static const text::Regex for_range(
      R"(^for\s+([A-Za-z_]\w*)\s+in\s+(?:(?:tl|gl|ttgl)\.)?(?:range|static_range)\((.*)\)\s*:$)");
  static const text::Regex keyword(R"(^\s*[A-Za-z_]\w*\s*=(?!=))");
  static const text::Regex load(R"(\b(?:tl|gl|ttgl)\.load\s*\()");
  static const text::Regex masking(R"(^\s*(?:mask|boundary_check)\s*=(?!=)\s*(.+)$)");
  std::vector<SteppedLoop> out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    auto head = for_range.search(body[i].code);
    if (!head) continue;
    std::vector<std::string> args;
    for (auto &a : split_top_level((*head)[2], ','))
      if (!keyword.contains(a)) args.push_back(std::string(text_trimmed(a)));
    if (args.size() != 3 || !m.params.count(args[2])) continue;
    SteppedLoop loop{body[i].code.substr(0, body[i].code.size() - 1), args[2], {}, {}};
    // The kernel parameters the stop is computed from, through the
    // assignments before the loop.
    std::set<std::string> from = names_of(args[1]);
    for (std::size_t k = i; k-- > 0;)
      if (auto a = assignment().search(body[k].code); a && meets(names_of(std::string((*a)[1])), from))
        for (const auto &n : names_of(std::string((*a)[2]))) from.insert(n);
    for (const auto &p : m.parameters)
      if (from.count(p) && !m.params.count(p)) loop.bound_params.insert(p);
    // What the loop variable reaches, through the loop's own assignments.
    std::size_t end = i + 1;
    while (end < body.size() && body[end].indent > body[i].indent) ++end;
    std::set<std::string> reach{std::string((*head)[1])};
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t k = i + 1; k < end; ++k)
        if (auto a = assignment().search(body[k].code); a && meets(names_of(std::string((*a)[2])), reach))
          for (const auto &n : names_of(std::string((*a)[1]))) grew = reach.insert(n).second || grew;
    }
    for (std::size_t k = i + 1; k < end; ++k) {
      const std::string &code = body[k].code;
      load.for_each_match(code, [&](const text::Match &l) {
        std::size_t close;
        try {
          close = matching(code, l.end - 1);
        } catch (const CannotTell &) {
          return;
        }
        auto parts = split_top_level(code.substr(l.end, close - l.end), ',');
        if (parts.empty() || keyword.contains(parts.front())) return;
        const std::string pointer(text_trimmed(parts.front()));
        if (!meets(names_of(pointer), reach)) return;
        for (const auto &p : parts)
          if (auto mk = masking.search(p); mk && meets(names_of(std::string((*mk)[1])), reach)) return;
        auto first = names_in(pointer);
        loop.unmasked.push_back(first.empty() ? pointer : first.front());
      });
    }
    if (!loop.unmasked.empty() && !loop.bound_params.empty()) out.push_back(std::move(loop));
  }
  return out;
}

} // namespace

std::vector<std::optional<UnmaskedTail>> unmasked_tails(std::string_view source, const std::vector<ShapeAxes> &shapes,
                                                        const std::vector<std::string> &var_axes) {
  std::vector<std::optional<UnmaskedTail>> out(shapes.size());
  try {
    const Module m = read_module(source, std::nullopt, Launches::FirstOfSeveral);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Launch launch = launch_of(m, shapes[i], var_axes);
      auto whole = [](const Bindings &b, const std::string &name) -> std::optional<long long> {
        static const text::Regex integer(R"(^-?\d+$)");
        auto it = b.find(name);
        if (it == b.end() || !integer.contains(it->second)) return std::nullopt;
        return std::stoll(it->second);
      };
      for (const auto &loop : stepped_loops(m, specialised(m.body, launch.constexprs))) {
        auto step = whole(launch.arguments, loop.step);
        if (!step || *step <= 0) continue;
        for (const auto &p : loop.bound_params) {
          auto bound = whole(launch.arguments, p);
          if (!bound || *bound % *step == 0) continue;
          out[i] = UnmaskedTail{loop.head, loop.unmasked, p, *bound, loop.step, *step};
          break;
        }
        if (out[i]) break;
      }
    }
  } catch (const CannotTell &) {
    return std::vector<std::optional<UnmaskedTail>>(shapes.size());
  }
  return out;
}

namespace {

// The bytes of one element of a DSL dtype (`gl.float16`, `tl.bfloat16`,
// `torch.float8_e4m3fn`); nullopt for one this reading does not know.
std::optional<long long> dtype_bytes(std::string_view dtype) {
  static const text::Regex one(R"((?:^|\.)(?:u?int8|float8\w*|bool|int1)$)");
  static const text::Regex two(R"((?:^|\.)(?:u?int16|float16|bfloat16|half)$)");
  static const text::Regex four(R"((?:^|\.)(?:u?int32|float32|float|tf32)$)");
  static const text::Regex eight(R"((?:^|\.)(?:u?int64|float64|double)$)");
  if (one.contains(dtype)) return 1;
  if (two.contains(dtype)) return 2;
  if (four.contains(dtype)) return 4;
  if (eight.contains(dtype)) return 8;
  return std::nullopt;
}

} // namespace

std::vector<std::optional<SharedMemoryUse>> shared_memory_per_shape(std::string_view source,
                                                                    const std::vector<ShapeAxes> &shapes,
                                                                    const std::vector<std::string> &var_axes) {
  std::vector<std::optional<SharedMemoryUse>> out(shapes.size());
  static const text::Regex call(R"(\ballocate_shared_memory\s*\()");
  static const text::Regex integer(R"(^\d+$)");
  try {
    const Module m = read_module(source, std::nullopt, Launches::FirstOfSeveral);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const Launch launch = launch_of(m, shapes[i], var_axes);
      Bindings env = m.constants;
      for (const auto &[name, value] : launch.arguments) env[name] = value;
      SharedMemoryUse use;
      for (const auto &line : specialised(m.body, launch.constexprs)) {
        auto at = call.search(line.code);
        if (!at) continue;
        const std::size_t open = at->end - 1, close = matching(line.code, open);
        auto args = split_top_level(line.code.substr(open + 1, close - open - 1), ',');
        if (args.size() < 2) continue;
        auto element = dtype_bytes(text::strip(args[0]));

        std::string dims(text::strip(args[1]));
        if (!element || dims.size() < 2 || dims.front() != '[' || dims.back() != ']') continue;
        long long bytes = *element;
        for (const auto &d : split_top_level(dims.substr(1, dims.size() - 2), ',')) {
          auto v = eval_python(std::string(text::strip(d)), env);
          if (!v || !integer.contains(*v) || v->size() > 12) {
            bytes = 0;
            break;
          }
          bytes *= std::stoll(*v);
        }
        if (bytes <= 0) continue;
        // The call with its module prefix (`gl.allocate_shared_memory(...)`).
        std::size_t from = at->begin;
        while (from > 0 && (std::isalnum(static_cast<unsigned char>(line.code[from - 1])) ||
                            line.code[from - 1] == '_' || line.code[from - 1] == '.'))
          --from;
        use.allocations.push_back(line.code.substr(from, close + 1 - from));
        use.bytes += bytes;
      }
      if (use.bytes > 0) out[i] = std::move(use);
    }
  } catch (const CannotTell &) {
    return std::vector<std::optional<SharedMemoryUse>>(shapes.size());
  }
  return out;
}

std::vector<std::optional<bool>> shapes_running_changed_code(std::string_view before, std::string_view after,
                                                             const std::vector<ShapeAxes> &shapes,
                                                             const std::vector<std::string> &var_axes) {
  std::vector<std::optional<bool>> out(shapes.size());
  try {
    const Module a = read_module(before), b = read_module(after);
    if (a.kernel != b.kernel) return out;
    bool everywhere = a.rest != b.rest || a.signature != b.signature;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      if (everywhere) {
        out[i] = true;
        continue;
      }
      Launch la = launch_of(a, shapes[i], var_axes), lb = launch_of(b, shapes[i], var_axes);
      out[i] = !(la == lb) || specialised(a.body, la.constexprs) != specialised(b.body, lb.constexprs);
    }
  } catch (const CannotTell &) {
    return std::vector<std::optional<bool>>(shapes.size());
  }
  return out;
}

std::vector<std::optional<ProgramCounts>> programs_per_shape(std::string_view before, std::string_view after,
                                                             const std::vector<ShapeAxes> &shapes,
                                                             const std::vector<std::string> &var_axes,
                                                             std::optional<long> sm_count) {
  std::vector<std::optional<ProgramCounts>> out(shapes.size());
  // "(528, 1)" or "528": the product of a known grid.
  auto programs = [](const std::string &passed) -> std::optional<double> {
    static const text::Regex number(R"(-?\d+(?:\.\d+)?)");
    std::string grid = passed.substr(passed.find('=') + 1);
    if (!is_known(grid)) return std::nullopt;
    double product = 1;
    bool any = false;
    for (const auto &m : number.find_all(grid)) product *= std::stod(std::string(m[0])), any = true;
    if (!any || product < 1) return std::nullopt;
    return product;
  };
  // A CUDA source's host code launches the kernel (load_inline).
  const auto outline_before = outline_module(before), outline_after = outline_module(after);
  if (launches_cuda_kernel(outline_before) && launches_cuda_kernel(outline_after)) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      auto pa = cuda_blocks_launched(outline_before, shapes[i].axes, sm_count);
      auto pb = cuda_blocks_launched(outline_after, shapes[i].axes, sm_count);
      if (pa && pb) out[i] = ProgramCounts{*pa, *pb};
    }
    return out;
  }
  try {
    const Module a = read_module(before, sm_count), b = read_module(after, sm_count);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      Launch la = launch_of(a, shapes[i], var_axes, sm_count), lb = launch_of(b, shapes[i], var_axes, sm_count);
      auto pa = programs(la.passed.front()), pb = programs(lb.passed.front());
      if (pa && pb) out[i] = ProgramCounts{*pa, *pb};
    }
  } catch (const CannotTell &) {
    return std::vector<std::optional<ProgramCounts>>(shapes.size());
  }
  return out;
}

} // namespace otm::code
