#include "distill/operand_reuse.hpp"

#include "code/row_loop_reads.hpp"
#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

OperandReuseRule OperandReuseRule::from_json(const json::Value &section, std::string_view where) {
  OperandReuseRule r;
  if (section.is_null()) return r;
  const std::string here = std::string(where) + ": operand_reuse";
  if (!section.is_object()) throw Error(ErrorKind::Usage, here + " must be an object");
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.through_cache_ = levers::whole_token_regex_at(section, "through_cache", false, here);
  if (const auto &ops = section.get("operands"); !ops.is_null()) {
    const auto *list = ops.as_array();
    if (!list) throw Error(ErrorKind::Usage, here + ".operands must be a list");
    static const text::Regex identifier(R"(^[A-Za-z_]\w*$)");
    for (const auto &o : *list) {
      Operand op;
      op.words = levers::whole_token_regex(o.get("words"), true, here + ".operands[].words");
      const auto *pointers = o.get("pointers").as_array();
      if (!pointers || pointers->empty())
        throw Error(ErrorKind::Usage, here + ".operands[].pointers must be a non-empty list of identifiers");
      for (const auto &p : *pointers) {
        const auto *name = p.as_string();
        if (!name || !identifier.contains(*name))
          throw Error(ErrorKind::Usage, here + ".operands[].pointers: \"" + p.python_str() + "\" is no identifier");
        op.pointers.push_back(*name);
      }
      r.operands_.push_back(std::move(op));
    }
  }
  return r;
}

std::optional<std::string> OperandReuseRule::contradiction(const std::string &mechanism,
                                                           std::string_view code_after) const {
  if (!claims_ || code_after.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  if (through_cache_ && through_cache_->contains(mechanism)) return std::nullopt;
  const std::string said((*claim)[0]);
  for (const auto &op : operands_) {
    if (!op.words->contains(said)) continue;
    if (auto read = code::pointer_read_in_row_loop(code_after, op.pointers))
      return "the mechanism says the operand is loaded once for many rows (\"" + said +
             "\"), but the kernel after the change reads `" + read->name + "` inside its loop over rows (line " +
             std::to_string(read->line + 1) + ": `" + read->code + "`): each row loads it again";
  }
  return std::nullopt;
}

} // namespace otm::distill
