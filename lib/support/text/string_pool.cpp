#include "text/string_pool.hpp"

#include <algorithm>
#include <cstring>
#include <functional>

namespace otm::text {

namespace {
constexpr std::size_t kBlock = 64 * 1024;
}

std::string_view StringArena::keep(std::string_view s) {
  if (s.empty()) return {};
  if (capacity_ - used_ < s.size()) {
    // A string larger than a block gets a block of its own size.
    capacity_ = std::max(kBlock, s.size());
    blocks_.push_back(std::make_unique<char[]>(capacity_));
    held_ += capacity_;
    used_ = 0;
  }
  char *at = blocks_.back().get() + used_;
  std::memcpy(at, s.data(), s.size());
  used_ += s.size();
  return {at, s.size()};
}

std::size_t StringPool::slot_of(std::string_view s) const {
  std::size_t mask = slots_.size() - 1;
  std::size_t i = std::hash<std::string_view>{}(s)&mask;
  while (slots_[i] != 0 && strings_[slots_[i] - 1] != s) i = (i + 1) & mask;
  return i;
}

void StringPool::grow() {
  std::vector<std::uint32_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 64 : old.size() * 2, 0);
  for (auto v : old)
    if (v != 0) slots_[slot_of(strings_[v - 1])] = v;
}

StringPool::Interned StringPool::intern(std::string_view s) {
  // At most half full, so a probe ends soon.
  if ((strings_.size() + 1) * 2 > slots_.size()) grow();
  std::size_t i = slot_of(s);
  if (slots_[i] != 0) return {slots_[i] - 1, false};
  strings_.push_back(arena_.keep(s));
  slots_[i] = static_cast<std::uint32_t>(strings_.size());
  return {slots_[i] - 1, true};
}

std::optional<std::uint32_t> StringPool::find(std::string_view s) const {
  if (slots_.empty()) return std::nullopt;
  std::size_t i = slot_of(s);
  if (slots_[i] == 0) return std::nullopt;
  return slots_[i] - 1;
}

std::size_t StringPool::held_bytes() const {
  return arena_.held_bytes() + strings_.capacity() * sizeof(std::string_view) +
         slots_.capacity() * sizeof(std::uint32_t);
}

} // namespace otm::text
