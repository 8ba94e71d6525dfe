#include "store/refusal_row.hpp"

namespace otm::store {

RefusalRow RefusalRow::from_json(const json::Value &line) {
  RefusalRow r;
  if (const auto *s = line.get("seg_id").as_string()) r.seg_id = *s;
  if (const auto *s = line.get("record_type").as_string()) r.record_type = *s;
  if (const auto *s = line.get("why").as_string()) r.why = *s;
  if (const auto *s = line.get("refused").as_string()) r.refused = *s;
  if (const auto *s = line.get("gate").as_string()) r.gate = *s;
  return r;
}

} // namespace otm::store
