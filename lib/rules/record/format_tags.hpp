// The format tags a store carries: the store schema every record and index
// declares ("schema") and the builder version an index records
// ("builder_version"). The one place they are spelled; every producer
// (otm-score, the admission gate, the packet builder, the generators) and
// every gate (index, schema, injection) uses these, and the `literals` test
// (tests/literals/check_literals.sh) fails on a copy anywhere else.
#pragma once

namespace otm::record {

// spec record-format.md: records/index.json and each record say
// "schema": "clean-1.3".
inline constexpr char kStoreSchemaTag[] = "clean-1.3";
// The builder version otm writes into an index it builds, unless the
// configuration's "builder_version" overrides it.
inline constexpr char kBuilderVersion[] = "opt-trace-0.1";

} // namespace otm::record
