// Reading the work files that more than one stage consumes (partition,
// recon, otm-packet). Errors name the file and the stage that writes it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "config/limits.hpp"
#include "workspace/trace_meta.hpp"
#include "json/value.hpp"

namespace otm::workspace {

// The ladder rows (work/ladder.jsonl, or "-" for stdin), read within
// `limits` (max_input_bytes, max_line_bytes); every row must be an object
// with a string `version` and a `selection` (otherwise the file is not
// otm-ladder output), and its verdict's fields of their types
// (LadderVerdict: an UnreadableInput Error naming the field).
std::vector<json::Value> read_ladder_rows(const std::string &path_or_dash, const config::Limits &limits);
// meta.json, whose `meta` object must be present (an UnreadableInput Error
// naming the file when it or the file is absent).
json::Value read_meta(const std::filesystem::path &meta_file);
// Its `meta` object, typed (workspace/trace_meta.hpp).
TraceMeta read_trace_meta(const std::filesystem::path &meta_file);

} // namespace otm::workspace
