// What otm-make-trace generates: one realistic optimisation trace (a git
// repository in the producer's layout, see ../shared/spec/trace-format.md),
// decided entirely by these options. Deterministic: the same options give
// the same commits, byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace otm::tracegen {

enum class Dsl { Triton, Cuda, Gluon };
enum class Spelling { British, American, Mixed };
enum class Variant {
  Full,       // everything
  NoMemory,   // no memory/ directory: no step records, no geomeans
  BrokenJson, // every seventh step record truncated mid-object
  NoHardware, // no GPU in definition.json or solution.json
  NoProfiles, // no profiles/ directory
};

// Shapes of a stranger's trace that mislead a miner (issue 25), added on
// request only (tracegen/hostile_shapes.hpp says what each one writes).
enum class HostileShape {
  InvisibleCode,        // a kept gain whose diff changes a dead constant, a comment or an uncalled function
  RenamedLevers,        // prose names (BLOCK_SIZE, warps, stages, vec4) that are not the code's names
  TemplateImpact,       // one expected_impact sentence in every step record
  RepeatedPitfalls,     // one dead-end retried, pitfalls repeated in later step records
  MilestoneSpan,        // neutral kept steps between milestones; a milestone whose claim is not in code
  ContradictedPitfalls, // an accuracy pitfall on a passing step; a failed lever later kept as a win
  MisleadingReverts,    // list items not in code, a comment-only revert, a restoration by a dead constant
  QuotedVersions,       // version ids in kernel comments and docstrings, capture dirs v<N>_ncu_full
};

struct TraceOptions {
  std::size_t versions = 120; // v1 .. vN (the baseline is v1)
  Dsl dsl = Dsl::Triton;      // kernel.py's DSL: Triton, CUDA via load_inline strings, or Gluon
  std::string op = "rmsnorm"; // operator name (any [a-z0-9_]+; known kinds: norms, softmax, elementwise)
  std::uint64_t seed = 1;     // every random choice derives from it
  Spelling spelling = Spelling::Mixed;
  Variant variant = Variant::Full;
  std::string gpu = "NVIDIA H100";   // the hardware token the trace states (solution.json, definition.json)
  unsigned number = 901;             // the trace directory is kernel_opt_<number>_<op>
  std::vector<HostileShape> hostile; // none: the trace is byte-identical to one made before they existed
  unsigned hostile_rate = 20;        // percent of versions from v3 on that start an episode of a hostile shape
};

const char *dsl_name(Dsl dsl);
const char *variant_name(Variant v);
// The trace directory's name: kernel_opt_<NNN>_<op>.
std::string trace_dir_name(const TraceOptions &o);

} // namespace otm::tracegen
