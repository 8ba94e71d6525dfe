#include "distill/operand_reuse.hpp"

#include "code/axis_loop_reads.hpp"
#include "code/shared_array_bounds.hpp"
#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

namespace {

const json::Array &list_at(const json::Value &v, const std::string &where) {
  const auto *list = v.as_array();
  if (!list) throw Error(ErrorKind::Usage, where + " must be a list");
  return *list;
}

// The start of the sentence (or clause after ';') holding byte `at`.
std::size_t sentence_start(std::string_view text, std::size_t at) {
  for (std::size_t i = at; i > 0; --i)
    if ((text[i - 1] == '.' || text[i - 1] == ';') && (i == text.size() || text[i] == ' ')) return i;
  return 0;
}

} // namespace

OperandReuseRule OperandReuseRule::from_json(const json::Value &section, std::string_view where) {
  OperandReuseRule r;
  const auto section_name = levers::rule_section(section, where, "operand_reuse");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.through_cache_ = levers::whole_token_regex_at(section, "through_cache", false, here);
  r.in_registers_ = levers::whole_token_regex_at(section, "in_registers", true, here);
  static const text::Regex identifier(R"(^[A-Za-z_]\w*$)");
  if (const auto &ops = section.get("operands"); !ops.is_null()) {
    for (const auto &o : list_at(ops, here + ".operands")) {
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
  if (const auto &axes = section.get("axes"); !axes.is_null()) {
    for (const auto &a : list_at(axes, here + ".axes")) {
      Axis axis;
      axis.words = levers::whole_token_regex(a.get("words"), true, here + ".axes[].words");
      const auto *loop = a.get("loop").as_string();
      if (!loop || loop->empty()) throw Error(ErrorKind::Usage, here + ".axes[].loop must be a non-empty pattern");
      try {
        axis.loop = std::make_shared<const text::Regex>(*loop);
      } catch (const Error &e) {
        throw Error(ErrorKind::Usage, here + ".axes[].loop: " + e.what());
      }
      const auto *name = a.get("name").as_string();
      if (!name || name->empty()) throw Error(ErrorKind::Usage, here + ".axes[].name must be a non-empty string");
      axis.name = *name;
      r.axes_.push_back(std::move(axis));
    }
  }
  return r;
}

std::optional<std::string> OperandReuseRule::contradiction(const std::string &mechanism, std::string_view code_after,
                                                           code::Language language) const {
  if (auto why = held_elsewhere(mechanism, code_after, language)) return why;
  if (!claims_ || code_after.empty() || axes_.empty()) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  if (through_cache_ && through_cache_->contains(mechanism)) return std::nullopt;
  const std::string said((*claim)[0]);
  // What the claim is about: its sentence up to the claim's end.
  const std::string_view about = std::string_view(mechanism).substr(
      sentence_start(mechanism, claim->begin), claim->end - sentence_start(mechanism, claim->begin));
  std::vector<const Axis *> axes;
  for (const auto &a : axes_)
    if (a.words->contains(said)) axes.push_back(&a);
  if (axes.empty())
    for (const auto &a : axes_) axes.push_back(&a);
  for (const auto &op : operands_) {
    if (!op.words->contains(about)) continue;
    for (const auto *axis : axes)
      if (auto read = code::pointer_read_in_axis_loop(code_after, op.pointers, *axis->loop))
        return "the mechanism says the operand is loaded once for many " + axis->name + " (\"" + said +
               "\"), but the kernel after the change reads `" + read->name + "` inside its loop over " + axis->name +
               " (line " + std::to_string(read->line + 1) + ": `" + read->code + "`): each trip loads it again";
  }
  return std::nullopt;
}

std::optional<std::string> OperandReuseRule::held_elsewhere(const std::string &mechanism, std::string_view code_after,
                                                            code::Language language) const {
  if (!in_registers_ || code_after.empty()) return std::nullopt;
  auto claim = in_registers_->search(mechanism);
  if (!claim) return std::nullopt;
  const std::size_t from = sentence_start(mechanism, claim->begin);
  const std::string_view about = std::string_view(mechanism).substr(from, claim->end - from);
  for (const auto &op : operands_) {
    if (!op.words->contains(about)) continue;
    const auto staged = code::shared_stagings(code_after, language, op.pointers);
    if (staged.empty()) continue;
    const auto &s = staged.front();
    return "the mechanism says the operand is held in registers (\"" + std::string(about) +
           "\"), but the kernel after the change stages `" + s.pointer + "` in the shared array `" + s.array +
           "` (line " + std::to_string(s.line) + ") and reads it from there";
  }
  return std::nullopt;
}

} // namespace otm::distill
