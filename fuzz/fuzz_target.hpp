// The interface every fuzz target implements: libFuzzer's entry point. The
// same target links into a libFuzzer binary (clang -fsanitize=fuzzer, by
// bench/fuzz) and into otm-fuzz-replay (fuzz/replay_main.cpp, any compiler),
// which runs it over the committed corpus and over mutations of it as a
// ctest (docs/security.md). A target aborts (FUZZ_CHECK) when an invariant
// of the component breaks; a thrown exception the component documents is
// not a finding, anything else escapes and is one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

#define FUZZ_CHECK(cond)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      std::fprintf(stderr, "fuzz invariant broken: %s (%s:%d)\n", #cond, __FILE__, __LINE__);                          \
      std::abort();                                                                                                    \
    }                                                                                                                  \
  } while (0)
