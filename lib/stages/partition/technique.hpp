// Technique slugs (spec partition.md §4): the readable middle of a record id,
// derived from what the trace said about a version.
#pragma once

#include <string>
#include <string_view>

#include "workspace/version_row.hpp"

namespace otm::partition {

// §4.0 slugify: version ids and hex runs dropped, lower-cased, runs of
// other characters to "-", cut to `limit` code points; "unnamed" if empty.
// Version ids are those of the shared rule (record::version_ids), so a
// mnemonic's `v4` stays (`ld.global.nc.v4` -> `ld-global-nc-v4`), and a
// `v<N>` that only became id-shaped in the slug (`v3.1` -> `v3-1`) loses its
// `v`: no slug, id or technique tag ever holds what the anonymization gate
// calls a version id.
std::string slugify(std::string_view text, std::size_t limit = 48);
// §4.0 strip_boilerplate: verdict boilerplate removed ("reverted",
// "dead-end recorded", "(+3.2%)", ...), leaving what was tried.
std::string strip_boilerplate(std::string_view text);

// text_of(v) (ladder.md §2), as the ratchet reads it (ladder::text_of).
std::string text_of(const workspace::VersionRow &row);

std::string strategy_technique(const workspace::VersionRow &row);      // §4.1
std::string deadend_item_technique(std::string_view item);             // §4.2 item
std::string deadend_prose_technique(const workspace::VersionRow &row); // §4.2 prose
std::string pitfall_technique(std::string_view pitfall_text);          // §4.3

} // namespace otm::partition
