// An operator's share of the record-id space: the ids partition numbers
// within and recon counts. Shared by both, so it lives with the id rules.
#pragma once

#include <string>
#include <string_view>

namespace otm::record {

// <vendor>.<product>.<dsl>.<slug>.<technique>-xNN or
// <vendor>.<product>.<dsl>.<family>.anti.<technique>-xNN.
struct IdNamespace {
  std::string operator_slug, workload_family;
  bool contains(std::string_view id) const;
};

} // namespace otm::record
