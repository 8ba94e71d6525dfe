#include "packet/shape_reach.hpp"

#include <vector>

#include "json/parse.hpp"

namespace otm::packet {

ShapeReach shapes_reached(const KernelDiff &diff, const json::Value &segment, const Context &ctx) {
  ShapeReach out;
  const auto *from = segment.get("measured_against").get("sha").as_string();
  if (!ctx.repo || !ctx.files || !from || from->empty() || diff.base != *from || diff.target.empty()) return out;
  auto workload = ctx.files->bytes("workload.jsonl");
  if (!workload) return out;
  std::vector<std::vector<std::string>> keys; // each shape's keys: shape_id, uuid
  std::vector<code::ShapeAxes> shapes;
  try {
    for (const auto &line : json::parse_lines(*workload, "workload.jsonl")) {
      const auto *axes = line.get("axes").as_object();
      if (!axes) continue;
      code::ShapeAxes s;
      for (const auto &[name, value] : *axes)
        if (auto x = value.as_number()) s.axes.emplace_back(name, *x);
      std::vector<std::string> names;
      for (const char *k : {"shape_id", "uuid"})
        if (const auto *id = line.get(k).as_string()) names.push_back(*id);
      keys.push_back(std::move(names));
      shapes.push_back(std::move(s));
    }
  } catch (const std::exception &) {
    return out; // a workload that does not parse decides nothing here
  }
  auto before = ctx.repo->read_at(diff.base, "kernel.py"), after = ctx.repo->read_at(diff.target, "kernel.py");
  if (!before || !after || shapes.empty()) return out;
  const auto &var_axes = ctx.meta.var_axes;
  auto runs = code::shapes_running_changed_code(*before, *after, shapes, var_axes);
  auto programs = ctx.sm_count ? code::programs_per_shape(*before, *after, shapes, var_axes, ctx.sm_count)
                               : std::vector<std::optional<code::ProgramCounts>>(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (const auto &k : keys[i]) {
      if (runs[i]) out.runs_changed[k] = *runs[i];
      if (programs[i]) out.programs[k] = *programs[i];
    }
  return out;
}

} // namespace otm::packet
