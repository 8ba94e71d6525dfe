#include "distill/packet.hpp"

#include "workspace/packet_code.hpp"
#include "json/parse.hpp"

namespace otm::distill {

Packet load_packet(const std::filesystem::path &path) {
  Packet p;
  p.path = path;
  p.doc = json::parse_file(path);
  if (!p.doc.is_object())
    throw json::ParseError(path.string() + ": a packet must be a JSON object (rebuild it with otm-packet)");
  auto code = workspace::packet_code(path, p.doc);
  p.code_name = std::move(code.name);
  p.code = std::move(code.text);
  p.code_after = workspace::packet_sibling(path, p.doc, "code_after_file").text;
  return p;
}

void redact_packet(Packet &packet, const scrub::Denylist &denylist) {
  if (denylist.empty()) return;
  if (auto *o = packet.doc.as_object())
    for (auto &[key, value] : *o)
      if (key == "agent_facing") denylist.redact_strings(value);
}

} // namespace otm::distill
