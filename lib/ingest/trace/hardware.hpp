// Hardware resolution (spec trace-format.md §6): which vendor / arch /
// product a trace's records are filed under. The trace's own hardware tokens
// win; otherwise the configured target; otherwise ingest refuses (it never
// files under a guessed architecture).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "json/value.hpp"

namespace otm::trace {

// The schema's enums (clean-1.3 retrieval.scope); a conformance test checks
// them against the store schema.
const std::vector<std::string> &known_vendors();
const std::vector<std::string> &known_archs();
const std::vector<std::string> &known_dsls();
// The vendor an architecture belongs to ("" when unknown).
std::string vendor_of_arch(std::string_view arch);
// Whether `product` can be an id component: ^[a-z0-9][a-z0-9_-]*$.
bool is_valid_product(std::string_view product);

// Lower-cased, everything outside [a-z0-9] deleted.
std::string normalise_hardware_token(std::string_view token);

// The table entry for one token: exact key, else the LONGEST key contained
// in the normalised token (ties: table order). nullopt when none.
std::optional<config::TargetEntry> lookup_target(const std::vector<config::TargetEntry> &table, std::string_view token);

// Tokens in the spec's order: solution.spec.target_hardware, then
// definition.target_hardware, .gpu, .hardware. A string is one token; in a
// list only strings count.
std::vector<std::string> hardware_tokens(const json::Value &definition, const json::Value &solution);

// The configured target (RTM_* settings, else the registry entry).
struct ConfiguredTarget {
  std::optional<std::string> vendor, arch, product;
  std::string vendor_source, arch_source, product_source; // for messages
};

// Throws a Refused Error naming the setting when a configured value is not
// in the schema's enums, not a valid id component, or vendor and arch
// disagree.
void validate_configured(const ConfiguredTarget &configured);

struct HardwareTarget {
  std::string vendor, arch, product, arch_basis;
};

// Decides the target. Throws a Refused Error saying exactly what
// to set when neither the trace nor the configuration names one.
HardwareTarget resolve_hardware(const std::vector<std::string> &tokens, const std::vector<config::TargetEntry> &table,
                                const ConfiguredTarget &configured);

} // namespace otm::trace
