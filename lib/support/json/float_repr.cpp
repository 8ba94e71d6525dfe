#include "json/float_repr.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

namespace otm::json {

void append_python_float_repr(std::string &out, double value) {
  if (std::isnan(value)) return void(out += "nan");
  if (std::isinf(value)) return void(out += value < 0 ? "-inf" : "inf");
  if (value == 0.0) return void(out += std::signbit(value) ? "-0.0" : "0.0");

  // Shortest round-trip digits in scientific form: [-]d[.ddd]e±XX. Built in
  // fixed buffers: the writer calls this for every float of every row.
  char sci[64];
  const char *end = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific).ptr;
  const char *p = sci;
  if (*p == '-') {
    out += '-';
    ++p;
  }
  char digits[32];
  std::size_t n = 0;
  for (; p < end && *p != 'e'; ++p)
    if (*p != '.') digits[n++] = *p;
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+'), end, exponent);

  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-exponent - 1), '0');
      out.append(digits, n);
    } else {
      auto int_len = static_cast<std::size_t>(exponent) + 1;
      if (n <= int_len) {
        out.append(digits, n);
        out.append(int_len - n, '0');
        out += ".0";
      } else {
        out.append(digits, int_len);
        out += '.';
        out.append(digits + int_len, n - int_len);
      }
    }
    return;
  }
  out += digits[0];
  if (n > 1) {
    out += '.';
    out.append(digits + 1, n - 1);
  }
  // e, the sign, at least two digits.
  char ebuf[8] = {'e', exponent < 0 ? '-' : '+'};
  int mag = exponent < 0 ? -exponent : exponent;
  char *e = ebuf + 2;
  if (mag < 10) *e++ = '0';
  e = std::to_chars(e, ebuf + sizeof ebuf, mag).ptr;
  out.append(ebuf, static_cast<std::size_t>(e - ebuf));
}

std::string python_float_repr(double value) {
  std::string out;
  append_python_float_repr(out, value);
  return out;
}

} // namespace otm::json
