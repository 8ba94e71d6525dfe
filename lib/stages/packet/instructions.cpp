#include "packet/instructions.hpp"

#include "record/established_fact.hpp"

namespace otm::packet {

json::Value split_instruction(const std::string &split_by) {
  if (split_by == "mechanical")
    return "This packet already isolates one failed lever: write exactly one anti-strategy record for it.";
  if (split_by == "curated")
    return "This packet already isolates one recorded pitfall: write exactly one anti-strategy record for it.";
  if (split_by == "agent")
    return "The prose below may describe several unrelated failed levers: write one record for the most "
           "substantial one only, name the others in payload.lesson or payload.would_retry_if, and note that an "
           "anti-strategy payload has no next_steps key.";
  return {};
}

json::Value established_fact_required(const json::Value &precheck) {
  static_assert(record::kMinMechanismChars == 40, "the rule text below states the mechanism minimum");
  json::Value e = json::Value::object();
  e.set("rule", "A negative record is accepted only when it states a law: a checkable condition under which the "
                "lever must fail. Fill payload.established_fact with a condition using at least one of sm_arch / "
                "shape_regime / dtype / toolchain (the operator alone is not a condition) and a mechanism of at "
                "least 40 characters saying why it necessarily fails; a measurement is not a mechanism. Take both "
                "only from this packet.");
  e.set("verdict_must_conclude", "The verdict must be one of accuracy-gate/ceiling, api-limitation, "
                                 "not-worth-it-here, performance-ceiling; unknown and unstable are not in the enum.");
  e.set("precheck", precheck);
  const auto *p = precheck.as_string();
  if (!p || *p == "ok") {
    e.set("precheck_note", json::Value());
  } else {
    e.set("precheck_note", "The pre-check flagged this text (" + *p +
                               "): find the checkable condition and the cause in the evidence above, and emit no "
                               "record when neither is there.");
  }
  return e;
}

} // namespace otm::packet
