#include "workspace/shape_finding.hpp"

#include <utility>

namespace otm::workspace {

namespace {

using F = ShapeFinding;

// Each field by key, so a key is spelled once for reading.
constexpr std::pair<const char *, std::string F::*> kStrings[] = {
    {"shape", &F::shape},
    {"loop", &F::loop},
    {"step", &F::step},
    {"bound", &F::bound},
};

} // namespace

ShapeFinding ShapeFinding::from_json(const json::Value &entry) {
  ShapeFinding f;
  for (const auto &[key, field] : kStrings)
    if (const auto *s = entry.get(key).as_string()) f.*field = *s;
  return f;
}

} // namespace otm::workspace
