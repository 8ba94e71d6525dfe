// gates.md §2.1, reporting every error of every record (no truncation).
#include "gates/gates.hpp"

namespace otm::gates {

namespace {

class SchemaPass : public RecordPass {
public:
  SchemaPass(std::string gate, const schema::Schema *schema, std::string what)
      : gate_(std::move(gate)), schema_(schema), what_(std::move(what)) {}
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
  std::string gate_;
  const schema::Schema *schema_;
  std::string what_;
  GateResult out_;
  std::size_t ok_ = 0, seen_ = 0;
};

} // namespace

std::unique_ptr<RecordPass> schema_pass(const Context &ctx) {
  return std::make_unique<SchemaPass>("schema", ctx.store_schema.get(), "schema");
}

GateResult gate_schema(const Context &ctx) { return over_records(schema_pass(ctx), ctx); }

GateResult gate_profile(const Context &ctx) {
  return over_records(std::make_unique<SchemaPass>("profile", ctx.profile.get(), "profile"), ctx);
}

} // namespace otm::gates
