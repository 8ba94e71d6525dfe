#include "error/error.hpp"
#include "record/format_tags.hpp"
#include "schema/builtin_schemas.hpp"
#include "json/parse.hpp"

namespace otm::schema {

namespace {

std::shared_ptr<const Schema> load(const std::optional<std::filesystem::path> &file, const char *builtin,
                                   const std::string &name) {
  // A SchemaError is an UnreadableInput Error naming the file.
  if (file) return std::make_shared<const Schema>(Schema::from_file(*file));
  return std::make_shared<const Schema>(json::parse(builtin, name), name);
}

} // namespace

std::shared_ptr<const Schema> store_schema(const std::optional<std::filesystem::path> &file) {
  return load(file, builtin_store_schema_text(), std::string("built-in ") + record::kStoreSchemaTag + " schema");
}

std::shared_ptr<const Schema> profile_schema(const std::optional<std::filesystem::path> &file) {
  return load(file, builtin_profile_text(), "built-in opt-trace-1.0 profile");
}

} // namespace otm::schema
