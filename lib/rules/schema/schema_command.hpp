// otm-schema's modes as a library call: generate the profile, check it for
// staleness, show the patches, validate records against it.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace otm::schema {

struct SchemaCommand {
  enum class Mode { Generate, Check, Show, Validate } mode = Mode::Generate;
  std::optional<std::string> base_file;    // default: built-in clean-1.3
  std::optional<std::string> patches_file; // default: built-in patch list
  std::optional<std::string> profile_file; // output (generate) / committed profile (check, validate)
  std::vector<std::string> records;        // validate
};

// Returns the exit code (0 / 1); throws an Error (Usage, UnreadableInput) when an input is
// missing or unreadable.
int run_schema_command(const SchemaCommand &cmd, std::ostream &out, std::ostream &err);

} // namespace otm::schema
