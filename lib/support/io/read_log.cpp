#include "io/read_log.hpp"

namespace otm::io {

void ReadLog::note(const std::string &key, const std::string &value) {
  std::lock_guard lock(mu_);
  auto [it, fresh] = entries_.emplace(key, value);
  if (!fresh && it->second != value) it->second = kConflicting;
}

std::vector<ReadLog::Entry> ReadLog::entries() const {
  std::lock_guard lock(mu_);
  return {entries_.begin(), entries_.end()};
}

std::size_t ReadLog::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

} // namespace otm::io
