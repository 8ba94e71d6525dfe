#include "code/cuda_launch.hpp"

#include <cmath>

#include "code/c_constants.hpp"
#include "code/python_expr.hpp"
#include "code/top_level_split.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

const text::Regex &launch_site() {
  static const text::Regex re(R"(\b[A-Za-z_]\w*\s*(?:<[^<>;]*>\s*)?<<<)");
  return re;
}

std::string trimmed(std::string_view s) {
  auto b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t\n") - b + 1));
}

// The text of C items [begin, end) of the file, one line per line.
std::string c_text(const ModuleOutline &outline, const CItem &item) {
  std::string out;
  for (std::size_t i = item.begin; i < item.end && i < outline.lines.size(); ++i) out += outline.lines[i].c + "\n";
  return out;
}

bool whole(const std::string &form) {
  static const text::Regex integer(R"(^-?\d+$)");
  return integer.contains(form);
}

// The value of a C expression: known, or a canonical unknown.
std::string value_of(const std::string &c, const Bindings &env) {
  return eval_python(python_of_c(c), env).value_or("?<" + c + ">");
}

// `dim3(a, b)`'s components as the tuple a Python grid would be: "(a, b, )".
std::string dim3_form(const std::string &components, const Bindings &env) {
  std::string tuple = "(";
  for (const auto &p : split_top_level(components, ',')) tuple += value_of(p, env) + ", ";
  return tuple + ")";
}

std::optional<double> axis_value(const std::vector<std::pair<std::string, double>> &axes, const std::string &name) {
  for (const auto &[k, v] : axes)
    if (k == name && std::fabs(v) < 1e15 && v == std::floor(v)) return v;
  return std::nullopt;
}

struct Reader {
  const std::vector<std::pair<std::string, double>> &axes;
  std::optional<long> sm_count;
  Bindings env;

  bool queries_sm_count(const std::string &text) const {
    static const text::Regex query(R"(\b(?:multiProcessorCount|cudaDevAttrMultiProcessorCount)\b)");
    return sm_count && query.contains(text);
  }

  // `int N = ..., K = ...;` `constexpr int kSplitK = 4;` `dim3 grid(a, b);`
  // `NAME = expr;` — what each binds. In a nested block (`nested`) every
  // name bound is unknown after it.
  void statement(const std::string &stmt, bool nested) {
    static const text::Regex attribute_query(
        R"(cudaDeviceGetAttribute\s*\(\s*&\s*([A-Za-z_]\w*)\s*,\s*cudaDevAttrMultiProcessorCount\b)");
    static const text::Regex dim3_decl(
        R"(^(?:const\s+)?dim3\s+([A-Za-z_]\w*)\s*(?:\((.*)\)|\{(.*)\}|=\s*dim3\s*[({](.*)[)}])$)");
    static const text::Regex integral_decl(
        R"(^(?:(?:static|constexpr|const|inline)\s+)*(?:unsigned\s+|signed\s+)?(?:int|long|long\s+long|size_t|int64_t|int32_t|uint32_t|uint64_t|unsigned|auto)\s+(?![*&])(.+)$)");
    static const text::Regex declarator(R"(^([A-Za-z_]\w*)\s*(?:=\s*(.+)|\((.+)\)|\{(.+)\})$)");
    static const text::Regex assignment(R"(^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$)");
    static const text::Regex control(R"(^(?:if|else|for|while|do|switch|case|default)\b)");
    static const text::Regex any_assignment(R"(\b([A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=))");
    if (auto q = attribute_query.search(stmt)) {
      // Without the product's SM count the grid it sizes is unknown.
      env[std::string((*q)[1])] = sm_count ? std::to_string(*sm_count) : std::string("?<SM count>");
      return;
    }
    if (auto d = dim3_decl.search(stmt)) {
      std::string parts(d->has(2) ? (*d)[2] : d->has(3) ? (*d)[3] : (*d)[4]);
      env[std::string((*d)[1])] = nested ? "?<dim3 in a block>" : dim3_form(parts, env);
      return;
    }
    auto bind = [&](const std::string &name, const std::string &expr) {
      if (nested) {
        env[name] = "?<" + name + " in a block>";
      } else if (queries_sm_count(expr)) {
        env[name] = std::to_string(*sm_count);
      } else {
        std::string v = value_of(expr, env);
        // `const int N = y.size(-1)`: the shape's axis of that name.
        if (auto a = axis_value(axes, name); a && !whole(v)) v = std::to_string(static_cast<long long>(*a));
        env[name] = v;
      }
    };
    if (control.contains(stmt)) {
      // `if (N > 4096) split = 2;`: whatever it binds depends on the branch.
      for (const auto &a : any_assignment.find_all(stmt))
        env[std::string(a[1])] = "?<" + std::string(a[1]) + " in a branch>";
      return;
    }
    if (auto d = integral_decl.search(stmt)) {
      for (const auto &one : split_top_level(std::string((*d)[1]), ','))
        if (auto x = declarator.search(one)) {
          std::string expr(x->has(2) ? (*x)[2] : x->has(3) ? (*x)[3] : (*x)[4]);
          bind(std::string((*x)[1]), expr);
        }
      return;
    }
    if (auto a = assignment.search(stmt)) {
      bind(std::string((*a)[1]), std::string((*a)[2]));
      return;
    }
    for (const auto &a : any_assignment.find_all(stmt)) env[std::string(a[1])] = "?<" + stmt + ">"; // `x += 1`
  }
};

} // namespace

bool launches_cuda_kernel(const ModuleOutline &outline) {
  for (const auto &item : outline.c_items)
    if (item.kind == CItem::Kind::Function && launch_site().contains(c_text(outline, item))) return true;
  return false;
}

std::optional<double> cuda_blocks_launched(const ModuleOutline &outline,
                                           const std::vector<std::pair<std::string, double>> &axes,
                                           std::optional<long> sm_count) {
  Reader r{axes, sm_count, {}};
  static const text::Regex define(R"(^\s*#\s*define\s+([A-Za-z_]\w*)\s+(.+?)\s*$)");
  const CItem *host = nullptr;
  for (const auto &item : outline.c_items) {
    std::string text = c_text(outline, item);
    if (item.kind == CItem::Kind::Define) {
      if (auto d = define.search(text)) r.env[std::string((*d)[1])] = value_of(std::string((*d)[2]), r.env);
    } else if (item.kind == CItem::Kind::Declaration) {
      std::string stmt = trimmed(text);
      if (!stmt.empty() && stmt.back() == ';') stmt.pop_back();
      r.statement(trimmed(stmt), false);
    } else if (item.kind == CItem::Kind::Function && !host && launch_site().contains(text)) {
      host = &item;
    }
  }
  if (!host) return std::nullopt;
  const std::string text = c_text(outline, *host);
  const auto open = text.find('{');
  if (open == std::string::npos) return std::nullopt;
  // Integral parameters named as an axis take the shape's value.
  static const text::Regex parameter(R"((?:int|long|int64_t|int32_t|size_t)\s+([A-Za-z_]\w*)\s*(?:[,)]|$))");
  for (const auto &p : parameter.find_all(text.substr(0, open)))
    if (auto a = axis_value(axes, std::string(p[1])))
      r.env[std::string(p[1])] = std::to_string(static_cast<long long>(*a));
  // The body, statement by statement, to the first launch.
  int braces = 0, parens = 0;
  std::string stmt;
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    char ch = text[i];
    if (ch == '(') ++parens;
    if (ch == ')') --parens;
    bool ends = parens == 0 && (ch == ';' || ch == '{' || ch == '}');
    if (!ends) {
      stmt += ch == '\n' ? ' ' : ch;
      continue;
    }
    std::string s = trimmed(stmt);
    stmt.clear();
    if (auto at = launch_site().search(s)) {
      if (braces > 0) return std::nullopt; // a launch in a block runs for the shapes its condition picks
      auto close = s.find(">>>", at->end);
      if (close == std::string::npos) return std::nullopt;
      auto config = split_top_level(s.substr(at->end, close - at->end), ',');
      if (config.empty()) return std::nullopt;
      static const text::Regex dim3_call(R"(^dim3\s*[({](.*)[)}]$)");
      std::string grid = config.front();
      auto d = dim3_call.search(grid);
      const std::string form = d ? dim3_form(std::string((*d)[1]), r.env) : value_of(grid, r.env);
      double blocks = 1;
      static const text::Regex number(R"(-?\d+(?:\.\d+)?)");
      static const text::Regex unknown(R"(\?)");
      if (unknown.contains(form)) return std::nullopt;
      bool any = false;
      for (const auto &m : number.find_all(form)) blocks *= std::stod(std::string(m[0])), any = true;
      if (!any || blocks < 1) return std::nullopt;
      return blocks;
    }
    if (!s.empty() && ch == ';') r.statement(s, braces > 0);
    if (ch == '{') ++braces;
    if (ch == '}' && --braces < 0) return std::nullopt; // the function ended before any launch
  }
  return std::nullopt;
}

} // namespace otm::code
