// A kept step that removes a barrier (kit 46, S07: "remove redundant
// barrier in the hot loop" dropped the `tl.debug_barrier()` that ordered
// every thread's partial stores before a spin lock's release). That the
// race such a removal may open is absent is not what a correctness check
// shows: a race fails now and then, and the run measured one pass. A
// strategy whose running change removes more barrier calls than it adds is
// not served as a technique to copy. The `barrier_removal` section says
// which calls are barriers, and which added calls replace one with
// another way to synchronise (a warp-specialised pipeline's mbarrier
// waits: no removal):
//   "barrier_removal": {"barriers": ["tl\\.debug_barrier", "__syncthreads", ...],
//                       "replaced_by": ["mbarrier\\.(?:wait|arrive)\\w*", ...]}
// An absent section checks nothing.
//
//   auto rule = BarrierRemovalRule::from_json(config.data().get("barrier_removal"), "otm-config.json");
//   if (auto line = rule.removed_barrier(diff_text)) ...   // the first barrier line it removes
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "text/regex.hpp"
#include "json/value.hpp"

namespace otm::diff {

class BarrierRemovalRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static BarrierRemovalRule from_json(const json::Value &section, std::string_view where);
  // `diff`: a unified diff of the kernel file. The first barrier line it
  // removes when it removes more barrier calls than it adds; comment
  // lines (`#`, `//`) are not calls.
  std::optional<std::string> removed_barrier(std::string_view diff) const;
  // Why such a removal is not established by the run: the ledger's words.
  static std::string why_unestablished(const std::string &barrier_line);

private:
  std::shared_ptr<const text::Regex> barriers_, replaced_by_;
};

} // namespace otm::diff
