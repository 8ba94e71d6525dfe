#include "record/id_format.hpp"

#include <cstdio>
#include <cstdlib>

namespace otm::record {

const text::Regex &id_regex() {
  static const text::Regex r(R"(^[a-z0-9][a-z0-9._-]*$)");
  return r;
}

bool is_valid_id(std::string_view id) { return id_regex().search(id).has_value() && id.find('\n') == id.npos; }

std::string make_id(const IdParts &p) {
  std::string middle = p.record_type == "anti-strategy" ? p.workload_family + ".anti" : p.operator_slug;
  char disc[16];
  std::snprintf(disc, sizeof disc, "%02d", p.disc);
  return p.vendor + "." + (p.product.empty() ? std::string("any") : p.product) + "." + p.dsl + "." + middle + "." +
         p.technique + "-" + p.marker + disc;
}

std::string make_episode_key(std::string_view arch, std::string_view dsl, std::string_view operator_slug,
                             std::string_view technique) {
  std::string key;
  key.reserve(arch.size() + dsl.size() + operator_slug.size() + technique.size() + 13);
  (((key += arch) += '|') += dsl) += '|';
  (key += operator_slug) += '|';
  // Each run of '-' becomes one '_' (a regex replace per segment was half of
  // building a segment's keys).
  for (std::size_t i = 0; i < technique.size(); ++i) {
    if (technique[i] != '-') {
      key += technique[i];
    } else if (i == 0 || technique[i - 1] != '-') {
      key += '_';
    }
  }
  return key += "|operator";
}

std::optional<Discriminator> parse_discriminator(std::string_view id) {
  static const text::Regex tail(R"(-([a-z])(\d+)$)");
  auto m = tail.search(id);
  if (!m) return std::nullopt;
  std::string digits((*m)[2]);
  if (digits.size() > 9) return std::nullopt;
  return Discriminator{(*m)[1][0], std::atoi(digits.c_str())};
}

namespace {
// Names as regex alternatives: anything but [a-z0-9] escaped.
std::string alternatives(const std::vector<std::string> &names) {
  std::string out;
  for (const auto &n : names) {
    if (!out.empty()) out += "|";
    for (char c : n) {
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) out += '\\';
      out += c;
    }
  }
  return out;
}
} // namespace

std::shared_ptr<const text::Regex> id_mention_regex(const std::vector<std::string> &vendors,
                                                    const std::vector<std::string> &products) {
  return std::make_shared<const text::Regex>(R"(\b(?:)" + alternatives(vendors) + R"()\.(?:)" + alternatives(products) +
                                             R"()\.[a-z0-9-]+\.[a-z0-9-]+\.)");
}

std::vector<std::string> id_mention_needles(const std::vector<std::string> &vendors) {
  std::vector<std::string> out;
  for (const auto &v : vendors) {
    for (char c : v)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return {};
    out.push_back(v + ".");
  }
  return out;
}

char marker_for(std::string_view record_type) {
  if (record_type == "anti-strategy") return 't';
  if (record_type == "reference-kernel") return 'r';
  return 's';
}

} // namespace otm::record
