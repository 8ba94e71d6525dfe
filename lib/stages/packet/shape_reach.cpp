#include "packet/shape_reach.hpp"

#include <cmath>
#include <vector>

#include "text/pyformat.hpp"
#include "json/parse.hpp"

namespace otm::packet {

namespace {

// The workload's shapes, each with its keys (shape_id, uuid); empty when
// there is none or it does not parse (which then decides nothing here).
struct WorkloadShapes {
  std::vector<std::vector<std::string>> keys;
  std::vector<code::ShapeAxes> shapes;
};

// "M1_N4096_K4096" (`name_value` "" and `join` "_") or "T=512,V=256000"
// ("=" and ","): each axis's name and whole value, in the workload's
// order; empty when a value is not whole.
std::string spelled_axes(const code::ShapeAxes::Values &axes, const char *name_value = "", const char *join = "_") {
  std::string out;
  for (const auto &[name, value] : axes) {
    if (value != std::floor(value)) return {};
    out += (out.empty() ? "" : join) + name + name_value + text::fixed(value, 0);
  }
  return out;
}

WorkloadShapes workload_shapes(const Context &ctx) {
  WorkloadShapes out;
  auto workload = ctx.files ? ctx.files->bytes("workload.jsonl") : std::nullopt;
  if (!workload) return out;
  // The definition's numeric constant axes, under their names and aliases.
  std::vector<std::pair<std::string, double>> constants;
  if (const auto *fixed = ctx.meta.constants.as_object())
    for (const auto &[name, value] : *fixed)
      if (auto x = value.as_number()) {
        constants.emplace_back(name, *x);
        if (auto a = ctx.axis_aliases.find(name); a != ctx.axis_aliases.end())
          for (const auto &alias : a->second) constants.emplace_back(alias, *x);
      }
  try {
    for (const auto &line : json::parse_lines(*workload, "workload.jsonl")) {
      // The axes under "axes", or (a flat line, {"name": "M4096_N1024",
      // "M": 4096, "N": 1024, "dtype": "bfloat16"}) the line's own numbers.
      const auto *axes = line.get("axes").as_object();
      if (!axes) axes = line.as_object();
      if (!axes) continue;
      code::ShapeAxes s;
      for (const auto &[name, value] : *axes)
        if (auto x = value.as_number()) s.axes.emplace_back(name, *x);
      if (s.axes.empty()) continue;
      s.constants = constants;
      std::vector<std::string> names;
      for (const char *k : {"shape_id", "uuid", "name"})
        if (const auto *id = line.get(k).as_string()) names.push_back(*id);
      // A step record may time the shape by its axes spelled out
      // ("M1_N4096_K4096", round 16; "T=512,V=256000", kit 45) rather than
      // by an id.
      if (auto spelled = spelled_axes(s.axes); !spelled.empty()) {
        names.push_back(std::move(spelled));
        names.push_back(spelled_axes(s.axes, "=", ","));
      }
      out.keys.push_back(std::move(names));
      out.shapes.push_back(std::move(s));
    }
  } catch (const std::exception &) {
    return {};
  }
  return out;
}

} // namespace

void add_presented_kernel_defects(ShapeReach &reach, const std::string &commit, const std::string &path,
                                  const Context &ctx) {
  if (!ctx.repo || commit.empty()) return;
  const auto [keys, shapes] = workload_shapes(ctx);
  (void)keys;
  if (shapes.empty()) return;
  auto source = ctx.repo->read_at(commit, path);
  if (!source) return;
  // Named by its axes ("M=1, N=4096, K=11008"): a workload's keys need not
  // be those its step records time shapes by.
  auto axes_of = [](const code::ShapeAxes &shape) {
    std::string axes;
    for (const auto &[name, value] : shape.axes)
      axes += (axes.empty() ? "" : ", ") + name + "=" + text::fixed(value, value == std::floor(value) ? 0 : 2);
    return axes;
  };
  auto tails = code::unmasked_tails(*source, shapes, ctx.meta.var_axes);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (tails[i]) reach.reads_past_the_end[axes_of(shapes[i])] = *tails[i];
  if (!ctx.shared_memory_per_block) return;
  auto shared = code::shared_memory_per_shape(*source, shapes, ctx.meta.var_axes);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shared[i] && shared[i]->bytes > *ctx.shared_memory_per_block)
      reach.exceeds_shared_memory[axes_of(shapes[i])] = *shared[i];
}

ShapeReach shapes_reached(const KernelDiff *diff, const workspace::Segment &segment, const Context &ctx) {
  ShapeReach out;
  const auto [keys, shapes] = workload_shapes(ctx);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (const auto &k : keys[i]) out.axes[k] = shapes[i].axes;
  const auto from = segment.measured_from().sha;
  if (!diff || !ctx.repo || !from || from->empty() || diff->target.empty()) return out;
  if (shapes.empty()) return out;
  // The code measured before: the best-so-far's, which a failed attempt's
  // diff (from the code it was made on) need not start at.
  auto before = ctx.repo->read_at(*from, ctx.meta.kernel_file),
       after = ctx.repo->read_at(diff->target, ctx.meta.kernel_file);
  if (!before || !after) return out;
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
