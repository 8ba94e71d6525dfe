# Packed relative relocations (DT_RELR) for every executable, where the
# linker and the C library have them (binutils 2.38, glibc 2.36).
#
# An executable is position-independent (kept for address randomisation: otm
# reads hostile traces), so every pointer in its data is a relative
# relocation the loader applies at start. With libgit2's dependencies linked
# from their archives (cmake/system_libraries.cmake) that is about 19,000 of
# them, most in OpenSSL's tables; as RELA entries they are 24 bytes each,
# 0.47 MB of bin/otm. DT_RELR stores the same relocations as a bitmap of
# 6 KB: bin/otm 12.9 -> 12.4 MB, 327 -> 322 page faults per start, the same
# instruction count (docs/benchmarks.md, "2026-12-03 (session 7), issue 11:
# start-up").
# Probed by linking and running a program, so a toolchain without it links
# as before.
include(CheckCXXSourceRuns)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_QUIET ON)
set(CMAKE_REQUIRED_LINK_OPTIONS "LINKER:-z,pack-relative-relocs")
check_cxx_source_runs([[
static const char *p = "relocated";
int main() { return p[0] == 'r' ? 0 : 1; }
]] OTM_PACKED_RELOCATIONS)
cmake_pop_check_state()
if(OTM_PACKED_RELOCATIONS)
  add_link_options("LINKER:-z,pack-relative-relocs")
endif()
