#include "distill/packet.hpp"

#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "json/parse.hpp"

namespace otm::distill {

Packet load_packet(const std::filesystem::path &path) {
  Packet p;
  p.path = path;
  p.doc = json::parse_file(path);
  if (!p.doc.is_object())
    throw json::ParseError(path.string() + ": a packet must be a JSON object (rebuild it with otm-packet)");
  const auto &af = p.agent_facing();
  for (const char *key : {"diff_file", "kernel_file"}) {
    const auto *name = af.get(key).as_string();
    if (!name || name->empty()) continue;
    auto why = record::unsafe_component_reason(*name);
    if (!why.empty())
      throw json::ParseError(path.string() + ": agent_facing." + key + " '" + *name + "' " + why +
                             ": a sibling file must sit next to the packet");
    p.code_name = *name;
    p.code = io::read_file(path.parent_path() / *name);
    break;
  }
  return p;
}

} // namespace otm::distill
