// Code only one GPU vendor's toolchain builds: NVIDIA PTX in inline
// assembly (`asm volatile("ld.global.nc.v4.u32 ...")`, Triton's
// `inline_asm_elementwise` with a PTX instruction). A kernel presented for
// an AMD GPU that holds it cannot be assembled for that GPU, whatever its
// trace says was measured there (round 18: a cross-entropy reference kernel
// for MI300X whose hot loop is `ld.global.L1::no_allocate...v4.u32`).
//
//   if (auto ptx = code::ptx_inline_assembly(file_text)) *ptx   // "ld.global.nc.v4.u32"
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace otm::code {

// The first PTX instruction an inline-assembly string of the source names;
// nullopt when there is none.
std::optional<std::string> ptx_inline_assembly(std::string_view source);

} // namespace otm::code
