// A cause about warpgroups ("two warpgroups split the 128-wide tile so each
// issues half the MMAs"), checked against the target and the kernel it is
// about. A warpgroup is Hopper's unit of MMA issue (wgmma): an AMD GPU has
// none (kit 39, K34: the sentence on an MI300X record); a Blackwell
// `tcgen05` MMA is issued by one thread for the whole tile (K49: the
// sentence on a `tcgen05_mma` kernel) and an `mma.sync` by one warp (K10),
// so more warps split no warpgroup's MMA issue there.
// The `warpgroup_claims` section:
//   "warpgroup_claims": {"claims": ["warp ?groups?"], "vendors_without": ["amd"],
//                        "dsl_products_without": {"triton": ["b200", ...]},
//                        "mma_without_warpgroups": ["tcgen05_mma", "mma\\.sync\\S*", ...],
//                        "warpgroup_mma": ["wgmma\\S*", "warpgroup_mma\\w*"]}
// Such a cause is contradicted on a vendor `vendors_without` lists, on a
// product `dsl_products_without` lists for the kernel's DSL (Triton's
// `tl.dot` is a `tcgen05` MMA on B200: kit 40, L24), or when the kernel
// after the change holds an `mma_without_warpgroups` pattern and no
// `warpgroup_mma` one.
//
//   auto rule = WarpgroupRule::from_json(config.data().get("warpgroup_claims"), "otm-config.json");
//   if (auto why = rule.contradiction(mechanism, packet_target.scope, code)) ...   // why: the reason, for the ledger
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"
#include "workspace/packet_target.hpp"
#include "json/value.hpp"

namespace otm::distill {

class WarpgroupRule {
public:
  // Throws otm::Error (Usage) naming `where` for a malformed section.
  static WarpgroupRule from_json(const json::Value &section, std::string_view where);
  // `target`: the packet's target scope (vendor, product, DSL).
  std::optional<std::string> contradiction(const std::string &mechanism, const workspace::PacketTarget::Scope &target,
                                           std::string_view code) const;

private:
  std::shared_ptr<const text::Regex> claims_, mma_without_warpgroups_, warpgroup_mma_;
  std::vector<std::string> vendors_without_;
  std::map<std::string, std::vector<std::string>> dsl_products_without_;
};

} // namespace otm::distill
