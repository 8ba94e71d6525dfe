// GCC 12 with -fsanitize=address reports a false -Wmaybe-uninitialized inside
// libstdc++'s <regex>, which Catch2's main instantiates; under -Werror that
// broke the sanitizer build of the test binary.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
