#include <ctime>

#include "admission/commit_types.hpp"

namespace otm::admission {

Timestamp Timestamp::now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char iso[32], stamp[32];
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  return {iso, stamp};
}

} // namespace otm::admission
