// The store gates on records read from JSONL (lib/stages/gates): any input is read
// without throwing, no gate crashes, and the gates fail closed: when a line
// cannot be parsed as a record, every gate fails.
#include <string>

#include "fuzz_target.hpp"
#include "gates/gate_cli.hpp"
#include "gates/gates.hpp"
#include "schema/builtin_schemas.hpp"
#include "json/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace otm;
  static const auto store_schema = std::make_shared<const schema::Schema>(
      json::parse(schema::builtin_store_schema_text(), "schema"), "built-in clean-1.3 schema");
  static const auto products = gates::target_products(config::Config::defaults());
  gates::Context ctx;
  std::string text(reinterpret_cast<const char *>(data), std::min<std::size_t>(size, 1 << 16));
  config::Limits limits;
  limits.max_json_depth = 16;
  ctx.records = gates::records_from_jsonl(text, "<fuzz>", limits);
  ctx.store_schema = store_schema;
  ctx.id_products = products;
  bool unreadable = false;
  for (const auto &r : ctx.records) unreadable = unreadable || !r.parse_error.empty();
  for (const auto &g : gates::all_gates()) {
    if (g.kind != gates::GateKind::Store) continue;
    auto result = gates::run_gate(g, ctx);
    FUZZ_CHECK(!result.crashed);
    if (unreadable) FUZZ_CHECK(!result.passed());
  }
  return 0;
}
