#include "code/launch_reading.hpp"

#include <algorithm>
#include <cmath>

#include "code/jit_globals.hpp"
#include "code/module_outline.hpp"
#include "code/top_level_split.hpp"
#include "text/lines.hpp"

namespace otm::code {
namespace {

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

// `torch.cuda.get_device_properties(0).multi_processor_count`,
// `props.multi_processor_count`: the device's SM count, which only the
// caller knows (the trace's product).
bool queries_sm_count(std::string_view expression) {
  static const text::Regex query(R"(^\s*[A-Za-z_][\w.]*(?:\([^()]*\))?(?:\.[A-Za-z_]\w*)*\.multi_processor_count\s*$)");
  return query.contains(expression);
}

// `expression` with each SM-count query inside it (`min(M, 4 *
// torch.cuda.get_device_properties(x.device).multi_processor_count)`, kit
// 30) replaced by the count, when known.
std::string with_sm_count(std::string expression, std::optional<long> sm_count) {
  static const text::Regex query(R"([A-Za-z_][\w.]*(?:\([^()]*\))?(?:\.[A-Za-z_]\w*)*\.multi_processor_count\b)");
  if (!sm_count || expression.find("multi_processor_count") == std::string::npos) return expression;
  return query.replace(expression, std::to_string(*sm_count));
}

// A value the evaluator cannot read (a lambda, a call with keywords, a
// name a block binds): its text and what the names in it are bound to, so
// the same text over different bindings never compares equal.
std::string unknown_of(const std::string &text, const Bindings &env) {
  std::string out = "?<" + text;
  for (const auto &n : identifiers_in(text))
    if (auto it = env.find(n); it != env.end()) out += "|" + n + "=" + it->second;
  return out + ">";
}

} // namespace

std::string_view text_trimmed(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

const text::Regex &assignment() {
  static const text::Regex re(R"(^((?:[A-Za-z_]\w*\s*,\s*)*[A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$)");
  return re;
}

std::vector<std::string> identifiers_in(const std::string &targets) {
  std::vector<std::string> out;
  static const text::Regex name(R"([A-Za-z_]\w*)");
  for (const auto &m : name.find_all(targets)) out.emplace_back(m[0]);
  return out;
}

std::size_t matching(const std::string &s, std::size_t open) {
  if (auto close = matching_bracket(s, open)) return *close;
  throw CannotTell{};
}

Module read_module(std::string_view text, std::optional<long> sm_count, Launches launches) {
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
        if (auto a = assignment().search(lines.front().code); a && identifiers_in(std::string((*a)[1])).size() == 1) {
          std::string name(text_trimmed((*a)[1]));
          m.constants[name] =
              eval_python(with_sm_count(std::string((*a)[2]), sm_count), m.constants).value_or("?" + name);
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

Launch launch_of(const Module &m, const ShapeAxes &shape, const std::vector<std::string> &var_axes,
                 std::optional<long> sm_count) {
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
      out.passed.push_back("grid=" + eval_python(with_sm_count(grid, sm_count), env).value_or(unknown_of(grid, env)));
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
      if (a && sm_count && identifiers_in(std::string((*a)[1])).size() == 1 && queries_sm_count((*a)[2])) {
        env[identifiers_in(std::string((*a)[1])).front()] = std::to_string(*sm_count);
        continue;
      }
      if (a)
        for (const auto &n : identifiers_in(std::string((*a)[1]))) env[n] = unknown_of(block + " | " + line.code, env);
      continue;
    }
    if (!a) continue;
    auto targets = identifiers_in(std::string((*a)[1]));
    std::string value((*a)[2]);
    if (targets.size() == 1) {
      env[targets[0]] = eval_python(with_sm_count(value, sm_count), env).value_or(unknown_of(value, env));
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

} // namespace otm::code
