// How a Python kernel file (Triton, Gluon) launches its JIT kernel, read
// for one shape: the module's parts a shape's run depends on (read_module)
// and what the launcher passes the kernel for a shape's axes (launch_of).
// The reading shape_paths.cpp builds its answers on (which shapes run
// changed code, programs per shape, a kernel's defects per shape); private
// to lib/support/code/. Anything it cannot follow throws CannotTell, which
// each answer turns into "no answer" for every shape.
//
//   const Module m = read_module(source);
//   const Launch launch = launch_of(m, shape, var_axes);
//   launch.passed.front()  // "grid=(528, 1)"
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "code/python_expr.hpp"
#include "code/shape_paths.hpp"
#include "error/error.hpp"
#include "text/regex.hpp"

namespace otm::code {

// One logical line of code: continuation lines joined, its comment cut,
// whitespace collapsed; `indent` is its first physical line's.
struct Line {
  std::size_t indent = 0;
  std::string code;
  bool operator==(const Line &) const = default;
};

// A kernel file this reading cannot follow; shapes_running_changed_code
// turns it into "no answer" for every shape.
struct CannotTell : Error {
  CannotTell() : Error(ErrorKind::UnreadableInput, "a kernel file whose launch otm cannot follow") {}
};

// `s` without its trailing spaces.
std::string_view text_trimmed(std::string_view s);

// `NAME = expr` (not `==`, not augmented), or `a, b = expr`.
const text::Regex &assignment();

// The names in an assignment's targets (or any expression), in order.
std::vector<std::string> identifiers_in(const std::string &targets);

// The index of the bracket that closes the one at `open` in `s`, past
// strings; throws CannotTell when none does.
std::size_t matching(const std::string &s, std::size_t open);

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

// Which launch a reading follows. A change is read only where the
// launcher launches one kernel (which shapes take which launch is beyond
// this reading); a kernel's own defects (shared memory, unmasked tails) are
// read in the first kernel it launches, which every shape runs (round 14:
// split-KV decode with its reduce kernel after it).
enum class Launches { One, FirstOfSeveral };

// The module of kernel file `text`, with a `.multi_processor_count` query
// bound to `sm_count` when given.
Module read_module(std::string_view text, std::optional<long> sm_count = std::nullopt,
                   Launches launches = Launches::One);

// What one shape's launch passes: the grid and every argument, evaluated;
// and the bindings the kernel's constexprs take.
struct Launch {
  std::vector<std::string> passed; // "grid=...", "NAME=...", positional values
  Bindings constexprs;
  Bindings arguments; // every parameter the launch binds, by position or keyword
  bool operator==(const Launch &o) const { return passed == o.passed; }
};

// The launch of `m`'s kernel for `shape`, its axes bound by name or by
// position through `var_axes`.
Launch launch_of(const Module &m, const ShapeAxes &shape, const std::vector<std::string> &var_axes,
                 std::optional<long> sm_count = std::nullopt);

} // namespace otm::code
