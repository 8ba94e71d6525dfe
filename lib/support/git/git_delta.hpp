// git's delta encoding (the data of a pack's OFS_DELTA and REF_DELTA
// entries; git's diff-delta.c and patch-delta.c): a header holding the
// source's and the target's size, each a little-endian base-128 varint,
// then instructions that rebuild the target — a copy of `size` bytes at
// `offset` of the source (opcode bit 7 set; bits 0-3 say which offset bytes
// follow, bits 4-6 which size bytes, low byte first; size 0 means 0x10000)
// or an insert of the next 1 to 127 bytes of the delta (opcode 1-127).
// Used by the local push to keep a file's successive versions as deltas of
// each other (version_pack.hpp, docs/scale-out.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "error/error.hpp"

namespace otm::git {

// A delta that is not git's format, or does not fit its source (a damaged
// or foreign pack entry): unreadable input.
class DeltaError : public Error {
public:
  explicit DeltaError(const std::string &message) : Error(ErrorKind::UnreadableInput, message) {}
};

// A delta that turns `source` into `target`, for any two byte strings:
// the source's blocks are hashed, the target is scanned with a rolling hash
// of the same block size, and every block found is extended both ways as
// far as the bytes agree (greedy); what no copy covers is inserted. Long
// runs the two share (the splice of an index keeps every unchanged byte)
// become a few copy instructions. Sources beyond 4 GiB, which a copy's
// 32-bit offset cannot address, get a delta of inserts only.
std::string encode_delta(std::string_view source, std::string_view target);

// The target `delta` rebuilds from `source`; throws DeltaError when the
// delta is malformed, names another source size, or reaches past the
// source.
std::string apply_delta(std::string_view source, std::string_view delta);

// The source and target sizes a delta's header states.
struct DeltaSizes {
  std::uint64_t source = 0;
  std::uint64_t target = 0;
};
DeltaSizes delta_sizes(std::string_view delta);

// One delta from two: `outer` rebuilds A from B and `inner` B from C; the
// result rebuilds A from C, computed from the instructions alone (a copy
// from B becomes the copies from C and the inserts `inner` made of those
// bytes), without B or C. Throws DeltaError when `outer`'s source size is
// not `inner`'s target size or either is malformed.
std::string compose_deltas(std::string_view outer, std::string_view inner);

} // namespace otm::git
