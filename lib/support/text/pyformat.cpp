#include "text/pyformat.hpp"

#include <cstdio>
#include <cstdlib>

namespace otm::text {

std::string fixed(double value, int precision) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", precision, value);
  return buf;
}

std::string fixed_signed(double value, int precision) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%+.*f", precision, value);
  return buf;
}

double round_to(double value, int ndigits) { return std::strtod(fixed(value, ndigits).c_str(), nullptr); }

} // namespace otm::text
