// Strings kept for the length of a pass over a large store (an id or a file
// name per record): copied once into shared blocks, not a heap string each,
// and each distinct string kept once. What a pass over 100,000 records
// keeps per record is then its bytes and a few words (issue 11).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace otm::text {

// Append-only storage: a kept string's view stays valid as long as the
// arena does.
class StringArena {
public:
  std::string_view keep(std::string_view s);
  std::size_t held_bytes() const { return blocks_.size() * sizeof(blocks_[0]) + held_; }

private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t used_ = 0, capacity_ = 0, held_ = 0; // of the last block
};

// Distinct strings, each numbered in the order first seen.
class StringPool {
public:
  struct Interned {
    std::uint32_t index;
    bool fresh; // not pooled before
  };
  Interned intern(std::string_view s);
  std::optional<std::uint32_t> find(std::string_view s) const;
  bool contains(std::string_view s) const { return find(s).has_value(); }
  std::string_view operator[](std::uint32_t index) const { return strings_[index]; }
  std::size_t size() const { return strings_.size(); }
  std::size_t held_bytes() const;

private:
  std::size_t slot_of(std::string_view s) const; // its slot, or the empty one it would take
  void grow();

  StringArena arena_;
  std::vector<std::string_view> strings_;
  std::vector<std::uint32_t> slots_; // open addressing: index + 1, 0 when empty
};

} // namespace otm::text
