// The step-record reader (lib/ingest/trace/step_record): any bytes as a memory/
// file become either a version's fields or a descriptor with a reason;
// never an exception, never invalid UTF-8, never more pitfalls than the
// limit.
#include <string_view>

#include "config/limits.hpp"
#include "fuzz_target.hpp"
#include "text/utf8.hpp"
#include "trace/step_record.hpp"
#include "json/write.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  otm::config::Limits limits;
  limits.max_pitfalls_per_version = 8;
  limits.max_json_depth = 16;
  // The first byte picks the file name: the name decides the classification.
  static const char *names[] = {"v3.json", "v3_rerun.json", "V3.json", "notes.json", "v99999999999999999999.json"};
  const char *name = names[size ? data[0] % 5 : 0];
  auto r = otm::trace::read_step_record(name, size ? in.substr(1) : in, limits);
  FUZZ_CHECK(r.key.empty() || r.key == "v3");
  if (!r.key.empty()) {
    FUZZ_CHECK(r.fields.is_object());
    FUZZ_CHECK(r.fields.get("pitfalls").size() <= limits.max_pitfalls_per_version);
    FUZZ_CHECK(otm::text::is_valid_utf8(otm::json::to_line(r.fields)));
  }
  if (!r.variant.is_null()) FUZZ_CHECK(r.variant.get("file").is_string());
  FUZZ_CHECK(!r.key.empty() || !r.variant.is_null());
  return 0;
}
