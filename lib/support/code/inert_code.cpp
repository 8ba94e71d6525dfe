#include "code/inert_code.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <unordered_map>

#include "code/identifiers.hpp"
#include "code/kernel_parameters.hpp"
#include "code/restated_hints.hpp"
#include "code/source_reading.hpp"
#include "code/untaken_branches.hpp"
#include "text/regex.hpp"

namespace otm::code {

namespace {

// Calls whose only effect is their value: an assignment of one of these to
// a name nothing reads computes nothing that is used. Any other call (a
// launch, a synchronisation, a print) may act, so its assignment stays live.
bool is_pure_callee(std::string_view callee) {
  static const std::set<std::string, std::less<>> pure = {"dict",
                                                          "list",
                                                          "tuple",
                                                          "set",
                                                          "frozenset",
                                                          "int",
                                                          "float",
                                                          "str",
                                                          "bool",
                                                          "range",
                                                          "min",
                                                          "max",
                                                          "abs",
                                                          "round",
                                                          "len",
                                                          "sorted",
                                                          "triton.Config",
                                                          "triton.cdiv",
                                                          "cdiv",
                                                          "next_power_of_2",
                                                          "triton.next_power_of_2"};
  if (pure.count(callee)) return true;
  if (callee.ends_with("constexpr") || callee.starts_with("math.")) return true;
  // An allocation (PyTorch's, in Python or in C++ host code) and the
  // tensor options it is given: a buffer nothing reads is no change that
  // runs (round 12: a `staging_ws` allocated beside a claimed register
  // cache, a `_partials` beside a claimed alignment hint).
  static const text::Regex allocates(R"((?:^|[.:])(?:empty|zeros|ones|full|empty_like|zeros_like|ones_like|)"
                                     R"(full_like|empty_strided|options|dtype|device|size|numel)$)");
  if (allocates.contains(callee)) return true;
  // PyTorch's value functions (kit 57, N42: a host `order =
  // torch.argsort(lengths)` nothing reads, whose removal was the "failed"
  // attempt).
  static const text::Regex torch_value(
      R"(^torch\.(?:argsort|sort|cumsum|cumprod|cat|stack|arange|argmax|argmin|topk|where|clamp|exp|log|sqrt|)"
      R"(sum|mean|amax|amin|abs|flip|diff|bincount|repeat_interleave|tensor|as_tensor)$)");
  if (torch_value.contains(callee)) return true;
  // Triton's and Gluon's language functions compute values, but for those
  // that write memory, synchronise or print.
  for (std::string_view dsl : {"tl.", "gl.", "triton.language.", "ttgl."})
    if (callee.starts_with(dsl)) {
      static const text::Regex acts(R"((?i)store|atomic|debug|print|barrier|assert|async|wait|arrive|fence|)"
                                    R"(commit|inline_asm|mbarrier|warp_specialize)");
      return !acts.contains(callee);
    }
  return false;
}

// Whether the right-hand side of an assignment calls something that may act.
bool calls_impure(std::string_view rhs) {
  static const text::Regex call(R"(([A-Za-z_][\w.]*)\s*\()");
  bool impure = false;
  call.for_each_match(rhs, [&](const text::Match &m) {
    if (!is_pure_callee(m[1])) impure = true;
  });
  // A subscripted call (`kernel[grid](...)`) is a launch.
  static const text::Regex launch(R"(\]\s*\()");
  return impure || launch.contains(rhs);
}

// `buf.store(x)` or `buf.index(i).store(x)`: the name stored into when a
// statement only writes a value into a buffer through its own name.
std::optional<std::string> stores_into(std::string_view code) {
  static const text::Regex head(R"(^\s*([A-Za-z_]\w*)\s*\.\s*)");
  auto m = head.search(code);
  if (!m) return std::nullopt;
  std::string_view rest = code.substr(m->end);
  static const text::Regex index(R"(^index\s*\()");
  if (auto i = index.search(rest)) {
    int depth = 1;
    std::size_t k = i->end;
    for (; k < rest.size() && depth > 0; ++k) depth += rest[k] == '(' ? 1 : rest[k] == ')' ? -1 : 0;
    if (depth != 0) return std::nullopt;
    static const text::Regex dot(R"(^\s*\.\s*)");
    auto d = dot.search(rest.substr(k));
    if (!d) return std::nullopt;
    rest = rest.substr(k + d->end);
  }
  static const text::Regex store(R"(^store\s*\()");
  if (!store.contains(rest)) return std::nullopt;
  return std::string((*m)[1]);
}

// A C array declared without an initializer (`__shared__ float buf[N];`):
// a buffer, which stores fill and reads read.
const text::Regex &c_array_declaration() {
  static const text::Regex r(R"(^\s*(?!(?:return|delete|throw|case|goto|else|do)\b))"
                             R"((?:(?:extern|static|volatile|const|__shared__|__align__\s*\(\s*\d+\s*\))\s+)*)"
                             R"([A-Za-z_][\w:<>]*\s+([A-Za-z_]\w*)\s*\[[^\]]*\](?:\s*\[[^\]]*\])*\s*;\s*$)");
  return r;
}

} // namespace

std::vector<std::string> names_defined_by(std::string_view code, bool starts_statement) {
  static const text::Regex define(R"(^\s*#\s*define\s+([A-Za-z_]\w*))");
  static const text::Regex c_decl(
      R"(^\s*(?:(?:static|constexpr|const|inline|__constant__|__device__|unsigned|signed|volatile)\s+)*)"
      R"([A-Za-z_][\w:<>]*[\s*&]+([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*=(?!=)[^;]*;\s*$)");
  static const text::Regex py_assign(R"(^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=]*)?=(?!=))");
  std::vector<std::string> out;
  if (auto m = define.search(code)) {
    out.emplace_back((*m)[1]);
    return out;
  }
  if (!starts_statement) return out;
  if (auto m = c_decl.search(code)) {
    if (!calls_impure(code.substr(m->end))) out.emplace_back((*m)[1]);
    return out;
  }
  if (auto m = c_array_declaration().search(code)) {
    out.emplace_back((*m)[1]);
    return out;
  }
  if (auto m = py_assign.search(code)) {
    // `x == y` and keyword-only lines are no assignments; a call on the
    // right may act (a launch), so the statement is then not inert.
    if (calls_impure(code.substr(m->end))) return out;
    for (const auto &id : identifier_spans((*m)[1])) out.emplace_back((*m)[1].substr(id.begin, id.end - id.begin));
  }
  return out;
}

namespace {

// Every assignment (Python) and definition (C) with the names it defines;
// `defining` marks the occurrences that are those definitions, not reads.
std::vector<Definition> definitions_of(const Reading &r, const InertCode &out,
                                       std::map<std::pair<std::size_t, std::string>, bool> &defining) {
  std::vector<Definition> statements;
  const std::size_t n = r.lexed.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (out.lines[i] == InertCode::Why::NotCode) continue;
    if (r.starts[i] && !r.code[i].python.empty()) {
      auto names = names_defined_by(r.code[i].python, true);
      if (!names.empty()) {
        std::size_t end = i + 1;
        while (end < n && r.stmt_of[end] == i && !r.starts[end]) ++end;
        for (const auto &nm : names) defining[{i, nm}] = true;
        statements.push_back({i, end, std::move(names)});
      }
    }
    if (!r.code[i].c.empty()) {
      auto names = names_defined_by(r.code[i].c, true);
      if (!names.empty()) {
        std::size_t end = i + 1;
        // A #define continued with backslashes.
        while (end < n && std::string_view(r.lexed[end - 1].text).ends_with("\\")) ++end;
        for (const auto &nm : names) defining[{i, nm}] = true;
        statements.push_back({i, end, std::move(names)});
      }
    }
  }
  return statements;
}

// A new function: a Python one with its decorators and its indented
// block, or a CUDA `__device__` one (embedded in a string, or in a C-family
// file) with a `template <...>` line before it and its braced body.
struct Function {
  std::string name;
  std::size_t begin, def_line, end;
};

// A `__device__` function defined at line `i` of the C-family code, or
// nothing: its name, and the line after its closing brace.
std::optional<Function> device_function_at(const Reading &r, std::size_t i, const std::set<std::string> &names) {
  static const text::Regex head(R"(\b__device__\b[^;{()=]*?\b([A-Za-z_]\w*)\s*\()");
  static const text::Regex template_line(R"(^\s*template\s*<)");
  auto m = head.search(r.code[i].c);
  if (!m || !names.count(std::string((*m)[1]))) return std::nullopt;
  const std::size_t n = r.lexed.size();
  int depth = 0;
  bool opened = false;
  for (std::size_t k = i; k < n; ++k) {
    for (char ch : r.code[k].c) {
      if (ch == ';' && !opened) return std::nullopt; // a declaration
      if (ch == '{') ++depth, opened = true;
      if (ch == '}' && --depth == 0 && opened) {
        std::size_t begin = i;
        while (begin > 0 && r.code[begin - 1].python.empty() && template_line.contains(r.code[begin - 1].c)) --begin;
        return Function{std::string((*m)[1]), begin, i, k + 1};
      }
    }
  }
  return std::nullopt;
}

std::vector<Function> new_functions_of(const Reading &r, const InertCode &out, Language language,
                                       const std::set<std::string> &new_functions) {
  std::vector<Function> functions;
  if (new_functions.empty()) return functions;
  static const text::Regex def(R"(^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\()");
  const std::size_t n = r.lexed.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!r.code[i].c.empty())
      if (auto f = device_function_at(r, i, new_functions)) {
        functions.push_back(*f);
        i = f->end - 1;
        continue;
      }
    if (language != Language::Python || !r.starts[i]) continue;
    auto m = def.search(r.code[i].python);
    if (!m || !new_functions.count(std::string((*m)[2]))) continue;
    std::size_t indent = indent_of(r.lexed[i].text);
    std::size_t begin = i;
    for (std::size_t k = i; k > 0;) {
      std::size_t prev = r.stmt_of[k - 1];
      if (out.lines[k - 1] == InertCode::Why::NotCode) break;
      auto head = std::string_view(r.code[prev].python);
      head.remove_prefix(std::min(head.size(), head.find_first_not_of(' ')));
      if (!head.starts_with("@") || indent_of(r.lexed[prev].text) != indent) break;
      begin = prev;
      k = prev;
    }
    std::size_t end = i + 1;
    for (std::size_t k = i + 1; k < n; ++k) {
      if (out.lines[k] == InertCode::Why::NotCode || !r.starts[k]) {
        if (r.stmt_of[k] >= i) end = k + 1;
        continue;
      }
      if (indent_of(r.lexed[k].text) <= indent) break;
      end = k + 1;
    }
    // Trailing blank or comment lines belong to what follows.
    while (end > i + 1 && out.lines[end - 1] == InertCode::Why::NotCode) --end;
    functions.push_back({std::string((*m)[2]), begin, i, end});
  }
  return functions;
}

// `order` in `f(x, order=[1, 0])`: a keyword argument's name reads nothing
// (kit 57: a Gluon layout's `order=` kept a dead host `order = argsort(...)`
// alive). After `(` or `,`, before `=` that is no `==`.
bool is_keyword_argument(std::string_view line, std::size_t begin, std::size_t end) {
  std::size_t after = end;
  while (after < line.size() && line[after] == ' ') ++after;
  if (after >= line.size() || line[after] != '=' || (after + 1 < line.size() && line[after + 1] == '=')) return false;
  std::size_t before = begin;
  while (before > 0 && line[before - 1] == ' ') --before;
  return before > 0 && (line[before - 1] == '(' || line[before - 1] == ',');
}

// Every identifier occurrence that reads its name, by line.
std::vector<std::vector<std::string>> reads_of(const Reading &r, const InertCode &out,
                                               const std::map<std::pair<std::size_t, std::string>, bool> &defining,
                                               const std::vector<Function> &functions) {
  std::vector<std::vector<std::string>> reads(r.lexed.size());
  for (std::size_t i = 0; i < r.lexed.size(); ++i) {
    if (out.lines[i] == InertCode::Why::NotCode) continue;
    std::map<std::string, bool> skipped;
    for (const std::string *part : {&r.code[i].python, &r.code[i].c}) {
      for (const auto &id : identifier_spans(*part)) {
        std::string name = part->substr(id.begin, id.end - id.begin);
        if (defining.count({i, name}) && !skipped[name]) {
          skipped[name] = true; // the definition itself
          continue;
        }
        if (is_keyword_argument(*part, id.begin, id.end)) continue;
        reads[i].push_back(std::move(name));
      }
    }
  }
  for (const auto &f : functions) {
    // `def NAME(` names the function without reading it.
    auto &line = reads[f.def_line];
    if (auto it = std::find(line.begin(), line.end(), f.name); it != line.end()) line.erase(it);
  }
  return reads;
}

// A JIT kernel's parameter that its body never reads: the parameter's name
// in the signature reads nothing (it binds the argument), and a launch's
// `P=expr` for it reads P and expr for nothing, so a module constant only
// passed there is unread (round 18: `ROWS_PER_PROG = 4`, passed as
// `ROWS_PER_PROG=ROWS_PER_PROG` to a persistent kernel that no longer
// reads it). Launches are `KERNEL[grid](...)` calls; positional arguments
// keep their reads.
void drop_reads_of_unread_parameters(std::string_view source, std::vector<std::vector<std::string>> &reads) {
  for (const auto &u : unread_parameter_texts(source)) {
    if (u.line >= reads.size()) continue;
    auto &l = reads[u.line];
    for (const auto &name : u.reads)
      if (auto it = std::find(l.begin(), l.end(), name); it != l.end()) l.erase(it);
  }
}

// A JIT kernel's parameter its body never rebinds shadows a module
// constant of its name: the kernel's occurrences of the name read the
// parameter (its binding in the signature reads nothing), so they keep no
// module assignment alive (kit 61, J01, J17, J18: `BN = 32 -> 64` quoted
// beside an autotuned kernel that takes `BN: tl.constexpr` from its
// configs). The launch's `BN=BN` keyword is outside the kernel and still
// reads it.
void drop_reads_shadowed_by_parameters(std::string_view source, std::vector<std::vector<std::string>> &reads) {
  for (const auto &k : jit_kernel_parameters(source))
    for (const auto &p : k.shadowing)
      for (std::size_t i = k.header; i < k.end && i < reads.size(); ++i) {
        auto &l = reads[i];
        if (i < k.signature_end) {
          // The binding only (drop_reads_of_unread_parameters took an
          // unread one's): a default value (`P=P`) is read where the `def` runs.
          if (k.unread.count(p)) continue;
          if (auto it = std::find(l.begin(), l.end(), p); it != l.end()) l.erase(it);
        } else {
          l.erase(std::remove(l.begin(), l.end(), p), l.end());
        }
      }
}

// Gluon's shared (and tensor) memory buffers, and C arrays: a store into
// one is no read of it, so a buffer nothing loads from is unread, and its stores, which
// nothing sees, are dead with it (round 10: a double buffer written every
// row and never read, credited to the final kernel). Takes each store's
// read of its buffer out of `reads`.
struct BufferStores {
  std::map<std::string, std::vector<std::size_t>> definitions; // buffer -> its allocating statements
  struct Store {
    std::string buffer;
    std::size_t begin, end; // lines [begin, end)
  };
  std::vector<Store> stores;
};

BufferStores buffer_stores_of(const Reading &r, const InertCode &out, const std::vector<Definition> &statements,
                              Language language, std::vector<std::vector<std::string>> &reads) {
  BufferStores b;
  static const text::Regex allocation(R"(\ballocate_(?:shared|tensor)_memory\s*\()");
  for (std::size_t s = 0; s < statements.size(); ++s) {
    if (statements[s].names.size() != 1) continue;
    const auto &code = r.code[statements[s].begin];
    if ((language == Language::Python && allocation.contains(code.python)) || c_array_declaration().contains(code.c))
      b.definitions[statements[s].names.front()].push_back(s);
  }
  auto store = [&](const std::string &name, std::size_t begin, std::size_t end) {
    b.stores.push_back({name, begin, end});
    if (auto it = std::find(reads[begin].begin(), reads[begin].end(), name); it != reads[begin].end())
      reads[begin].erase(it);
  };
  // A C store: `buf[i] = v;` on a line of its own.
  static const text::Regex c_store(R"(^\s*([A-Za-z_]\w*)\s*\[[^;]*\]\s*=(?!=)[^;]*;\s*$)");
  const std::size_t n = r.lexed.size();
  for (std::size_t i = 0; i < n && !b.definitions.empty(); ++i) {
    if (out.lines[i] == InertCode::Why::NotCode) continue;
    if (auto m = c_store.search(r.code[i].c); m && b.definitions.count(std::string((*m)[1]))) {
      // Only a store that reads nothing else of the buffer (`buf[i] = buf[j]` reads it).
      const std::string name((*m)[1]);
      if (std::count(reads[i].begin(), reads[i].end(), name) == 1) store(name, i, i + 1);
      continue;
    }
    if (language != Language::Python || !r.starts[i]) continue;
    auto name = stores_into(r.code[i].python);
    if (!name || !b.definitions.count(*name)) continue;
    std::size_t end = i + 1;
    while (end < n && r.stmt_of[end] == i && !r.starts[end]) ++end;
    store(*name, i, end);
  }
  return b;
}

} // namespace

InertCode find_inert_code(std::string_view source, Language language, const std::set<std::string> &new_functions) {
  InertCode out;
  const Reading r = read_source(source, language);
  const std::size_t n = r.lexed.size();
  out.lines.assign(n, InertCode::Why::Live);
  out.owner.assign(n, {});
  for (std::size_t i = 0; i < n; ++i)
    if (r.lexed[i].kind != LineKind::Code) out.lines[i] = InertCode::Why::NotCode;
  std::map<std::pair<std::size_t, std::string>, bool> defining; // (line, name) whose first occurrence defines
  const auto statements = definitions_of(r, out, defining);
  const auto functions = new_functions_of(r, out, language, new_functions);
  auto reads = reads_of(r, out, defining, functions);
  if (language == Language::Python) {
    drop_reads_of_unread_parameters(source, reads);
    drop_reads_shadowed_by_parameters(source, reads);
  }
  const auto buffers = buffer_stores_of(r, out, statements, language, reads);

  // Fixed point: a name is read when a live line reads it; an assignment
  // of names none of which is read, a store into a buffer whose allocation
  // is dead, and a new function nobody names, are dead, and their own
  // reads then stop counting.
  std::vector<bool> dead(n, false);
  std::vector<bool> statement_dead(statements.size(), false), function_dead(functions.size(), false);
  {
    // Branches no compilation takes are dead before anything else: what
    // only they read or call is then unread or uncalled too.
    std::vector<std::string> c_lines(n);
    for (std::size_t i = 0; i < n; ++i)
      if (out.lines[i] != InertCode::Why::NotCode) c_lines[i] = r.code[i].c;
    for (const auto &b : untaken_branches(c_lines))
      for (std::size_t k = b.begin; k < b.end && k < n; ++k)
        if (!dead[k]) {
          dead[k] = true;
          if (out.lines[k] == InertCode::Why::Live) {
            out.lines[k] = InertCode::Why::UntakenBranch;
            out.owner[k] = b.condition;
          }
        }
  }
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_map<std::string, std::size_t> live_reads;
    for (std::size_t i = 0; i < n; ++i)
      if (!dead[i])
        for (const auto &name : reads[i]) ++live_reads[name];
    for (std::size_t s = 0; s < statements.size(); ++s) {
      if (statement_dead[s]) continue;
      const auto &st = statements[s];
      bool any_read = std::any_of(st.names.begin(), st.names.end(),
                                  [&](const std::string &nm) { return nm == "_" || live_reads.count(nm); });
      if (any_read) continue;
      statement_dead[s] = changed = true;
      for (std::size_t k = st.begin; k < st.end; ++k)
        if (!dead[k]) {
          dead[k] = true;
          if (out.lines[k] == InertCode::Why::Live) {
            out.lines[k] = InertCode::Why::UnreadName;
            out.owner[k] = st.names.front();
          }
        }
      for (const auto &nm : st.names)
        if (std::find(out.unread_names.begin(), out.unread_names.end(), nm) == out.unread_names.end())
          out.unread_names.push_back(nm);
    }
    for (const auto &store : buffers.stores) {
      const auto &defs = buffers.definitions.at(store.buffer);
      if (dead[store.begin] || !std::all_of(defs.begin(), defs.end(), [&](std::size_t d) { return statement_dead[d]; }))
        continue;
      changed = true;
      for (std::size_t k = store.begin; k < store.end; ++k)
        if (!dead[k]) {
          dead[k] = true;
          if (out.lines[k] == InertCode::Why::Live) {
            out.lines[k] = InertCode::Why::UnreadName;
            out.owner[k] = store.buffer;
          }
        }
    }
    // A function only its own body names (a recursive call, a
    // `warp_specialize` that passes the function to itself) is called by
    // nothing outside it (kit 45, R34).
    auto called_from_outside = [&](const auto &fn) {
      if (!live_reads.count(fn.name)) return false;
      for (std::size_t i = 0; i < n; ++i)
        if (!dead[i] && (i < fn.begin || i >= fn.end) &&
            std::find(reads[i].begin(), reads[i].end(), fn.name) != reads[i].end())
          return true;
      return false;
    };
    for (std::size_t f = 0; f < functions.size(); ++f) {
      if (function_dead[f] || called_from_outside(functions[f])) continue;
      function_dead[f] = changed = true;
      for (std::size_t k = functions[f].begin; k < functions[f].end; ++k)
        if (!dead[k]) {
          dead[k] = true;
          if (out.lines[k] != InertCode::Why::NotCode) {
            out.lines[k] = InertCode::Why::UncalledFunction;
            out.owner[k] = functions[f].name;
          }
        }
      out.uncalled_functions.push_back(functions[f].name);
    }
  }
  mark_restated_hints(r, statements, statement_dead, out);
  for (std::size_t i = 0; i < n; ++i)
    if (!dead[i]) out.live_names.insert(reads[i].begin(), reads[i].end());
  // A name defined twice, once dead and once live, is read: only names with
  // no live definition left are reported.
  std::erase_if(out.unread_names, [&](const std::string &nm) {
    for (std::size_t s = 0; s < statements.size(); ++s)
      if (!statement_dead[s] && std::count(statements[s].names.begin(), statements[s].names.end(), nm)) return true;
    return false;
  });
  return out;
}

} // namespace otm::code
