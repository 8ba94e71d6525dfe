// Launcher expressions evaluated to comparable normal forms
// (code/python_expr), the reading behind which shapes a change reaches.
#include <catch2/catch.hpp>

#include "code/python_expr.hpp"

using namespace otm;

TEST_CASE("launcher expressions evaluate to values, or to expressions over what is unknown", "[code][issue25]") {
  code::Bindings env{{"n_cols", "128"}, {"n_rows", "4096"}, {"BLOCK_N", "4096"}};
  auto eval = [&](std::string_view e) { return code::eval_python(e, env).value_or("<none>"); };
  // Python's short-circuit values and comparisons.
  CHECK(eval("True and n_cols <= BLOCK_N") == "True");
  CHECK(eval("False and n_cols <= BLOCK_N") == "False");
  CHECK(eval("n_cols > BLOCK_N or 7") == "7");
  CHECK(eval("not n_cols") == "False");
  CHECK(eval("1 < n_cols < 64") == "False");
  CHECK(eval("1 if n_cols >= 64 else 2") == "1");
  // Arithmetic with Python's integer semantics.
  CHECK(eval("-7 // 2") == "-4");
  CHECK(eval("-7 % 3") == "2");
  CHECK(eval("n_rows / 2") == "2048.0");
  CHECK(eval("2 ** 10 + (1 << 4) - 0x10") == "1024");
  CHECK(eval("min(n_rows, 132 * 4)") == "528");
  CHECK(eval("triton.next_power_of_2(n_cols + 1)") == "256");
  CHECK(eval("triton.cdiv(n_rows, 512)") == "8");
  CHECK(eval("(n_rows,)") == "(4096,)");
  CHECK(eval("(n_rows, 2)[1]") == "2");
  // Unknowns stay symbolic: the same expression over them compares equal.
  CHECK(eval("min(n_rows, NUM_SMS * 4)") == "(?min 4096 (?* ?NUM_SMS 4))");
  CHECK(eval("min(n_rows, NUM_SMS * 4)") != eval("min(n_rows, NUM_SMS * 2)"));
  CHECK(eval("torch.cuda.get_device_properties(x.device).multi_processor_count").find('?') != std::string::npos);
  CHECK(eval("x.shape[0]").find('?') != std::string::npos);
  CHECK(eval("'evict_first'") == "?'evict_first'");
  CHECK_FALSE(code::is_known(eval("NUM_SMS and True")));
  CHECK(code::is_known("(4096,)"));
  // A binding's own normal form is read back (a tuple, an unknown).
  code::Bindings grid{{"g", "(528, 1)"}, {"u", "(?min 1 ?N)"}};
  CHECK(code::eval_python("g[0] * 2", grid) == "1056");
  CHECK(code::eval_python("(u,)", grid) == "((?min 1 ?N),)");
  // Not Python, or not an expression: nullopt.
  CHECK_FALSE(code::eval_python("n_cols +", env));
  CHECK_FALSE(code::eval_python("x = 1", env));
  CHECK_FALSE(code::eval_python("lambda: 1", env));
}
