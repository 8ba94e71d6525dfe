#include "gates/finding.hpp"

namespace otm::gates {

json::Value to_json(const Finding &f) {
  json::Value v = json::Value::object();
  v.set("gate", f.gate);
  v.set("record", f.record);
  v.set("file", f.file);
  v.set("message", f.message);
  if (!f.token.empty()) v.set("token", f.token);
  return v;
}

} // namespace otm::gates
