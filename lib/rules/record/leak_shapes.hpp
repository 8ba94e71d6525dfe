// The leak shapes: the one definition of what may never reach an
// agent-facing layer or a served record. The scrubber replaces them, the
// packet pre-flight and the anonymization gate detect them, all from this
// table, so the three can never drift apart (spec scrubbing.md weakness
// "three pattern sets drift").
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "text/regex.hpp"

namespace otm::record {

struct LeakShape {
  std::string label;       // "absolute path", "email", "markdown page", ...
  std::string replacement; // what the scrubber writes instead
  const text::Regex *regex;
  // Literals every match holds one of (`/home/`, `@`, `.md`), so a text
  // holding none skips the regex scan; empty: always scan.
  std::vector<std::string_view> needles;
  bool may_occur_in(std::string_view text) const;
};

// The markdown-page shape's pattern text, for a gate that joins it into a
// wider alternation (no-cross-reference); the "markdown page" shape below
// compiles this same text.
const char *markdown_page_pattern();

// Shapes every served record must be free of, in the order the scrubber
// applies them (a path can end in .md, an address can sit in a path).
const std::vector<LeakShape> &store_leak_shapes();

// Version ids (`v12`) and 8-hex workload hashes: never resolvable by a
// reader of a served record. The reference gates neither; otm's trace gates
// and the packet pre-flight do.
//
// The version-id rule, the one place it is spelled (the scrubber, the packet
// pre-flight, slugs and ids, and the anonymization gate all call it): a
// `v<N>` with no letter or digit either side ('_' is a boundary: the
// `v289` of `v289_ncu_full` is one) (version_id_regex, which already leaves
// out dotted release numbers such as `Triton v3.1`) is a version id unless it is
//  - a vector width (scrubbing.md §2: v2..v100 with vec/float/.f16/.bf16/x2
//    within 12 code points), or
//  - a segment of a dotted mnemonic or vector type: right after a "."
//    (`ld.global.nc.v4`, `.v2.f32`) or right before a "." and a PTX type
//    (`v4.b32`); or, in a slug or id where the dots became "-", next to a
//    PTX qualifier or type (`ld-global-nc-v4-loads`, `st-global-v2-f32`); or
//    or the width ending a helper named after its mnemonic (`ld_nc_v4`,
//    `st_cs_v4`); or
//  - the generation of an MMA API name (`mma_v2`, `mma_v3`): round 12
//    scrubbed Gluon's `mma_v2` to "mma_an earlier step" in a verbatim snippet;
//    or of a model (`DeepSeek-V3`).
const text::Regex &version_id_regex();
const text::Regex &workload_hash_regex();
bool is_version_id(std::string_view text, std::size_t match_begin, std::size_t match_end);
// Cheap scans that never say no to a text the regex would match: a `v` or
// `V` followed by a digit (or by a non-ASCII byte, which may start a
// Unicode digit: \d is Unicode-aware); a maximal run of exactly eight
// [0-9a-f] holding a letter. A text they reject skips the regex scan.
bool may_hold_version_id(std::string_view text);
bool may_hold_workload_hash(std::string_view text);
// The matches of version_id_regex in `text` that are version ids.
std::vector<text::Match> version_ids(std::string_view text);
// `text` with each version id replaced by `with(id)`.
std::string replace_version_ids(std::string_view text, const std::function<std::string(std::string_view)> &with);
// scrubbing.md §2: `v4` next to vec/float/.f16/... is a vector width.
bool is_vector_width(std::string_view text, std::size_t match_begin, std::size_t match_end);
// `v4` as a segment of a dotted mnemonic or vector type (see above).
bool is_api_name_version(std::string_view text, std::size_t match_begin, std::size_t match_end);
bool is_mnemonic_segment(std::string_view text, std::size_t match_begin, std::size_t match_end);
bool is_model_generation(std::string_view text, std::size_t match_begin, std::size_t match_end);

struct Leak {
  std::string label;
  std::string token;
};

// Every leak in `text`: the store shapes, plus version ids and hashes when
// `strict` (trace-derived layers), plus each denylist term (label
// "private denylist").
std::vector<Leak> find_leaks(std::string_view text, bool strict, const text::Regex *denylist = nullptr);

} // namespace otm::record
