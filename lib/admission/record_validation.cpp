#include "admission/record_validation.hpp"

#include "record/established_fact.hpp"
#include "record/store_layout.hpp"

namespace otm::admission {

std::vector<std::string> validate_for_admission(const json::Value &record, const RecordCheck &store_checks) {
  if (!record.is_object()) return {"<root>: the record is not a JSON object"};
  std::vector<std::string> out = record::established_fact_problems(record);
  // The live path is derived from type, scope and id; a value that cannot be
  // a safe path component is refused here, before anything is written.
  try {
    record::record_relpath(record);
  } catch (const record::LayoutError &e) {
    out.push_back(std::string("layout: ") + e.what());
  }
  if (store_checks) {
    for (auto &p : store_checks(record))
      if (!p.starts_with("SKIP:")) out.push_back(std::move(p));
  }
  return out;
}

RecordCheck default_store_checks() {
  return [](const json::Value &record) {
    std::vector<std::string> out;
    if (record.string_or("schema") != "clean-1.3") out.push_back("schema: must be \"clean-1.3\"");
    return out;
  };
}

} // namespace otm::admission
