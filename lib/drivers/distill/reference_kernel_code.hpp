// Which lines of a kernel file a reference-kernel record quotes (spec
// distill.md §4.3, issue 25: "runnable as quoted"): the entry point and
// everything it needs to run, split in two fields. Only whole lines of the
// file are selected, never edited, in file order, so both fields are
// verbatim by construction.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "code/source_lexer.hpp"

namespace otm::distill {

// The entry point:
//   Python DSLs: among top-level functions with a decorator naming "jit" or
//     "kernel", the one the rest launches (`name[grid](...)`), else the one
//     named most often outside its own definition; ties go to the earliest.
//   Otherwise C/C++/CUDA source in a Python string (load_inline): the
//     `__global__` function a host function launches (`name<<<...>>>`), else
//     the one named most often, else the first.
//   A decorated function nested in another (a method, a factory) when no
//     top-level one exists: quoted alone, without a dispatch.
//
// What is quoted: the entry point and, transitively, every top-level
// definition of the file that a quoted line reads (a name bound by an import,
// an assignment - multi-line ones whole -, a def or class, or by a
// `#define`, a function, a type or a variable of the kernel's source
// string), plus the launch: the top-level functions and classes that launch
// the entry point (Python DSLs), or the host function holding its `<<<>>>`
// launch, the Python statements that build its source (load_inline) and the
// functions that call what they build (CUDA). A bench harness, an unused
// function, module-level test code and `if __name__ == "__main__":` are
// quoted only when something quoted reads them (the main guard never).
// Benchmark- or test-named launchers (bench*, test*, main, …) are left out
// when another function launches the kernel too.
//
// How it is split:
//   snippet          the kernel: the entry point with every decorator line,
//                    and the functions (and classes) it calls, transitively
//                    - the helpers `@triton.jit` / `@gluon.jit` functions
//                    that run on the device; for CUDA, the `#define`s,
//                    `__device__` functions, types and `__constant__`s it
//                    uses, with the `__global__` function itself;
//   dispatch_snippet everything else it needs, in file order: imports,
//                    module constants, host helpers, the launcher; for
//                    CUDA, the Python around the source string (its opening
//                    and closing lines, `cpp_src`, the load_inline call, the
//                    Python launcher) and the source string's quoted items
//                    whole: its #include lines, the kernel and its device
//                    code again (so the string is not cut in two), and the
//                    host function that launches the kernel.
// To run it: Python DSLs, the dispatch_snippet then the snippet, then call
// the launcher; CUDA, the dispatch_snippet alone. In each field, lines that
// are not adjacent in the file are separated by one blank line.
struct ReferenceKernelCode {
  std::string name;             // core_kernel_name
  std::string snippet;          // never empty
  std::string dispatch;         // empty when the kernel needs nothing else
  bool launched = false;        // a launcher (or host launch) is quoted
  bool cuda = false;            // the entry point is a __global__ function
  std::size_t quoted_lines = 0; // non-blank lines of both fields
  // The whole file (what otm-draft quotes when it fits the limit), without
  // the whole-line comments holding a scrubber's phrase, and its non-blank
  // line count.
  std::string whole_file;
  std::size_t whole_file_lines = 0;
};
// `language`: the kernel file's (code::language_of_path); a C-family file
// (kernel.cu) is its own kernel and host code, quoted whole.
std::optional<ReferenceKernelCode> reference_kernel_code(std::string_view source,
                                                         code::Language language = code::Language::Python);

} // namespace otm::distill
