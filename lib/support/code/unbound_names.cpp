#include "code/unbound_names.hpp"

#include <algorithm>
#include <set>

#include "code/module_outline.hpp"

namespace otm::code {
namespace {

// Python 3's builtins module and the names every module has: the language,
// not a setting.
bool is_builtin(const std::string &name) {
  static const std::set<std::string> names = {
      "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
      "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits", "delattr", "dict", "dir",
      "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset", "getattr",
      "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter",
      "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object", "oct", "open",
      "ord", "pow", "print", "property", "quit", "range", "repr", "reversed", "round", "set", "setattr",
      "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "__import__",
      "__name__", "__file__", "__doc__", "__spec__", "__package__", "__builtins__", "__debug__", "self", "cls",
      "NotImplemented", "Ellipsis", "BaseException", "Exception", "ArithmeticError", "AssertionError",
      "AttributeError", "BufferError", "EOFError", "FloatingPointError", "GeneratorExit", "ImportError",
      "ModuleNotFoundError", "IndexError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
      "NameError", "NotImplementedError", "OSError", "OverflowError", "RecursionError", "ReferenceError",
      "RuntimeError", "StopIteration", "StopAsyncIteration", "SyntaxError", "SystemError", "SystemExit",
      "TypeError", "UnboundLocalError", "UnicodeError", "ValueError", "ZeroDivisionError", "Warning",
      "UserWarning", "DeprecationWarning", "RuntimeWarning", "FutureWarning", "EnvironmentError", "IOError"};
  return names.count(name) > 0;
}

} // namespace

std::vector<std::string> unbound_names(std::string_view python_source) {
  auto outline = outline_module(python_source);
  std::set<std::string> bound, read;
  for (const auto &s : outline.statements) {
    if (s.wildcard) return {};
    bound.insert(s.binds.begin(), s.binds.end());
    read.insert(s.reads.begin(), s.reads.end());
  }
  // A read guarded by a test of the module's globals (`CONFIG if "CONFIG"
  // in globals() else {...}`, kit 57) runs only when the name is bound.
  auto guarded = [&](const std::string &n) {
    for (const char *q : {"\"", "'"})
      if (python_source.find(q + n + q + " in globals()") != std::string_view::npos) return true;
    return false;
  };
  std::vector<std::string> out;
  for (const auto &n : read)
    if (!bound.count(n) && !is_builtin(n) && !guarded(n)) out.push_back(n);
  return out;
}

} // namespace otm::code
