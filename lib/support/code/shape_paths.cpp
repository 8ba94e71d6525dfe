#include "code/shape_paths.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

#include "code/cuda_launch.hpp"
#include "code/launch_reading.hpp"
#include "code/module_outline.hpp"
#include "code/python_expr.hpp"
#include "code/top_level_split.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::code {
namespace {

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
  auto v = identifiers_in(expression);
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
        auto first = identifiers_in(pointer);
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
