#include "trace/version_key.hpp"
#include "text/regex.hpp"

namespace otm::trace {

std::optional<std::string> subject_version_prefix(std::string_view subject) {
  static const text::Regex prefix(R"((?i)^(v\d+)\s*:)");
  auto m = prefix.match(subject);
  if (!m) return std::nullopt;
  return std::string((*m)[1]);
}

std::optional<std::int64_t> version_number(std::string_view key) {
  if (key.size() < 2 || (key[0] != 'v' && key[0] != 'V')) return std::nullopt;
  std::int64_t n = 0;
  for (char c : key.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    if (n > (INT64_MAX - (c - '0')) / 10) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::string version_key_problem(std::string_view key) {
  if (version_number(key)) return "";
  for (char c : key.substr(key.empty() ? 0 : 1))
    if (c < '0' || c > '9') return "version number '" + std::string(key.substr(1)) + "' is not ASCII digits";
  return "version number " + std::string(key.substr(1)) + " is past 2^63-1";
}

} // namespace otm::trace
