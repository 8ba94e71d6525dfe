#include "gates/served_projection.hpp"

#include <string_view>

namespace otm::gates {

std::vector<ServedPart> served_parts(const json::Value &r) {
  std::vector<ServedPart> parts = {{"id", &r.get("id")},
                                   {"type", &r.get("type")},
                                   {"level", &r.get("level")},
                                   {"retrieval", &r.get("retrieval"), true},
                                   {"payload", &r.get("payload")},
                                   {"evidence.summary", &r.get("evidence").get("summary")},
                                   {"worth.rank.score", &r.get("worth").get("rank").get("score")},
                                   {"worth.rank.tier", &r.get("worth").get("rank").get("tier")}};
  if (const auto *g = r.get("worth").find("gain")) parts.push_back({"worth.gain", g});
  return parts;
}

namespace {
// Sets `value` at the dotted `path` of `doc`, making the objects on the way.
void set_at(json::Value &doc, std::string_view path, json::Value value) {
  auto dot = path.find('.');
  std::string key(path.substr(0, dot));
  if (dot == std::string_view::npos) {
    doc.set(key, std::move(value));
    return;
  }
  if (!doc.get(key).is_object()) doc.set(key, json::Value::object());
  set_at(*doc.find(key), path.substr(dot + 1), std::move(value));
}
} // namespace

json::Value served_projection(const json::Value &r) {
  json::Value s = json::Value::object();
  for (const auto &part : served_parts(r)) {
    json::Value v = *part.value;
    if (part.skip_links) {
      v.erase("locator");
      v.erase("links");
    }
    set_at(s, part.key_path, std::move(v));
  }
  return s;
}

} // namespace otm::gates
