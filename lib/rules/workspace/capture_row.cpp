#include "workspace/capture_row.hpp"

namespace otm::workspace {

CaptureRow CaptureRow::from_json(const json::Value &row) {
  CaptureRow c;
  if (const auto *s = row.get("dir").as_string()) c.dir = *s;
  if (const auto *s = row.get("version").as_string()) c.version = *s;
  if (const auto *s = row.get("profiled_kernel").as_string()) c.profiled_kernel = *s;
  c.ncu_usable = row.get("ncu_usable").truthy();
  c.has_report = row.get("has_report").truthy();
  return c;
}

} // namespace otm::workspace
