// Python expressions as a kernel's launcher writes them, evaluated to a
// normal form two evaluations can compare (issue 25: which benchmarked
// shapes run the code a change touched). A value it can know is its text
// (`4096`, `0.5`, `True`, `(216, 1)`); anything else (a name without a
// value, a call it does not model, a subscript, a string) is a canonical
// expression over those unknowns (`(min 1 (* ?_NUM_SMS 2))`), so the same
// expression over the same unknowns compares equal and nothing unknown
// ever compares equal to a number.
//
//   Bindings env{{"n_cols", "128"}, {"BLOCK_N", "4096"}};
//   code::eval_python("True and n_cols <= BLOCK_N", env)  == "True"
//   code::eval_python("False and n_cols <= BLOCK_N", env) == "False"
//   code::eval_python("min(n_cols, NUM_SMS * 4)", env)    == "(min 128 (* ?NUM_SMS 4))"
//
// Modelled: numbers (ints as exact integers), True/False/None, tuples,
// + - * / // % ** unary - + ~, & | ^ << >> on integers, comparisons
// (chained), and/or/not with Python's short-circuit values, `a if c else
// b`, min, max, abs, int, and `triton.next_power_of_2` / `triton.cdiv`
// (any module prefix). A text that does not parse is nullopt.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

// name -> normal form (a value eval_python returned, or one the caller knows)
using Bindings = std::map<std::string, std::string, std::less<>>;

std::optional<std::string> eval_python(std::string_view expression, const Bindings &names);

// Whether a normal form is a value (not an expression over unknowns).
bool is_known(std::string_view normal_form);

} // namespace otm::code
