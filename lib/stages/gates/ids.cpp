// gates.md §2.2.
#include "gates/gates.hpp"

#include <map>

namespace otm::gates {

namespace {

class IdsPass : public RecordPass {
public:
  void record(const RecordEntry &r) override {
    if (!r.parse_error.empty()) return; // the schema gate reports it
    const auto *id = r.record.get("id").as_string();
    if (!id || id->empty()) {
      out_.findings.push_back(finding("ids", r, "record has no id"));
      return;
    }
    auto [it, fresh] = seen_.emplace(*id, r.file);
    if (!fresh) out_.findings.push_back(finding("ids", r, "duplicate id (also in " + it->second + ")", *id));
    if (!r.path.empty() && r.path.filename() != *id + ".json")
      out_.findings.push_back(
          finding("ids", r, "file name " + r.path.filename().string() + " is not " + *id + ".json", *id));
    std::size_t segments = 1;
    for (char c : *id) segments += c == '.';
    if (segments < 5)
      out_.findings.push_back(finding("ids", r, "id has " + std::to_string(segments) + " segments, fewer than 5", *id));
  }
  GateResult finish() override { return std::move(out_); }

private:
  GateResult out_;
  std::map<std::string, std::string> seen_; // id -> first file
};

} // namespace

std::unique_ptr<RecordPass> ids_pass(const Context &) { return std::make_unique<IdsPass>(); }

GateResult gate_ids(const Context &ctx) { return over_records(ids_pass(ctx), ctx); }

} // namespace otm::gates
