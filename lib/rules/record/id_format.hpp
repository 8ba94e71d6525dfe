// Record ids and episode keys (spec partition.md §7, record-format.md §2):
// the one place their shape is spelled, used by partition (allocation),
// the drafter, the ids gate and the admission gate.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"

namespace otm::record {

// The schema's id pattern: ^[a-z0-9][a-z0-9._-]*$
const text::Regex &id_regex();
bool is_valid_id(std::string_view id);

// <vendor>.<product or any>.<dsl>.<middle>.<technique>-<marker><NN>
// middle = "<workload_family>.anti" for anti-strategy, else operator slug.
struct IdParts {
  std::string vendor, product, dsl, operator_slug, workload_family, record_type, technique;
  char marker = 's';
  int disc = 1;
};
std::string make_id(const IdParts &parts);

// <arch>|<dsl>|<operator_slug>|<technique, runs of "-" → "_">|operator
std::string make_episode_key(std::string_view arch, std::string_view dsl, std::string_view operator_slug,
                             std::string_view technique);

// "-<letter><digits>" at the end of an id: the discriminator.
struct Discriminator {
  char marker;
  int number;
};
std::optional<Discriminator> parse_discriminator(std::string_view id);

// A mention of a record id in prose: `<vendor>.<product>.<dsl>.<middle>.`,
// word-bounded, for the given vendors and products (gates.md §2.8 knew
// only nvidia and b200|b300|any). The no-cross-reference gate flags each
// match; compiled once per gate pass.
std::shared_ptr<const text::Regex> id_mention_regex(const std::vector<std::string> &vendors,
                                                    const std::vector<std::string> &products);
// Literals every match of id_mention_regex(vendors, ...) holds one of
// (`<vendor>.`), so a text holding none skips the scan; empty (always scan)
// when a vendor name is not plain [a-z0-9_-], whose escaping in the pattern
// could mean more than the literal.
std::vector<std::string> id_mention_needles(const std::vector<std::string> &vendors);

// Markers per record type: strategy s, anti-strategy t, reference-kernel r.
char marker_for(std::string_view record_type);

} // namespace otm::record
