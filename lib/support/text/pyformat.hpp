// printf-style number formatting as the contract specifies it (C printf,
// round-half-even on exact binary ties), and Python's round(x, n).
#pragma once

#include <string>

namespace otm::text {

// "%.<precision>f"
std::string fixed(double value, int precision);
// "%+.<precision>f"
std::string fixed_signed(double value, int precision);
// Python round(x, ndigits): the double nearest to the correctly rounded
// decimal (formatting with %.<n>f and parsing back).
double round_to(double value, int ndigits);

} // namespace otm::text
