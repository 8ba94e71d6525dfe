#include "workspace/packet_code.hpp"

#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "json/parse.hpp"

namespace otm::workspace {

PacketCode packet_sibling(const std::filesystem::path &packet_path, const json::Value &packet, const char *key) {
  const auto *name = packet.get("agent_facing").get(key).as_string();
  if (!name || name->empty()) return {};
  auto why = record::unsafe_component_reason(*name);
  if (!why.empty())
    throw json::ParseError(packet_path.string() + ": agent_facing." + key + " '" + *name + "' " + why +
                           ": a sibling file must sit next to the packet");
  return {*name, io::read_file(packet_path.parent_path() / *name)};
}

PacketCode packet_code(const std::filesystem::path &packet_path, const json::Value &packet) {
  for (const char *key : {"diff_file", "kernel_file"})
    if (auto c = packet_sibling(packet_path, packet, key); !c.name.empty()) return c;
  return {};
}

} // namespace otm::workspace
