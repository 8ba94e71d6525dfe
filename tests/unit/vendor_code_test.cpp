// NVIDIA PTX in inline assembly (code/vendor_code.hpp).
#include <catch2/catch.hpp>

#include "code/vendor_code.hpp"

using namespace otm;

TEST_CASE("vendor code: PTX in a CUDA asm statement or Triton's inline asm is found", "[code][issue25]") {
  auto cuda =
      code::ptx_inline_assembly("CUDA_SRC = r'''\n"
                                "__device__ uint4 ld(const void* p) { uint4 r;\n"
                                "  asm volatile(\"ld.global.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];\"\n"
                                "               : \"=r\"(r.x), \"=r\"(r.y), \"=r\"(r.z), \"=r\"(r.w) : \"l\"(p));\n"
                                "  return r; }\n'''\n");
  REQUIRE(cuda);
  CHECK(*cuda == "ld.global.L1::no_allocate.v4.u32");
  auto triton = code::ptx_inline_assembly("y = tl.inline_asm_elementwise(\"tanh.approx.f32 $0, $1;\", \"=r,r\", [x], "
                                          "dtype=tl.float32, is_pure=True, pack=1)");
  REQUIRE(triton);
  CHECK(*triton == "tanh.approx.f32");
}

TEST_CASE("vendor code: plain code, AMD assembly or the word asm elsewhere is no PTX", "[code][issue25]") {
  CHECK_FALSE(code::ptx_inline_assembly("x = tl.load(p + offs)\n# no asm here\n"));
  CHECK_FALSE(code::ptx_inline_assembly("asm volatile(\"s_waitcnt vmcnt(0)\" ::: \"memory\");"));
  CHECK_FALSE(code::ptx_inline_assembly("plasma = 3\n"));
}
