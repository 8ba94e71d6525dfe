// A value a tool holds until the process ends, never destroyed: freeing the
// hundreds of thousands of small allocations of a store's parsed records
// one by one, just before exit() returns the whole address space, was an
// eighth of a single gate's CPU (issue 11). Reachable from a static, so
// the leak checker of the sanitizer build does not call it a leak.
#pragma once

#include <utility>
#include <vector>

namespace otm::tool {

template <typename T> T &kept_until_exit(T value) {
  static std::vector<void *> *kept = new std::vector<void *>;
  T *p = new T(std::move(value));
  kept->push_back(p);
  return *p;
}

} // namespace otm::tool
