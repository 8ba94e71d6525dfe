#include "distill/unread_sizes.hpp"

#include <algorithm>
#include <vector>

#include "code/capped_loops.hpp"
#include "code/single_tile_spans.hpp"
#include "code/tile_constants.hpp"
#include "code/unmasked_loop_steps.hpp"
#include "record/leak_shapes.hpp"
#include "text/code_list.hpp"
#include "text/utf8.hpp"

namespace otm::distill::drafting {

namespace {

// The benchmarked sizes of the axis `size` is named for above `limit`
// ("N=32000"); empty when none is. A size named for a fixed axis
// (`N_COLS` of an operator whose N is 2048) is that axis, whatever the
// varied one is called.
std::vector<std::string> sizes_over(const json::Value &op, const std::string &size, long long limit) {
  std::vector<std::string> over;
  const auto *axes = op.get("benchmarked_values").as_object();
  // The name's words (`N_COLS`: n, cols), to tell one that mentions a
  // fixed axis and none of the varied ones: left undecided.
  std::vector<std::string> words;
  for (std::string rest = text::to_lower(size);;) {
    const auto cut = rest.find('_');
    words.push_back(rest.substr(0, cut));
    if (cut == std::string::npos) break;
    rest.erase(0, cut + 1);
  }
  auto mentions = [&](const std::string &axis) {
    return std::find(words.begin(), words.end(), text::to_lower(axis)) != words.end();
  };
  bool mentions_fixed = false;
  if (const auto *fixed = op.get("fixed_axes").as_object())
    for (const auto &[axis, value] : *fixed) {
      if (names_the_axis(size, axis, 0)) {
        if (auto n = value.as_int(); n && *n > limit) over.push_back(axis + "=" + std::to_string(*n));
        return over;
      }
      mentions_fixed = mentions_fixed || mentions(axis);
    }
  if (!axes) return over;
  if (mentions_fixed && std::none_of(axes->begin(), axes->end(), [&](const auto &a) { return mentions(a.first); }))
    return over;
  for (const auto &[axis, list] : *axes) {
    const auto *vs = list.as_array();
    if (!vs || !names_the_axis(size, axis, axes->size())) continue;
    for (const auto &v : *vs)
      if (auto n = v.as_int(); n && *n > limit) over.push_back(axis + "=" + std::to_string(*n));
    if (!over.empty()) break;
  }
  return over;
}

constexpr const char *kUnread = ": the kernel leaves the rest of each longer row unread on a shape the run reports as "
                                "passing, so the run's check is not of this code";

} // namespace

bool names_the_axis(const std::string &name, const std::string &axis, std::size_t n_axes) {
  const std::string low = text::to_lower(name), a = text::to_lower(axis);
  return n_axes == 1 || low == a || low.ends_with("_" + a);
}

std::optional<std::string> size_left_unread(const Context &c, const std::string &kernel) {
  const auto &op = c.af.get("operator");
  for (const auto &l : code::capped_loops(kernel)) {
    const auto over = sizes_over(op, l.size, l.cap);
    if (over.empty()) continue;
    const bool quotable = record::version_ids(l.head).empty();
    return (quotable ? "its loop `" + l.head + "`" : std::string("a loop of it")) + " stops at `" + l.cap_name + "` (" +
           std::to_string(l.cap) + "), and the run benchmarked " + text::prose_list(over) + kUnread;
  }
  // A loop whose last step reads past the size: the benchmarked sizes of
  // an axis its end names that its one step value does not divide.
  for (const auto &l : code::unmasked_loop_steps(kernel)) {
    const auto values = code::values_given(kernel, l.step);
    if (values.size() != 1 || values.front() <= 1) continue;
    const long long step = values.front();
    for (const auto &bound : l.bounds) {
      std::vector<std::string> off;
      for (const auto &s : sizes_over(op, bound, 0))
        if (const auto eq = s.rfind('='); eq != std::string::npos && std::stoll(s.substr(eq + 1)) % step != 0)
          off.push_back(s);
      if (off.empty()) continue;
      const bool quotable = record::version_ids(l.head).empty();
      return (quotable ? "its loop `" + l.head + "`" : std::string("a loop of it")) + " steps by `" + l.step + "` (" +
             std::to_string(step) + ") and loads through `" + l.index +
             "` with no mask on it, and the run benchmarked " + text::prose_list(off) + ", not a multiple of " +
             std::to_string(step) +
             ": the last step reads past the end on a shape the run reports as passing, so the run's check is not of "
             "this code";
    }
  }
  for (const auto &t : code::single_tile_spans(kernel)) {
    const auto over = sizes_over(op, t.size, t.largest);
    if (over.empty()) continue;
    const bool quotable = record::version_ids(t.offsets).empty();
    return (quotable ? "its offsets `" + t.offsets + "`" : std::string("its offsets")) + " cover one tile of `" +
           t.size + "` (`" + t.block + "` at most " + std::to_string(t.largest) +
           ") and no loop walks past it, and the run benchmarked " + text::prose_list(over) + kUnread;
  }
  return std::nullopt;
}

} // namespace otm::distill::drafting
