// The integer values a kernel file gives its tile-size names: `BLOCK_M =
// 64` (a Python assignment), `#define BLOCK_N 64`, `constexpr int TILE_M =
// 128;`, and `BLOCK_N=64` passed as a keyword. Which names are tile sizes is
// the caller's (a configured pattern); a name given by an expression
// (`BLOCK_N = triton.next_power_of_2(N)`) has no value here. Read to check
// a tile size a mechanism states against the code (kit 24: "two warpgroups
// split the 128-wide tile" on a 64 x 64 tile).
//
//   for (auto &[name, value] : code::tile_constants(text, tile_name)) ...
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/regex.hpp"

namespace otm::code {

// Every (name, value) the file gives a name `is_tile` matches whole, in
// file order; a name given several values appears once per value.
std::vector<std::pair<std::string, long long>> tile_constants(std::string_view source, const text::Regex &is_tile);

// The distinct integers the file gives one name: tile_constants' forms and
// a dict or `triton.Config` key (`"BLOCK_N": 4096`), in file order.
std::vector<long long> values_given(std::string_view source, const std::string &name);

} // namespace otm::code
