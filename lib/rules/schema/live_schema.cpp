#include "schema/builtin_schemas.hpp"

#include "io/file.hpp"

namespace otm::schema {

std::optional<std::filesystem::path> live_store_schema(const std::filesystem::path &live_root) {
  for (const auto &candidate :
       {live_root / "schema" / "kernel" / "schema.json", live_root / ".." / "schema" / "kernel" / "schema.json"})
    if (io::is_regular_file(candidate)) return candidate.lexically_normal();
  return std::nullopt;
}

} // namespace otm::schema
