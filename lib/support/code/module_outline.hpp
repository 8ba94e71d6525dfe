// The top level of a Python kernel file, statement by statement, and of the
// C/C++/CUDA source its strings hold (load_inline), item by item, each with
// the names it binds and the names it reads: what a reader needs to quote a
// function together with everything it uses, and nothing else (the drafter's
// reference-kernel rule, distill/reference_kernel_code).
//
//   Python statements: an import; a def or class with all its decorator
//     lines (a multi-line `@triton.autotune(...)` too) and its body; an
//     assignment, multi-line ones whole; a compound statement (if, try,
//     with, for, while) with its clauses; `if __name__ == ...` (a main
//     guard); any other expression. Trailing blank and comment lines belong
//     to what follows, so a statement's lines end at its last code line.
//   C items of an embedded source: a preprocessor line (with its backslash
//     continuations); a declaration up to its `;`; a function, a type or a
//     macro block (`PYBIND11_MODULE(...) {`) up to its closing brace.
//
// Reads are syntactic and generous: any identifier of a code span but an
// attribute (`x.name`, `p->name`, `ns::name`) or a keyword argument's name
// (`num_warps=8`); in a Python function or class, its parameters and the
// names it binds are its own, not reads. So a statement may seem to read a
// name it does not (never the reverse, but through strings: `getattr(m,
// "X")`). Binds: what a statement defines at module level, or mutates
// (`CONFIG["k"] = v` binds CONFIG: whoever needs CONFIG needs that too).
//
// Usage:
//   auto outline = code::outline_module(text);
//   for (const auto &s : outline.statements) s.binds, s.reads, s.begin, s.end
//   for (const auto &c : outline.c_items) c.statement, c.binds, c.reads
//   outline.lines[i].python / .c      // the code of line i, by reader
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct PythonStatement {
  enum class Kind { Import, Function, Class, Assignment, Compound, MainGuard, Expression };
  Kind kind = Kind::Expression;
  std::size_t begin = 0, end = 0; // lines [begin, end): decorators first, the last code line last
  std::size_t header = 0;         // the `def` / `class` line (begin when undecorated)
  std::string name;               // of a def or class
  std::vector<std::string> binds; // at module level, in order
  std::set<std::string> reads;    // free names it reads
  bool wildcard = false;          // `from m import *`: may bind any name
  bool holds_source = false;      // some of its lines hold embedded C/C++/CUDA source
};

struct CItem {
  enum class Kind { Include, Preprocessor, Define, Function, Type, Declaration, Other };
  Kind kind = Kind::Other;
  std::size_t begin = 0, end = 0; // lines [begin, end) of the file
  std::size_t statement = 0;      // the Python statement whose string holds it
  std::vector<std::string> binds;
  std::set<std::string> reads;
  std::string head; // its code up to the first `{` (or `;`), whitespace collapsed
};

struct OutlineLine {
  std::string python;     // the line's Python code (strings and comments left out), tokens space-separated
  std::string c;          // its embedded C/C++/CUDA code
  bool blank = true;      // no code, comment or string text at all
  bool in_string = false; // starts inside a multi-line string (docstring or embedded source)
};

struct ModuleOutline {
  std::vector<OutlineLine> lines;
  std::vector<PythonStatement> statements; // in file order
  std::vector<CItem> c_items;              // in file order
};

ModuleOutline outline_module(std::string_view source);

} // namespace otm::code
