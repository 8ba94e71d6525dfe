// The admission path derivation (lib/rules/record/store_layout): for any record,
// the derived path is refused (LayoutError) or lies strictly inside the
// store, one file below records/<type>/<vendor>/<arch>/<dsl>/<family>/.
#include <string>

#include "fuzz_target.hpp"
#include "record/store_layout.hpp"
#include "json/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace otm;
  json::Value record;
  try {
    record = json::parse(std::string_view(reinterpret_cast<const char *>(data), size), "<fuzz>");
  } catch (const json::ParseError &) {
    return 0;
  }
  std::filesystem::path rel;
  try {
    rel = record::record_relpath(record);
  } catch (const record::LayoutError &) {
    return 0;
  }
  FUZZ_CHECK(rel.is_relative());
  std::size_t parts = 0;
  for (const auto &part : rel) {
    FUZZ_CHECK(record::unsafe_component_reason(part.string()).empty());
    ++parts;
  }
  FUZZ_CHECK(parts == 6);
  const std::filesystem::path root = "/store/records";
  auto full = record::inside(root, rel);
  FUZZ_CHECK(full.lexically_relative(root) == rel.lexically_normal());
  return 0;
}
