// gates.md §2.2.
#include "gates/gates.hpp"

#include "text/string_pool.hpp"

namespace otm::gates {

namespace {

class IdsPass : public RecordPass {
public:
  void record(const RecordEntry &r) override {
    if (!r.parse_error.empty()) return; // the schema gate reports it
    const auto *id = r.record.get("id").as_string();
    if (!id || id->empty()) {
      out_.findings.push_back(finding(Gate::Ids, r, "record has no id"));
      return;
    }
    auto [index, fresh] = ids_.intern(*id);
    if (fresh)
      first_file_.push_back(files_.keep(r.file));
    else
      out_.findings.push_back(
          finding(Gate::Ids, r, "duplicate id (also in " + std::string(first_file_[index]) + ")", *id));
    if (!r.path.empty() && r.path.filename() != *id + ".json")
      out_.findings.push_back(
          finding(Gate::Ids, r, "file name " + r.path.filename().string() + " is not " + *id + ".json", *id));
    std::size_t segments = 1;
    for (char c : *id) segments += c == '.';
    if (segments < 5)
      out_.findings.push_back(
          finding(Gate::Ids, r, "id has " + std::to_string(segments) + " segments, fewer than 5", *id));
  }
  GateResult finish() override { return std::move(out_); }

private:
  GateResult out_;
  // Each id seen, and the file it was first seen in (by the id's index).
  text::StringPool ids_;
  text::StringArena files_;
  std::vector<std::string_view> first_file_;
};

} // namespace

std::unique_ptr<RecordPass> ids_pass(const Context &) { return std::make_unique<IdsPass>(); }

GateResult gate_ids(const Context &ctx) { return over_records(ids_pass(ctx), ctx); }

} // namespace otm::gates
