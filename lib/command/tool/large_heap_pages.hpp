// The heap of a tool that parses a whole store grown in large steps and
// backed by transparent huge pages where the kernel offers them (madvise
// mode): the parsed records are hundreds of thousands of small blocks, and
// first-touch page faults of 4 KiB pages were a fifth of a single store
// gate's CPU (issue 11; glibc.malloc.hugetlb=1 does the same from the
// environment). Only virtual reserve grows; a kernel without THP ignores
// the advice.
#pragma once

namespace otm::tool {

// `one_arena`: every thread allocates from that heap (a tool whose
// threads hand parsed records to each other).
void use_large_heap_pages(bool one_arena = false);

} // namespace otm::tool
