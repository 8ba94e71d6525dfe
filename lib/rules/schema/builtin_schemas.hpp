// The schema files shipped in schema/, compiled in at configure time (like
// data/otm-config.json), so every executable validates the same contract
// from any directory. Runtime lookup (docs/tools/otm-schema.md):
//   --schema FILE  >  the live store's own schema (with --live)  >  built-in.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "schema/json_schema.hpp"

namespace otm::schema {

const char *builtin_store_schema_text(); // schema/clean-1.3.schema.json
const char *builtin_patch_list_text();   // schema/opt-trace-1.0.patches.json
const char *builtin_profile_text();      // schema/opt-trace-1.0.schema.json

// The one way a schema is loaded (load_schema.cpp): FILE when given,
// else the compiled-in one. A file that is not a schema otm can evaluate is
// an UnreadableInput Error naming it; the built-in ones always load.
std::shared_ptr<const Schema> store_schema(const std::optional<std::filesystem::path> &file = std::nullopt);
std::shared_ptr<const Schema> profile_schema(const std::optional<std::filesystem::path> &file = std::nullopt);

// The schema a live store ships: <live>/schema/kernel/schema.json or
// <live>/../schema/kernel/schema.json (a store root is the directory that
// holds records/); nullopt when neither exists.
std::optional<std::filesystem::path> live_store_schema(const std::filesystem::path &live_root);

} // namespace otm::schema
