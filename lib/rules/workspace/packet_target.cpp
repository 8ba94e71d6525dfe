#include "workspace/packet_target.hpp"

#include <utility>

namespace otm::workspace {

namespace {

using T = PacketTarget;

// Each field by its key under `target` (scope's under target.scope), so a
// key is spelled once.
constexpr std::pair<const char *, std::string T::*> kTargetStrings[] = {
    {"id", &T::id},
    {"output_dir", &T::output_dir},
};
constexpr std::pair<const char *, std::string T::Scope::*> kScopeStrings[] = {
    {"vendor", &T::Scope::vendor},
    {"product", &T::Scope::product},
    {"dsl", &T::Scope::dsl},
    {"operator_family", &T::Scope::operator_family},
};

} // namespace

PacketTarget PacketTarget::from_json(const json::Value &packet) {
  const auto &target = packet.get("target");
  PacketTarget t;
  for (const auto &[key, field] : kTargetStrings)
    if (const auto *s = target.get(key).as_string()) t.*field = *s;
  for (const auto &[key, field] : kScopeStrings)
    if (const auto *s = target.get("scope").get(key).as_string()) t.scope.*field = *s;
  return t;
}

} // namespace otm::workspace
