#include "trace/hardware.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "text/regex.hpp"

namespace otm::trace {
namespace {

bool contains(const std::vector<std::string> &v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string joined(const std::vector<std::string> &v) {
  std::string out;
  for (const auto &s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

void add_tokens(const json::Value &v, std::vector<std::string> &out) {
  if (const auto *s = v.as_string()) {
    out.push_back(*s);
  } else if (const auto *a = v.as_array()) {
    for (const auto &item : *a)
      if (const auto *t = item.as_string()) out.push_back(*t);
  }
}

} // namespace

const std::vector<std::string> &known_vendors() {
  static const std::vector<std::string> v = {"nvidia", "amd", "generic"};
  return v;
}

const std::vector<std::string> &known_archs() {
  static const std::vector<std::string> v = {"ampere", "hopper", "blackwell", "blackwell-ultra", "blackwell-geforce",
                                             "cdna3",  "cdna4",  "rdna4",     "generic"};
  return v;
}

const std::vector<std::string> &known_dsls() {
  static const std::vector<std::string> v = {"cuda", "cutedsl", "flydsl", "gluon", "triton", "aiter", "any"};
  return v;
}

std::string vendor_of_arch(std::string_view arch) {
  if (arch == "ampere" || arch == "hopper" || arch.starts_with("blackwell")) return "nvidia";
  if (arch.starts_with("cdna") || arch.starts_with("rdna")) return "amd";
  if (arch == "generic") return "generic";
  return "";
}

bool is_valid_product(std::string_view product) {
  static const text::Regex id("^[a-z0-9][a-z0-9_-]*\\z");
  return id.match(product).has_value();
}

std::string normalise_hardware_token(std::string_view token) {
  std::string out;
  for (unsigned char c : token) {
    if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out.push_back(static_cast<char>(c));
  }
  return out;
}

std::optional<config::TargetEntry> lookup_target(const std::vector<config::TargetEntry> &table,
                                                 std::string_view token) {
  std::string norm = normalise_hardware_token(token);
  if (norm.empty()) return std::nullopt;
  const config::TargetEntry *best = nullptr;
  for (const auto &e : table) {
    if (e.key == norm) return e;
    if (norm.find(e.key) != std::string::npos && (!best || e.key.size() > best->key.size())) best = &e;
  }
  if (!best) return std::nullopt;
  return *best;
}

std::vector<std::string> hardware_tokens(const json::Value &definition, const json::Value &solution) {
  std::vector<std::string> out;
  add_tokens(solution.get("spec").get("target_hardware"), out);
  add_tokens(definition.get("target_hardware"), out);
  add_tokens(definition.get("gpu"), out);
  add_tokens(definition.get("hardware"), out);
  return out;
}

void validate_configured(const ConfiguredTarget &c) {
  if (c.vendor && !contains(known_vendors(), *c.vendor))
    throw Error(ErrorKind::Refused, c.vendor_source + " is '" + *c.vendor + "', not a vendor the store schema knows (" +
                                        joined(known_vendors()) + ")");
  if (c.arch && !contains(known_archs(), *c.arch))
    throw Error(ErrorKind::Refused, c.arch_source + " is '" + *c.arch +
                                        "', not an architecture the store schema knows (" + joined(known_archs()) +
                                        ")");
  if (c.product && !c.product->empty() && !is_valid_product(*c.product))
    throw Error(ErrorKind::Refused,
                c.product_source + " is '" + *c.product +
                    "', which cannot be part of a record id (use lower-case letters, digits, '-' and '_', "
                    "starting with a letter or digit)");
  if (c.vendor && c.arch && *c.vendor != "generic" && *c.arch != "generic" && vendor_of_arch(*c.arch) != *c.vendor)
    throw Error(ErrorKind::Refused, c.vendor_source + " is '" + *c.vendor + "' but " + c.arch_source + " is '" +
                                        *c.arch + "', an architecture of " + vendor_of_arch(*c.arch) +
                                        "; set them consistently");
}

HardwareTarget resolve_hardware(const std::vector<std::string> &tokens, const std::vector<config::TargetEntry> &table,
                                const ConfiguredTarget &configured) {
  HardwareTarget t;
  for (const auto &tok : tokens) {
    if (auto e = lookup_target(table, tok)) {
      t.vendor = e->vendor;
      t.arch = e->arch;
      t.product = e->product.empty() ? "any" : e->product;
      std::vector<std::string> first3(tokens.begin(), tokens.begin() + std::min<std::size_t>(3, tokens.size()));
      t.arch_basis = "detected from the trace (" + joined(first3) + ")";
      return t;
    }
  }
  if (configured.arch) {
    // An unset vendor follows from the architecture instead of being
    // guessed as nvidia (docs/differences.md).
    t.vendor = configured.vendor ? *configured.vendor : vendor_of_arch(*configured.arch);
    t.arch = *configured.arch;
    t.product = configured.product && !configured.product->empty() ? *configured.product : "any";
    t.arch_basis = "configured (RTM_ARCH / registry entry)";
    return t;
  }
  std::string seen =
      tokens.empty() ? "no hardware tokens" : "tokens [" + joined(tokens) + "], none in the target table";
  throw Error(
      ErrorKind::Refused,
      "cannot tell which hardware this trace ran on: solution.json spec.target_hardware and definition.json "
      "(target_hardware, gpu, hardware) give " +
          seen + ", and no target is configured. Set RTM_ARCH (or --arch; one of " + joined(known_archs()) +
          "), optionally RTM_VENDOR (--vendor) and RTM_PRODUCT (--product), or put a known token (e.g. b200, h100, "
          "mi300x) in solution.json spec.target_hardware. Filing under a guessed architecture is refused.");
}

} // namespace otm::trace
