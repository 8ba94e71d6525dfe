#include "git/git_delta.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

namespace otm::git {

namespace {

constexpr std::size_t kMaxInsert = 127;
constexpr std::uint64_t kMaxCopy = 0xFFFFFF; // three size bytes

void put_varint(std::string &out, std::uint64_t v) {
  do {
    unsigned char b = v & 0x7F;
    v >>= 7;
    out.push_back(static_cast<char>(v ? (b | 0x80) : b));
  } while (v);
}

std::uint64_t get_varint(std::string_view d, std::size_t &pos) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    if (pos >= d.size() || shift > 63) throw DeltaError("delta header is truncated or too long");
    auto b = static_cast<unsigned char>(d[pos++]);
    v |= std::uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
}

// Writes instructions, merging a copy that continues the previous one and
// gathering inserted bytes into runs of at most 127.
class Emitter {
public:
  Emitter(std::uint64_t source_size, std::uint64_t target_size) {
    put_varint(out_, source_size);
    put_varint(out_, target_size);
  }
  void insert(std::string_view bytes) {
    if (bytes.empty()) return;
    flush_copy();
    pending_.append(bytes);
  }
  void copy(std::uint64_t offset, std::uint64_t size) {
    if (size == 0) return;
    flush_insert();
    if (copy_size_ && copy_offset_ + copy_size_ == offset) {
      copy_size_ += size;
      return;
    }
    flush_copy();
    copy_offset_ = offset;
    copy_size_ = size;
  }
  std::string finish() {
    flush_insert();
    flush_copy();
    return std::move(out_);
  }

private:
  void flush_insert() {
    for (std::size_t at = 0; at < pending_.size(); at += kMaxInsert) {
      std::size_t n = std::min(kMaxInsert, pending_.size() - at);
      out_.push_back(static_cast<char>(n));
      out_.append(pending_, at, n);
    }
    pending_.clear();
  }
  void flush_copy() {
    while (copy_size_) {
      std::uint64_t n = std::min(copy_size_, kMaxCopy);
      unsigned char op = 0x80;
      char args[7];
      int k = 0;
      for (int i = 0; i < 4; ++i)
        if (unsigned char b = (copy_offset_ >> (8 * i)) & 0xFF) {
          op |= 1u << i;
          args[k++] = static_cast<char>(b);
        }
      for (int i = 0; i < 3; ++i)
        if (unsigned char b = (n >> (8 * i)) & 0xFF) {
          op |= 0x10u << i;
          args[k++] = static_cast<char>(b);
        }
      out_.push_back(static_cast<char>(op));
      out_.append(args, k);
      copy_offset_ += n;
      copy_size_ -= n;
    }
  }
  std::string out_;
  std::string pending_;
  std::uint64_t copy_offset_ = 0;
  std::uint64_t copy_size_ = 0;
};

// One instruction of a parsed delta: it writes target bytes [at, at + size)
// from the source (copy, at `from`) or from the delta's own bytes (insert,
// at `from` in the delta).
struct Op {
  std::uint64_t at;
  std::uint64_t size;
  std::uint64_t from;
  bool copy;
};

struct Parsed {
  DeltaSizes sizes;
  std::vector<Op> ops;
};

Parsed parse(std::string_view d) {
  Parsed p;
  std::size_t pos = 0;
  p.sizes.source = get_varint(d, pos);
  p.sizes.target = get_varint(d, pos);
  std::uint64_t at = 0;
  while (pos < d.size()) {
    auto op = static_cast<unsigned char>(d[pos++]);
    if (op & 0x80) {
      std::uint64_t offset = 0, size = 0;
      for (int i = 0; i < 4; ++i)
        if (op & (1u << i)) {
          if (pos >= d.size()) throw DeltaError("delta copy instruction is truncated");
          offset |= std::uint64_t(static_cast<unsigned char>(d[pos++])) << (8 * i);
        }
      for (int i = 0; i < 3; ++i)
        if (op & (0x10u << i)) {
          if (pos >= d.size()) throw DeltaError("delta copy instruction is truncated");
          size |= std::uint64_t(static_cast<unsigned char>(d[pos++])) << (8 * i);
        }
      if (size == 0) size = 0x10000;
      if (offset + size > p.sizes.source) throw DeltaError("delta copies past the end of its source");
      p.ops.push_back({at, size, offset, true});
      at += size;
    } else if (op) {
      if (pos + op > d.size()) throw DeltaError("delta insert instruction is truncated");
      p.ops.push_back({at, op, pos, false});
      pos += op;
      at += op;
    } else {
      throw DeltaError("delta holds the reserved instruction 0");
    }
    if (at > p.sizes.target) throw DeltaError("delta writes past its stated target size");
  }
  if (at != p.sizes.target) throw DeltaError("delta writes fewer bytes than its stated target size");
  return p;
}

// How many bytes from the start `a` and `b` share, at most `limit`.
std::size_t common_prefix(const char *a, const char *b, std::size_t limit) {
  std::size_t n = 0;
  constexpr std::size_t kChunk = 64;
  while (n + kChunk <= limit && std::memcmp(a + n, b + n, kChunk) == 0) n += kChunk;
  while (n < limit && a[n] == b[n]) ++n;
  return n;
}

constexpr std::uint64_t kPrime = 0x100000001B3ull; // the rolling hash's multiplier

std::uint64_t block_hash(const unsigned char *p, std::size_t n) {
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < n; ++i) h = h * kPrime + p[i];
  return h;
}

} // namespace

DeltaSizes delta_sizes(std::string_view delta) {
  std::size_t pos = 0;
  DeltaSizes s;
  s.source = get_varint(delta, pos);
  s.target = get_varint(delta, pos);
  return s;
}

std::string encode_delta(std::string_view source, std::string_view target) {
  Emitter out(source.size(), target.size());
  // The block size: 16 bytes (git's), doubled until the source has at most
  // 4 Mi blocks, so the table stays within 32 MiB for any source.
  std::size_t block = 16;
  while (source.size() / block > (std::size_t(1) << 22)) block *= 2;
  if (source.size() < block || target.size() < block || source.size() > std::numeric_limits<std::uint32_t>::max()) {
    out.insert(target);
    return out.finish();
  }
  std::size_t blocks = source.size() / block;
  int bits = 1;
  while ((std::size_t(1) << bits) < 2 * blocks) ++bits;
  const int shift = 64 - bits;
  // Slot → 1 + the block's offset in the source (0: empty); the first
  // block with a hash keeps its slot.
  std::vector<std::uint32_t> table(std::size_t(1) << bits, 0);
  const auto *src = reinterpret_cast<const unsigned char *>(source.data());
  const auto *tgt = reinterpret_cast<const unsigned char *>(target.data());
  auto slot = [&](std::uint64_t h) { return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> shift); };
  for (std::size_t i = 0; i < blocks; ++i) {
    auto &s = table[slot(block_hash(src + i * block, block))];
    if (!s) s = static_cast<std::uint32_t>(i * block + 1);
  }
  std::uint64_t top = 1; // kPrime^(block-1), to drop the byte leaving the window
  for (std::size_t i = 1; i < block; ++i) top *= kPrime;

  std::size_t inserted_from = 0; // the target bytes not yet covered start here
  std::size_t t = 0;
  bool fresh = true;
  std::uint64_t h = 0;
  while (t + block <= target.size()) {
    if (fresh) {
      h = block_hash(tgt + t, block);
      fresh = false;
    }
    std::uint32_t s1 = table[slot(h)];
    if (s1 && std::memcmp(src + (s1 - 1), tgt + t, block) == 0) {
      std::size_t s = s1 - 1;
      // Backwards into what would be inserted, forwards as far as they agree.
      std::size_t back = 0;
      while (t - back > inserted_from && s - back > 0 && tgt[t - back - 1] == src[s - back - 1]) ++back;
      std::size_t len = block + common_prefix(source.data() + s + block, target.data() + t + block,
                                              std::min(source.size() - s - block, target.size() - t - block));
      out.insert(target.substr(inserted_from, t - back - inserted_from));
      out.copy(s - back, len + back);
      t += len;
      inserted_from = t;
      fresh = true;
      continue;
    }
    if (t + block == target.size()) break;
    h = (h - top * tgt[t]) * kPrime + tgt[t + block];
    ++t;
  }
  out.insert(target.substr(inserted_from));
  return out.finish();
}

std::string apply_delta(std::string_view source, std::string_view delta) {
  Parsed p = parse(delta);
  if (p.sizes.source != source.size())
    throw DeltaError("delta is for a source of " + std::to_string(p.sizes.source) + " bytes, not " +
                     std::to_string(source.size()));
  std::string out;
  out.reserve(p.sizes.target);
  for (const auto &op : p.ops) out.append(op.copy ? source.substr(op.from, op.size) : delta.substr(op.from, op.size));
  return out;
}

std::string compose_deltas(std::string_view outer, std::string_view inner) {
  Parsed a = parse(outer);
  Parsed b = parse(inner);
  if (a.sizes.source != b.sizes.target)
    throw DeltaError("cannot compose deltas: the outer one's source is " + std::to_string(a.sizes.source) +
                     " bytes, the inner one's target " + std::to_string(b.sizes.target));
  Emitter out(b.sizes.source, a.sizes.target);
  for (const auto &op : a.ops) {
    if (!op.copy) {
      out.insert(outer.substr(op.from, op.size));
      continue;
    }
    // The inner instructions that wrote B's bytes [op.from, op.from + op.size).
    auto it =
        std::upper_bound(b.ops.begin(), b.ops.end(), op.from, [](std::uint64_t x, const Op &o) { return x < o.at; });
    --it; // b.ops is non-empty and starts at 0 whenever op.size > 0
    std::uint64_t at = op.from, end = op.from + op.size;
    for (; at < end; ++it) {
      std::uint64_t skip = at - it->at;
      std::uint64_t n = std::min(end, it->at + it->size) - at;
      if (it->copy)
        out.copy(it->from + skip, n);
      else
        out.insert(inner.substr(it->from + skip, n));
      at += n;
    }
  }
  return out.finish();
}

} // namespace otm::git
