// A store gate as a pass over records: it sees each record once, in store
// order, and reports at the end. The one-pass store gates
// (run_store_gates_one_pass) feed every pass from one read of each record
// file; a gate executable feeds its own pass from the records it loaded
// (over_records). Both run the same code, so their findings are the same
// bytes.
#pragma once

#include <memory>

#include "gates/context.hpp"
#include "gates/finding.hpp"

namespace otm::gates {

struct GateInfo;

class RecordPass {
public:
  virtual ~RecordPass() = default;
  // One record (a parse failure included, with its parse_error).
  virtual void record(const RecordEntry &r) = 0;
  // After the last record.
  virtual GateResult finish() = 0;
};

// Builds a gate's pass from the context (everything but `records`, which a
// pass never reads).
using PassFactory = std::unique_ptr<RecordPass> (*)(const Context &ctx);

// Runs `pass` over ctx.records.
GateResult over_records(std::unique_ptr<RecordPass> pass, const Context &ctx);

// A pass from two functions: `body(record, result)` per record and
// `done(result)` at the end (for a note); what they share they capture.
template <typename Body, typename Done> class FunctionPass : public RecordPass {
public:
  FunctionPass(Body body, Done done) : body_(std::move(body)), done_(std::move(done)) {}
  void record(const RecordEntry &r) override { body_(r, out_); }
  GateResult finish() override {
    done_(out_);
    return std::move(out_);
  }

private:
  Body body_;
  Done done_;
  GateResult out_;
};
template <typename Body, typename Done = void (*)(GateResult &)>
std::unique_ptr<RecordPass> make_pass(
    Body body, Done done = [](GateResult &) {}) {
  return std::make_unique<FunctionPass<Body, Done>>(std::move(body), std::move(done));
}

// The pass of any registry gate: its own when it has one; otherwise an
// adapter that runs the gate's whole-context function on each record alone
// (a per-record gate) or on all records at the end (a whole-store gate,
// which then holds them). An exception inside the gate becomes the crashed
// result run_gate reports.
std::unique_ptr<RecordPass> pass_for(const GateInfo &gate, const Context &ctx);

} // namespace otm::gates
