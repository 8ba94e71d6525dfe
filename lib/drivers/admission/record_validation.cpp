#include "admission/record_validation.hpp"

#include <memory>

#include "config/config.hpp"
#include "error/error.hpp"
#include "gates/admission.hpp"
#include "gates/denylist.hpp"
#include "record/store_layout.hpp"
#include "schema/builtin_schemas.hpp"
#include "schema/json_schema.hpp"
#include "json/parse.hpp"

namespace otm::admission {

std::vector<std::string> validate_for_admission(const json::Value &record, const RecordCheck &checks) {
  if (!record.is_object()) return {"<root>: the record is not a JSON object"};
  std::vector<std::string> out;
  if (checks) out = checks(record);
  // The live path is derived from type, scope and id; a value that cannot be
  // a safe path component is refused here, before anything is written.
  try {
    record::record_relpath(record);
  } catch (const record::LayoutError &e) {
    out.push_back(std::string("layout: ") + e.what());
  }
  return out;
}

RecordCheck default_store_checks(const std::filesystem::path &live_root, const std::optional<std::string> &schema_file,
                                 const std::optional<std::string> &denylist_file, const config::Config &config) {
  std::optional<std::filesystem::path> file;
  if (schema_file)
    file = *schema_file;
  else if (!live_root.empty())
    file = schema::live_store_schema(live_root);
  std::shared_ptr<const schema::Schema> schema = schema::store_schema(file);
  gates::AdmissionOptions options;
  if (denylist_file) options.denylist = gates::load_denylist(*denylist_file);
  options.id_products = gates::target_products(config);
  return [schema, options](const json::Value &record) {
    return gates::validate_record_for_admission(record, *schema, options);
  };
}

} // namespace otm::admission
