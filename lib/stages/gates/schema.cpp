// gates.md §2.1, reporting every error of every record (no truncation).
#include "gates/gates.hpp"

namespace otm::gates {

namespace {
GateResult validate_all(const std::string &gate, const Context &ctx, const schema::Schema *schema,
                        const std::string &what) {
  if (!schema) return cannot_run(gate, "no " + what + " loaded");
  GateResult out;
  std::size_t ok = 0;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) {
      out.findings.push_back(finding(gate, r, "does not parse: " + r.parse_error));
      continue;
    }
    auto errors = schema->validate(r.record);
    if (errors.empty()) ++ok;
    for (const auto &e : errors)
      out.findings.push_back(finding(gate, r, what + ": " + e.path + ": " + e.message, e.path));
  }
  out.note = std::to_string(ok) + " of " + std::to_string(ctx.records.size()) + " records satisfy " + what;
  return out;
}
} // namespace

GateResult gate_schema(const Context &ctx) { return validate_all("schema", ctx, ctx.store_schema.get(), "schema"); }

GateResult gate_profile(const Context &ctx) { return validate_all("profile", ctx, ctx.profile.get(), "profile"); }

} // namespace otm::gates
