#include "gates/record_numbers.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "text/regex.hpp"
#include "json/write.hpp"

namespace otm::gates {

namespace {

std::string percent_g(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

} // namespace

std::vector<NumberToken> number_tokens(std::string_view text) {
  static const text::Regex number(R"((?<![A-Za-z0-9_.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![A-Za-z_]))");
  std::vector<NumberToken> out;
  for (const auto &m : number.find_all(text)) {
    NumberToken t;
    t.text = std::string(m[0]);
    t.offset = m.begin;
    double x = std::fabs(std::strtod(t.text.c_str(), nullptr));
    if (!std::isfinite(x)) continue;
    t.keys.push_back(percent_g(x));
    if (x == std::floor(x) && x < 1e18) {
      std::string whole = std::to_string(static_cast<long long>(x));
      if (whole != t.keys.front()) t.keys.push_back(whole);
    }
    out.push_back(std::move(t));
  }
  return out;
}

void number_keys(std::string_view text, std::set<std::string> &out) {
  for (auto &t : number_tokens(text)) out.insert(t.keys.begin(), t.keys.end());
}

std::string audited_text(const json::Value &v) {
  if (v.is_string()) return *v.as_string();
  if (v.is_number()) return v.python_str();
  return "";
}

std::set<std::string> packet_numbers(const json::Value &packet, std::string_view code) {
  std::set<std::string> pool;
  for (const char *layer : kPacketNumberLayers) number_keys(json::to_line(packet.get(layer)), pool);
  number_keys(code, pool);
  return pool;
}

const std::vector<std::string> &audited_sections() {
  static const std::vector<std::string> s = {"worth.gain", "evidence.summary", "payload", "retrieval.signals.metrics"};
  return s;
}

const json::Value &at_path(const json::Value &v, std::string_view dotted) {
  const json::Value *cur = &v;
  static const json::Value null;
  while (!dotted.empty()) {
    auto dot = dotted.find('.');
    auto part = dotted.substr(0, dot);
    // "list[3]": the key, then each index (walk_scalars' path form).
    auto bracket = part.find('[');
    cur = &cur->get(part.substr(0, bracket));
    while (bracket != std::string_view::npos) {
      auto close = part.find(']', bracket);
      if (close == std::string_view::npos) return null;
      std::size_t i = 0;
      for (char ch : part.substr(bracket + 1, close - bracket - 1)) {
        if (ch < '0' || ch > '9') return null;
        i = i * 10 + static_cast<std::size_t>(ch - '0');
      }
      const auto *a = cur->as_array();
      if (!a || i >= a->size()) return null;
      cur = &(*a)[i];
      bracket = part.find('[', close);
    }
    dotted = dot == std::string_view::npos ? std::string_view() : dotted.substr(dot + 1);
  }
  return *cur;
}

} // namespace otm::gates
