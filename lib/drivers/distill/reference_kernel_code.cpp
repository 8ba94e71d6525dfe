#include "distill/reference_kernel_code.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "code/module_outline.hpp"
#include "code/source_lexer.hpp"
#include "scrub/scrubber.hpp"
#include "text/regex.hpp"
#include "text/utf8.hpp"

namespace otm::distill {

namespace {

using code::CItem;
using code::ModuleOutline;
using code::PythonStatement;
using Kind = PythonStatement::Kind;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// A whole-line comment (`# ...` but for preprocessor lines, `// ...`) that
// holds a phrase the scrubber wrote for a version id: left out of a quote,
// where it reads as an artefact ("see an earlier step's note").
bool scrubbed_comment_line(std::string_view line) {
  auto t = text::strip(line);
  static const text::Regex directive(R"(^#\s*(?:define|include|pragma|if|ifdef|ifndef|elif|else|endif|undef)\b)");
  bool comment = t.starts_with("//") || (t.starts_with("#") && !directive.contains(t));
  return comment && scrub::holds_replacement_phrase(t);
}

// Whole lines of the file, in file order; a gap between two becomes one
// blank line.
std::string quote_lines(const std::vector<std::string_view> &lines, const std::set<std::size_t> &which) {
  std::string out;
  std::size_t prev = 0;
  bool first = true;
  for (auto i : which) {
    if (i >= lines.size() || scrubbed_comment_line(lines[i])) continue;
    if (!first) out += i == prev + 1 ? "\n" : "\n\n";
    out += lines[i];
    prev = i;
    first = false;
  }
  return out;
}

std::size_t count_identifier(std::string_view code, std::string_view name) {
  std::size_t n = 0;
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (auto p = code.find(name); p != std::string_view::npos; p = code.find(name, p + 1))
    if ((p == 0 || !ident(code[p - 1])) && (p + name.size() >= code.size() || !ident(code[p + name.size()]))) ++n;
  return n;
}

bool reads_any(const std::set<std::string> &reads, const std::vector<std::string> &names) {
  return std::any_of(names.begin(), names.end(), [&](const std::string &n) { return reads.count(n) > 0; });
}

// A function named as a benchmark or a test, not as the operator.
bool bench_named(std::string_view name) {
  static const text::Regex r(R"(^_*(?:bench|test|main$|profile|check|verify|run_(?:bench|test)|demo))");
  return r.contains(name);
}

// Statements that never count as binding a name someone reads: the main
// guard (a harness) binds nothing by construction in the outline.
std::map<std::string, std::vector<std::size_t>> python_binders(const ModuleOutline &o) {
  std::map<std::string, std::vector<std::size_t>> by;
  for (std::size_t k = 0; k < o.statements.size(); ++k)
    for (const auto &b : o.statements[k].binds) by[b].push_back(k);
  return by;
}

// What every Python selection adds: `from __future__` and `import *` (they
// may bind anything), and module-level calls that configure the DSL
// (`triton.set_allocator(...)`).
void add_always(const ModuleOutline &o, std::vector<bool> &need) {
  static const text::Regex setup(R"(^(?:triton|gluon)\.[\w.]+\s*\()");
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    const auto &s = o.statements[k];
    auto head = text::strip(o.lines[s.header].python);
    if (s.wildcard || head.starts_with("from __future__") || (s.kind == Kind::Expression && setup.contains(head)))
      need[k] = true;
  }
}

// Closure over Python reads: every statement binding a name a needed one reads.
void close_python(const ModuleOutline &o, const std::map<std::string, std::vector<std::size_t>> &by,
                  std::vector<bool> &need) {
  std::vector<std::size_t> work;
  for (std::size_t k = 0; k < need.size(); ++k)
    if (need[k]) work.push_back(k);
  while (!work.empty()) {
    auto k = work.back();
    work.pop_back();
    for (const auto &r : o.statements[k].reads) {
      auto it = by.find(r);
      if (it == by.end()) continue;
      for (auto j : it->second)
        if (!need[j] && o.statements[j].kind != Kind::MainGuard) {
          need[j] = true;
          work.push_back(j);
        }
    }
  }
}

// Launchers among `candidates`: the benchmark- and test-named ones go when another remains.
std::vector<std::size_t> drop_bench(const ModuleOutline &o, std::vector<std::size_t> candidates) {
  std::vector<std::size_t> kept;
  for (auto k : candidates)
    if (!bench_named(o.statements[k].name)) kept.push_back(k);
  return kept.empty() ? candidates : kept;
}

void add_range(std::set<std::size_t> &lines, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) lines.insert(i);
}

std::size_t non_blank(const std::vector<std::string_view> &lines, const std::set<std::size_t> &which) {
  std::size_t n = 0;
  for (auto i : which)
    if (i < lines.size() && !text::strip(lines[i]).empty()) ++n;
  return n;
}

std::optional<ReferenceKernelCode> python_entry(const ModuleOutline &o, const std::vector<std::string_view> &lines) {
  static const text::Regex decorator(R"(^@[\w.]*(?:jit|kernel)\w*\b)");
  struct Candidate {
    std::size_t k;
    bool launched;
    std::size_t uses;
  };
  std::vector<Candidate> candidates;
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    const auto &s = o.statements[k];
    if (s.kind != Kind::Function) continue;
    bool decorated = false;
    for (std::size_t i = s.begin; i < s.header && !decorated; ++i)
      decorated = decorator.contains(text::lstrip(lines[i]));
    if (!decorated) continue;
    text::Regex launch("\\b" + s.name + "\\s*\\[");
    Candidate c{k, false, 0};
    for (std::size_t i = 0; i < o.lines.size(); ++i) {
      if (i >= s.begin && i < s.end) continue;
      c.uses += count_identifier(o.lines[i].python, s.name);
      if (!c.launched && launch.contains(o.lines[i].python)) c.launched = true;
    }
    candidates.push_back(c);
  }
  if (candidates.empty()) return std::nullopt;
  const Candidate *best = &candidates.front();
  for (const auto &c : candidates)
    if (std::tie(c.launched, c.uses) > std::tie(best->launched, best->uses)) best = &c;
  const std::size_t entry = best->k;
  const auto &e = o.statements[entry];

  auto by = python_binders(o);
  std::vector<bool> need(o.statements.size(), false), device(o.statements.size(), false);
  // The device side: the entry point and the functions and classes it calls.
  device[entry] = true;
  for (std::vector<std::size_t> work{entry}; !work.empty();) {
    auto k = work.back();
    work.pop_back();
    for (const auto &r : o.statements[k].reads) {
      auto it = by.find(r);
      if (it == by.end()) continue;
      for (auto j : it->second) {
        auto kind = o.statements[j].kind;
        if (!device[j] && (kind == Kind::Function || kind == Kind::Class)) {
          device[j] = true;
          work.push_back(j);
        }
      }
    }
  }
  // The launch: top-level code that launches the entry point (`name[grid](`).
  text::Regex launch("\\b" + e.name + "\\s*\\[");
  std::vector<std::size_t> launchers;
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    const auto &s = o.statements[k];
    if (device[k] || (s.kind != Kind::Function && s.kind != Kind::Class)) continue;
    bool launches = false;
    for (std::size_t i = s.header; i < s.end && !launches; ++i) launches = launch.contains(o.lines[i].python);
    if (launches) launchers.push_back(k);
  }
  launchers = drop_bench(o, launchers);
  need = device;
  for (auto k : launchers) need[k] = true;
  add_always(o, need);
  close_python(o, by, need);

  std::set<std::size_t> snippet, dispatch;
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    if (!need[k]) continue;
    add_range(device[k] ? snippet : dispatch, o.statements[k].begin, o.statements[k].end);
  }
  ReferenceKernelCode out;
  out.name = e.name;
  out.snippet = quote_lines(lines, snippet);
  out.dispatch = quote_lines(lines, dispatch);
  out.launched = !launchers.empty();
  out.quoted_lines = non_blank(lines, snippet) + non_blank(lines, dispatch);
  return out;
}

std::optional<ReferenceKernelCode> cuda_entry(const ModuleOutline &o, const std::vector<std::string_view> &lines) {
  struct Candidate {
    std::size_t item;
    bool launched;
    std::size_t uses;
  };
  std::vector<Candidate> candidates;
  for (std::size_t c = 0; c < o.c_items.size(); ++c) {
    const auto &item = o.c_items[c];
    if (item.kind != CItem::Kind::Function || item.binds.empty() || item.head.find("__global__") == std::string::npos)
      continue;
    const auto &name = item.binds.front();
    text::Regex launch("\\b" + name + "\\s*<<<");
    Candidate cand{c, false, 0};
    for (std::size_t i = 0; i < o.lines.size(); ++i) {
      if (i >= item.begin && i < item.end) continue;
      cand.uses += count_identifier(o.lines[i].c, name);
      if (!cand.launched && launch.contains(o.lines[i].c)) cand.launched = true;
    }
    candidates.push_back(cand);
  }
  if (candidates.empty()) return std::nullopt;
  const Candidate *best = &candidates.front();
  for (const auto &c : candidates)
    if (std::tie(c.launched, c.uses) > std::tie(best->launched, best->uses)) best = &c;
  const auto &entry = o.c_items[best->item];
  const std::string name = entry.binds.front();
  const std::size_t source = entry.statement;

  // C items of the kernel's own source string, by the names they bind.
  std::map<std::string, std::vector<std::size_t>> c_by;
  for (std::size_t c = 0; c < o.c_items.size(); ++c)
    if (o.c_items[c].statement == source)
      for (const auto &b : o.c_items[c].binds) c_by[b].push_back(c);
  std::vector<bool> c_need(o.c_items.size(), false), c_device(o.c_items.size(), false);
  auto close_c = [&](std::vector<bool> &set, std::vector<std::size_t> work) {
    while (!work.empty()) {
      auto c = work.back();
      work.pop_back();
      for (const auto &r : o.c_items[c].reads) {
        auto it = c_by.find(r);
        if (it == c_by.end()) continue;
        for (auto j : it->second)
          if (!set[j]) {
            set[j] = true;
            work.push_back(j);
          }
      }
    }
  };
  c_device[best->item] = true;
  close_c(c_device, {best->item});
  // The host side: the functions of any source that launch or name the
  // kernel, bindings that register a quoted host function, the includes.
  std::vector<std::size_t> host;
  std::set<std::size_t> other_sources;
  for (std::size_t c = 0; c < o.c_items.size(); ++c) {
    const auto &item = o.c_items[c];
    if (c_device[c] || item.kind != CItem::Kind::Function || !item.reads.count(name)) continue;
    if (item.head.find("__global__") != std::string::npos || item.head.find("__device__") != std::string::npos)
      continue;
    if (item.statement == source)
      host.push_back(c);
    else
      other_sources.insert(item.statement);
  }
  c_need = c_device;
  for (auto c : host) c_need[c] = true;
  close_c(c_need, host);
  for (bool grew = true; grew;) {
    grew = false;
    std::vector<std::string> quoted_names;
    for (std::size_t c = 0; c < o.c_items.size(); ++c)
      if (c_need[c] && !c_device[c])
        quoted_names.insert(quoted_names.end(), o.c_items[c].binds.begin(), o.c_items[c].binds.end());
    for (std::size_t c = 0; c < o.c_items.size(); ++c) {
      const auto &item = o.c_items[c];
      if (c_need[c] || item.statement != source) continue;
      bool registration = item.head.starts_with("PYBIND11_MODULE") || item.head.starts_with("TORCH_LIBRARY");
      if (item.kind == CItem::Kind::Include || (registration && reads_any(item.reads, quoted_names))) {
        c_need[c] = grew = true;
        close_c(c_need, {c});
      }
    }
  }

  // The Python that builds the source and calls what it builds.
  auto by = python_binders(o);
  std::vector<bool> need(o.statements.size(), false);
  need[source] = true;
  for (auto k : other_sources) need[k] = true;
  std::vector<std::size_t> builders, callers;
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    const auto &s = o.statements[k];
    if (k != source && s.kind != Kind::MainGuard && reads_any(s.reads, o.statements[source].binds))
      builders.push_back(k);
  }
  std::vector<std::string> built;
  for (auto k : builders) {
    need[k] = true;
    built.insert(built.end(), o.statements[k].binds.begin(), o.statements[k].binds.end());
  }
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    const auto &s = o.statements[k];
    if (need[k] || (s.kind != Kind::Function && s.kind != Kind::Class && s.kind != Kind::Assignment)) continue;
    if (reads_any(s.reads, built)) callers.push_back(k);
  }
  for (auto k : drop_bench(o, callers)) need[k] = true;
  add_always(o, need);
  close_python(o, by, need);

  std::set<std::size_t> snippet, dispatch;
  // The dispatch's source string is whole (the kernel and its device code
  // too), so the dispatch runs as quoted; the snippet is the kernel to read.
  for (std::size_t c = 0; c < o.c_items.size(); ++c) {
    if (!c_need[c]) continue;
    if (c_device[c]) add_range(snippet, o.c_items[c].begin, o.c_items[c].end);
    add_range(dispatch, o.c_items[c].begin, o.c_items[c].end);
  }
  for (std::size_t k = 0; k < o.statements.size(); ++k) {
    if (!need[k]) continue;
    const auto &s = o.statements[k];
    if (k != source) {
      add_range(dispatch, s.begin, s.end);
      continue;
    }
    // The source string's own statement: its Python lines (the string's
    // opening and closing), not the C items left out.
    for (std::size_t i = s.begin; i < s.end; ++i)
      if (!text::strip(o.lines[i].python).empty()) dispatch.insert(i);
  }
  ReferenceKernelCode out;
  out.name = name;
  out.cuda = true;
  out.snippet = quote_lines(lines, snippet);
  out.dispatch = quote_lines(lines, dispatch);
  out.launched = !host.empty() || !other_sources.empty();
  out.quoted_lines = non_blank(lines, dispatch); // the snippet is a part of it
  return out;
}

// A decorated function inside another (a method, a factory): its decorator
// lines, its def and its body, quoted alone.
std::optional<ReferenceKernelCode> nested_entry(const std::vector<std::string_view> &lines) {
  static const text::Regex decorator(R"(^(\s+)@[\w.]*(?:jit|kernel)\w*\b)");
  static const text::Regex def(R"(^(\s*)(?:async\s+)?def\s+(\w+)\s*\()");
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto d = decorator.match(lines[i]);
    if (!d) continue;
    std::size_t j = i;
    while (j < lines.size() && !def.match(lines[j])) ++j;
    if (j >= lines.size()) break;
    auto m = def.match(lines[j]);
    std::size_t indent = (*m)[1].size(), end = j + 1;
    for (std::size_t k = j + 1; k < lines.size(); ++k) {
      if (text::strip(lines[k]).empty()) continue;
      if (lines[k].size() - text::lstrip(lines[k]).size() <= indent) break;
      end = k + 1;
    }
    std::set<std::size_t> which;
    add_range(which, i, end);
    ReferenceKernelCode out;
    out.name = std::string((*m)[2]);
    out.snippet = quote_lines(lines, which);
    out.quoted_lines = non_blank(lines, which);
    return out;
  }
  return std::nullopt;
}

// A CUDA or HIP source file (kernel.cu beside a kernel.py that builds it):
// the file is the kernel and its host code, quoted whole; the entry point
// is the `__global__` function a `<<<...>>>` launches, else the first.
std::optional<ReferenceKernelCode> c_source_entry(std::string_view source, const std::vector<std::string_view> &lines) {
  // The name before the parameter list: `__launch_bounds__(...)` and
  // `__align__(...)` qualify the function, they do not name it.
  static const text::Regex global(
      R"(\b__global__\b(?:[^;{(]|\b__(?:launch_bounds|align)__\s*\([^()]*\))*?\b(?!__(?:launch_bounds|align)__)([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> names;
  for (const auto &m : global.find_all(source)) names.emplace_back(m[1]);
  if (names.empty()) return std::nullopt;
  ReferenceKernelCode out;
  out.name = names.front();
  for (const auto &n : names)
    if (text::Regex("\\b" + n + "\\s*<<<").contains(source)) {
      out.name = n;
      out.launched = true;
      break;
    }
  out.cuda = true;
  std::set<std::size_t> all;
  add_range(all, 0, lines.size());
  out.snippet = quote_lines(lines, all);
  out.quoted_lines = non_blank(lines, all);
  return out;
}

} // namespace

std::optional<ReferenceKernelCode> reference_kernel_code(std::string_view source, code::Language language) {
  auto lines = split_lines(source);
  std::optional<ReferenceKernelCode> out;
  if (language == code::Language::CFamily) {
    out = c_source_entry(source, lines);
  } else {
    auto outline = code::outline_module(source);
    out = python_entry(outline, lines);
    if (!out) out = nested_entry(lines);
    if (!out) out = cuda_entry(outline, lines);
  }
  if (!out) return out;
  // The whole file, but for comment and docstring lines the scrubber left
  // an artefact in ("an earlier step: changed BLOCK_SIZE from 128 to 64."),
  // unless the line opens or closes the docstring.
  // So is a constant nothing reads (`_TUNE_ID = 971854  # an earlier step:
  // ...`, `#define TUNE_ID_V50 1  // ...`) whose comment holds one: the
  // code runs the same without it.
  static const text::Regex constant(R"(^(?:([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)|\s*#\s*define\s+([A-Za-z_]\w*)\b))");
  auto bound_by = [&](std::string_view line) -> std::string {
    auto m = constant.search(line);
    return m ? std::string(m->has(1) ? (*m)[1] : (*m)[2]) : std::string();
  };
  // No line reads it: every line naming it assigns it (a stamp the run
  // re-assigns at each step).
  auto unread_constant = [&](std::string_view line) {
    std::string name = bound_by(line);
    if (name.empty()) return false;
    for (auto other : lines)
      if (bound_by(other) != name && count_identifier(other, name) > 0) return false;
    return true;
  };
  // The values the code sets each name to (case-folded: the run's comment
  // "num_warps = 2" speaks of `NUM_WARPS`), for the comments below.
  static const text::Regex sets(
      R"((?:^|[\s,(;])(?:constexpr\s+|const\s+|static\s+)*(?:int\s+|unsigned\s+)?([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)\s*(\d+)\b|^\s*#\s*define\s+([A-Za-z_]\w*)\s+\(?(\d+)\)?\s*$)");
  const auto lexed = code::lex_source(source, language);
  std::map<std::string, std::set<std::string>> code_sets;
  for (const auto &line : lexed) {
    if (line.kind == code::LineKind::Comment) continue;
    sets.for_each_match(line.text, [&](const text::Match &m) {
      const bool define = m.has(3);
      code_sets[text::to_lower(define ? m[3] : m[1])].emplace(define ? m[4] : m[2]);
    });
  }
  // A whole-line comment that sets a name the code sets otherwise
  // ("# BLOCK_N = 2048  (tuned for the large shapes)" above `BLOCK_N =
  // 1024`): a step that changed only the comment left it (kit 45, R12,
  // R02), and a reader would take it for the kernel's setting.
  static const text::Regex comment_sets(R"(^\s*(?:#|//)\s*([A-Za-z_]\w*)\s*(?:=|:)\s*(\d+)\b)");
  auto stale_setting = [&](const code::SourceLine &line) {
    if (line.kind != code::LineKind::Comment) return false;
    auto m = comment_sets.search(line.text);
    if (!m) return false;
    auto it = code_sets.find(text::to_lower((*m)[1]));
    return it != code_sets.end() && !it->second.count(std::string((*m)[2]));
  };
  std::vector<std::string_view> kept;
  for (const auto &line : lexed) {
    bool phrase = scrub::holds_replacement_phrase(line.text);
    bool artefact =
        phrase && ((line.kind == code::LineKind::Comment && line.text.find("\"\"\"") == std::string_view::npos &&
                    line.text.find("'''") == std::string_view::npos) ||
                   unread_constant(line.text));
    if (!artefact && !scrubbed_comment_line(line.text) && !stale_setting(line)) kept.push_back(line.text);
  }
  while (!kept.empty() && text::strip(kept.back()).empty()) kept.pop_back();
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (i) out->whole_file += '\n';
    out->whole_file.append(kept[i]);
    if (!text::strip(kept[i]).empty()) ++out->whole_file_lines;
  }
  return out;
}

} // namespace otm::distill
