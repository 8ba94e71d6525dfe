#include "distill/warpgroup_claim.hpp"

#include <algorithm>

#include "error/error.hpp"
#include "levers/term_vocabulary.hpp"

namespace otm::distill {

WarpgroupRule WarpgroupRule::from_json(const json::Value &section, std::string_view where) {
  WarpgroupRule r;
  const auto section_name = levers::rule_section(section, where, "warpgroup_claims");
  if (!section_name) return r;
  const std::string &here = *section_name;
  r.claims_ = levers::whole_token_regex_at(section, "claims", true, here);
  r.mma_without_warpgroups_ = levers::whole_token_regex_at(section, "mma_without_warpgroups", false, here);
  r.warpgroup_mma_ = levers::whole_token_regex_at(section, "warpgroup_mma", false, here);
  if (const auto &v = section.get("vendors_without"); !v.is_null()) {
    const auto *list = v.as_array();
    if (!list) throw Error(ErrorKind::Usage, here + ".vendors_without must be a list of vendor names");
    for (const auto &e : *list) {
      const auto *s = e.as_string();
      if (!s || s->empty())
        throw Error(ErrorKind::Usage, here + ".vendors_without: \"" + e.python_str() + "\" is no vendor");
      r.vendors_without_.push_back(*s);
    }
  }
  if (const auto &m = section.get("dsl_products_without"); !m.is_null()) {
    const auto *by_dsl = m.as_object();
    if (!by_dsl) throw Error(ErrorKind::Usage, here + ".dsl_products_without must map a DSL to a list of products");
    for (const auto &[dsl, products] : *by_dsl) {
      const auto *list = products.as_array();
      if (!list) throw Error(ErrorKind::Usage, here + ".dsl_products_without." + dsl + " must be a list of products");
      for (const auto &e : *list) {
        const auto *s = e.as_string();
        if (!s || s->empty())
          throw Error(ErrorKind::Usage,
                      here + ".dsl_products_without." + dsl + ": \"" + e.python_str() + "\" is no product");
        r.dsl_products_without_[dsl].push_back(*s);
      }
    }
  }
  return r;
}

std::optional<std::string> WarpgroupRule::contradiction(const std::string &mechanism,
                                                        const workspace::PacketTarget::Scope &target,
                                                        std::string_view code) const {
  const std::string &vendor = target.vendor;
  if (!claims_) return std::nullopt;
  auto claim = claims_->search(mechanism);
  if (!claim) return std::nullopt;
  const std::string said((*claim)[0]);
  if (std::find(vendors_without_.begin(), vendors_without_.end(), vendor) != vendors_without_.end())
    return "the cause is about warpgroups (\"" + said + "\"), a unit of MMA issue the " + vendor +
           " target does not have";
  if (auto it = dsl_products_without_.find(target.dsl); it != dsl_products_without_.end())
    if (std::find(it->second.begin(), it->second.end(), target.product) != it->second.end())
      return "the cause is about warpgroups (\"" + said + "\"), but " + target.dsl + " on " + target.product +
             " issues its MMA from one thread for the whole tile (tcgen05): more warps split no warpgroup's MMA issue";
  if (!mma_without_warpgroups_ || code.empty() || (warpgroup_mma_ && warpgroup_mma_->contains(code)))
    return std::nullopt;
  if (auto m = mma_without_warpgroups_->search(code))
    return "the cause is about warpgroups (\"" + said + "\"), but the kernel after the change issues its MMA with `" +
           std::string((*m)[0]) +
           "` (one thread or one warp issues it, no warpgroup): more warps split no warpgroup's "
           "MMA issue";
  return std::nullopt;
}

} // namespace otm::distill
