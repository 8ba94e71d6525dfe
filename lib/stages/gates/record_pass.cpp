#include "gates/record_pass.hpp"

#include "gates/gates.hpp"

namespace otm::gates {

namespace {

GateResult crashed(const GateInfo &gate, const std::exception &e) {
  GateResult r;
  r.crashed = true;
  r.note = "ERROR";
  r.findings.push_back({gate.name, "", "", std::string("gate crashed: ") + e.what(), ""});
  return r;
}

// A gate's own pass, with run_gate's crash rule: once it throws, only the
// crash is reported.
class Guarded : public RecordPass {
public:
  Guarded(const GateInfo &gate, const Context &ctx) : gate_(gate) {
    try {
      inner_ = gate.pass(ctx);
    } catch (const std::exception &e) {
      failure_ = crashed(gate_, e);
    }
  }
  void record(const RecordEntry &r) override {
    if (failure_) return;
    try {
      inner_->record(r);
    } catch (const std::exception &e) {
      failure_ = crashed(gate_, e);
    }
  }
  GateResult finish() override {
    if (failure_) return *failure_;
    try {
      return inner_->finish();
    } catch (const std::exception &e) {
      return crashed(gate_, e);
    }
  }

private:
  const GateInfo &gate_;
  std::unique_ptr<RecordPass> inner_;
  std::optional<GateResult> failure_;
};

// A per-record gate without a pass: its function on a context holding one
// record at a time. Findings concatenate in record order, as the function
// over all records would give them; the note is the last record's.
class OneAtATime : public RecordPass {
public:
  OneAtATime(const GateInfo &gate, const Context &ctx) : gate_(gate), ctx_(ctx) { ctx_.records.clear(); }
  void record(const RecordEntry &r) override {
    if (out_.crashed || out_.note == "cannot run") return;
    ctx_.records.assign(1, r);
    auto one = run_gate_function(gate_, ctx_);
    // A crash, or a gate that cannot run, is reported once, not per record.
    if (one.crashed || one.note == "cannot run") {
      out_ = std::move(one);
      return;
    }
    for (auto &f : one.findings) out_.findings.push_back(std::move(f));
    out_.note = std::move(one.note);
  }
  GateResult finish() override {
    if (!out_.crashed && out_.note.empty() && ctx_.records.empty()) out_ = run_gate(gate_, ctx_);
    return std::move(out_);
  }

private:
  const GateInfo &gate_;
  Context ctx_;
  GateResult out_;
};

// A whole-store gate without a pass: holds the records and runs at the end.
class AllAtEnd : public RecordPass {
public:
  AllAtEnd(const GateInfo &gate, const Context &ctx) : gate_(gate), ctx_(ctx) { ctx_.records.clear(); }
  void record(const RecordEntry &r) override { ctx_.records.push_back(r); }
  GateResult finish() override { return run_gate(gate_, ctx_); }

private:
  const GateInfo &gate_;
  Context ctx_;
};

// Any pass, failing closed as run_gate does: each record it could not read
// becomes a finding at the end unless the gate reported that file itself.
class FailClosed : public RecordPass {
public:
  FailClosed(const GateInfo &gate, std::unique_ptr<RecordPass> inner) : gate_(gate), inner_(std::move(inner)) {}
  void record(const RecordEntry &r) override {
    inner_->record(r);
    if (!r.parse_error.empty()) unreadable_.push_back(unreadable_finding(gate_.name, r));
  }
  GateResult finish() override {
    GateResult r = inner_->finish();
    add_unreadable(std::move(unreadable_), r);
    return r;
  }

private:
  const GateInfo &gate_;
  std::unique_ptr<RecordPass> inner_;
  std::vector<Finding> unreadable_;
};

} // namespace

GateResult over_records(std::unique_ptr<RecordPass> pass, const Context &ctx) {
  for (const auto &r : ctx.records) pass->record(r);
  return pass->finish();
}

std::unique_ptr<RecordPass> pass_for(const GateInfo &gate, const Context &ctx) {
  if (gate.whole_store && !gate.pass) return std::make_unique<AllAtEnd>(gate, ctx); // run_gate fails closed
  if (gate.pass) return std::make_unique<FailClosed>(gate, std::make_unique<Guarded>(gate, ctx));
  return std::make_unique<FailClosed>(gate, std::make_unique<OneAtATime>(gate, ctx));
}

} // namespace otm::gates
