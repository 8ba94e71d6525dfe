// gates.md §2.1, reporting every error of every record (no truncation).
#include "gates/gates.hpp"

namespace otm::gates {

namespace {

class SchemaPass : public RecordPass {
public:
  // Its errors read "<gate name>: <path>: <message>": the gate's name says
  // which document ("schema", "profile") the record failed.
  SchemaPass(Gate gate, const schema::Schema *schema) : gate_(gate), schema_(schema), what_(gate_name(gate)) {}
  void record(const RecordEntry &r) override {
    ++seen_;
    if (!schema_) return;
    if (!r.parse_error.empty()) {
      out_.findings.push_back(finding(gate_, r, "does not parse: " + r.parse_error));
      return;
    }
    auto errors = schema_->validate(r.record);
    if (errors.empty()) ++ok_;
    for (const auto &e : errors)
      out_.findings.push_back(finding(gate_, r, what_ + ": " + e.path + ": " + e.message, e.path));
  }
  GateResult finish() override {
    if (!schema_) return cannot_run(gate_, "no " + what_ + " loaded");
    out_.note = std::to_string(ok_) + " of " + std::to_string(seen_) + " records satisfy " + what_;
    return std::move(out_);
  }

private:
  Gate gate_;
  const schema::Schema *schema_;
  std::string what_;
  GateResult out_;
  std::size_t ok_ = 0, seen_ = 0;
};

} // namespace

std::unique_ptr<RecordPass> schema_pass(const Context &ctx) {
  return std::make_unique<SchemaPass>(Gate::Schema, ctx.store_schema.get());
}

GateResult gate_schema(const Context &ctx) { return over_records(schema_pass(ctx), ctx); }

GateResult gate_profile(const Context &ctx) {
  return over_records(std::make_unique<SchemaPass>(Gate::Profile, ctx.profile.get()), ctx);
}

} // namespace otm::gates
