// The fixed instruction texts of an anti-strategy packet (spec packets.md
// §2.3). Their digits feed the no-fabrication pool, so the only numeral in
// them is 40 (the mechanism's minimum length, record::kMinMechanismChars).
#pragma once

#include <string>

#include "json/value.hpp"

namespace otm::packet {

// By split_by (mechanical / curated / agent); null for anything else.
json::Value split_instruction(const std::string &split_by);
// {rule, verdict_must_conclude, precheck, precheck_note}
json::Value established_fact_required(const json::Value &precheck);

} // namespace otm::packet
