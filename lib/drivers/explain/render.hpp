// otm-explain's two output formats: text for a person (one block per
// record) and JSON for a program (one object per record, one per line).
#pragma once

#include <string>

#include "explain/explanation.hpp"
#include "json/value.hpp"

namespace otm::explain {

std::string to_text(const Explanation &e);
json::Value to_json(const Explanation &e);

} // namespace otm::explain
