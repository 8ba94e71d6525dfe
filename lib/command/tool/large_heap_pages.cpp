#include "tool/large_heap_pages.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace otm::tool {

void use_large_heap_pages(bool one_arena) {
  // Threads share the main heap, the one advised: a reader thread's own
  // arena would be mapped apart, in small pages.
  if (one_arena) mallopt(M_ARENA_MAX, 1);
  constexpr std::uintptr_t kHuge = 2u << 20;
  constexpr std::size_t kPad = 64u << 20;
  // Each growth of the heap takes 64 MiB more than asked (and a trim keeps
  // as much), so the heap is one region of few system calls.
  if (mallopt(M_TOP_PAD, static_cast<int>(kPad)) != 1) return;
  auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // A block larger than the free top of the heap (keepcost), below the
  // mmap threshold: the heap grows now, by the pad.
  std::size_t top = mallinfo2().keepcost;
  if (top + (64u << 10) < (1u << 20)) mallopt(M_MMAP_THRESHOLD, 1 << 20);
  void *volatile p = std::malloc(top + (64u << 10)); // volatile: the pair is not optimised away
  auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(p);
  std::uintptr_t begin = (before + kHuge - 1) & ~(kHuge - 1), end = after & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

} // namespace otm::tool
