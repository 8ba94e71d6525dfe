// Loops that step over a size by a block and load through offsets of that
// step without checking them against the size: `for k0 in range(s, min(s +
// per, K), BLOCK_K):` with `k_idx = k0 + offs_k` and `tl.load(a_ptr +
// k_idx[None, :] ..., mask=offs_m[:, None] < M)`. The last step reads
// past K unless K is a multiple of the block (kit 61, J15: a split-K
// kernel on K = 3000 that dropped its K-tail mask). Loads of a tensor
// descriptor (`desc.load([...])`) are bounded by the descriptor and left
// out, and so is a load with no mask at all (code::unmasked_block_accesses
// says that one). Python kernels (Triton, Gluon) only.
//
//   for (const auto &l : code::unmasked_loop_steps(kernel_text))
//     l.head, l.step ("BLOCK_K"), l.bounds ({"k_start", "k_per_split", "K"}), l.index ("k_idx")
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace otm::code {

struct UnmaskedLoopStep {
  std::string head;                // the loop's line, stripped
  std::string step;                // its step, a name
  std::vector<std::string> bounds; // the names of its end
  std::string index;               // what the load indexes with, unchecked (`k_idx`, `k0 + offs_k`)
};

std::vector<UnmaskedLoopStep> unmasked_loop_steps(std::string_view source);

} // namespace otm::code
