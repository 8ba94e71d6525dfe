// The numbers of a record as the no-fabrication gate reads them (gates.md
// §3.5): which sections are audited, how a number is found in text, and the
// magnitude keys two mentions of one number share. The gate and otm-explain
// both use this, so "where does this number come from" is asked of exactly
// the numbers the gate admitted.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "json/value.hpp"

namespace otm::gates {

// One number in a text: digits not glued to an identifier (`sm_90`, `fp16`
// hold none), an exponent read as part of its number (`1e-05` is one).
struct NumberToken {
  std::string text;              // as written, e.g. "-4.12"
  std::size_t offset = 0;        // byte offset in the text
  std::vector<std::string> keys; // "%g" of |x|, plus the integer form when whole
};
std::vector<NumberToken> number_tokens(std::string_view text);

// The keys of every number in `text`, added to `out`.
void number_keys(std::string_view text, std::set<std::string> &out);

// A scalar's text as audited: a string as is, a number in Python's form,
// anything else empty.
std::string audited_text(const json::Value &v);

// The record sections whose numbers must all be in the packet, as dotted
// paths: worth.gain, evidence.summary, payload, retrieval.signals.metrics.
const std::vector<std::string> &audited_sections();

// The keys of every number a record may cite from its packet: those of
// the packet's `agent_facing` and `target` layers (their scalars, and their
// JSON text) and of its code file.
inline const char *const kPacketNumberLayers[] = {"agent_facing", "target"};
std::set<std::string> packet_numbers(const json::Value &packet, std::string_view code);

// The value at a dotted path of object keys and list indices ("worth.gain",
// walk_scalars' "a.list[3].b"); null when absent.
const json::Value &at_path(const json::Value &v, std::string_view dotted);

} // namespace otm::gates
