// Catch2 instantiates std::regex, which GCC 12 reports as maybe-uninitialized
// under the sanitizers (a false positive inside libstdc++).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
