// The records otm-explain is asked about: each argument a record file, an
// id in the staging or live store, or '-' for JSONL on standard input.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "json/value.hpp"

namespace otm::explain {

struct InputRecord {
  std::string file; // the path, "<store>/records/...", or "<stdin>:N"
  json::Value record;
};

// Throws an otm::Error of kind Usage naming the argument when it is neither a readable
// record file nor an id in `staging` or `live`, and json::ParseError when a
// file or a stdin line does not parse, or standard input passes
// limits.max_input_bytes or a line of it limits.max_line_bytes.
std::vector<InputRecord> resolve_records(const std::vector<std::string> &args,
                                         const std::optional<std::filesystem::path> &staging,
                                         const std::optional<std::filesystem::path> &live,
                                         const config::Limits &limits);

} // namespace otm::explain
