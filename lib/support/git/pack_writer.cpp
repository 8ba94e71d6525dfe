#include "git/pack_writer.hpp"

#include <fcntl.h>
#include <mbedtls/sha1.h>
#include <mbedtls/version.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "git/libgit2.hpp"
#include "git/work_tree.hpp"

namespace otm::git {

namespace fs = std::filesystem;

namespace {

class Sha1 {
public:
  Sha1() {
    mbedtls_sha1_init(&ctx_);
#if MBEDTLS_VERSION_MAJOR >= 3
    mbedtls_sha1_starts(&ctx_);
#else
    mbedtls_sha1_starts_ret(&ctx_);
#endif
  }
  ~Sha1() { mbedtls_sha1_free(&ctx_); }
  Sha1(const Sha1 &) = delete;
  Sha1 &operator=(const Sha1 &) = delete;
  void update(std::string_view d) {
#if MBEDTLS_VERSION_MAJOR >= 3
    mbedtls_sha1_update(&ctx_, reinterpret_cast<const unsigned char *>(d.data()), d.size());
#else
    mbedtls_sha1_update_ret(&ctx_, reinterpret_cast<const unsigned char *>(d.data()), d.size());
#endif
  }
  std::string digest() {
    std::array<unsigned char, 20> out{};
#if MBEDTLS_VERSION_MAJOR >= 3
    mbedtls_sha1_finish(&ctx_, out.data());
#else
    mbedtls_sha1_finish_ret(&ctx_, out.data());
#endif
    return std::string(reinterpret_cast<const char *>(out.data()), out.size());
  }

private:
  mbedtls_sha1_context ctx_;
};

void put_be32(std::string &out, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// A pack entry's header: type in bits 4-6 of the first byte, the size in
// its low four bits and then seven bits a byte, least significant first.
std::string entry_header(PackType type, std::uint64_t size) {
  std::string h;
  unsigned char b = static_cast<unsigned char>((static_cast<int>(type) << 4) | (size & 0x0F));
  size >>= 4;
  while (size) {
    h.push_back(static_cast<char>(b | 0x80));
    b = size & 0x7F;
    size >>= 7;
  }
  h.push_back(static_cast<char>(b));
  return h;
}

std::string hex_of(const std::string &bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xF]);
  }
  return out;
}

// A file being written under a temporary name in the pack directory; removed
// unless it was renamed into place.
class TempFile {
public:
  TempFile(const fs::path &dir, const std::string &prefix) {
    path_ = (dir / (prefix + "XXXXXX")).string();
    fd_ = ::mkstemp(path_.data());
    if (fd_ < 0) throw GitWriteError(dir.string() + ": cannot create a temporary file (" + std::strerror(errno) + ")");
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!renamed_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;
  void write(std::string_view d) {
    while (!d.empty()) {
      ssize_t n = ::write(fd_, d.data(), d.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("cannot write");
      d.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  // Read-only, as git leaves its packs; flushed when asked; renamed.
  void publish(const fs::path &to, bool flush) {
    if (::fchmod(fd_, 0444) != 0) fail("cannot set the mode of");
    if (flush && ::fsync(fd_) != 0) fail("cannot flush");
    if (::close(fd_) != 0) {
      fd_ = -1;
      fail("cannot close");
    }
    fd_ = -1;
    if (::rename(path_.c_str(), to.c_str()) != 0) fail("cannot rename into place");
    renamed_ = true;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw GitWriteError(path_ + ": " + what + " (" + std::strerror(errno) + ")");
  }
  std::string path_;
  int fd_ = -1;
  bool renamed_ = false;
};

void fsync_dir(const fs::path &dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

} // namespace

int compression_level(std::size_t size, std::optional<int> configured) {
  if (configured && *configured >= Z_DEFAULT_COMPRESSION && *configured <= Z_BEST_COMPRESSION) return *configured;
  return size >= kFastCompressionBytes ? Z_BEST_SPEED : Z_DEFAULT_COMPRESSION;
}

std::string zlib_deflate(std::string_view data, int level) {
  z_stream z{};
  if (deflateInit(&z, level) != Z_OK) throw GitWriteError("zlib: cannot start compressing");
  std::string out;
  // A quarter of the input to start with, grown as needed: JSON compresses
  // to less, and a buffer of deflateBound (more than the input) would be
  // zeroed and faulted in for nothing.
  out.resize(std::min<std::size_t>(deflateBound(&z, static_cast<uLong>(std::min<std::size_t>(data.size(), 1u << 30))),
                                   data.size() / 4) +
             4096);
  std::size_t produced = 0;
  const auto *in = reinterpret_cast<const Bytef *>(data.data());
  std::size_t left = data.size();
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    uInt chunk = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
    z.next_in = const_cast<Bytef *>(in);
    z.avail_in = chunk;
    if (out.size() - produced < 1024) out.resize(out.size() * 2 + 1024);
    z.next_out = reinterpret_cast<Bytef *>(out.data() + produced);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - produced, 1u << 30));
    uInt out_before = z.avail_out;
    rc = deflate(&z, left == chunk ? Z_FINISH : Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      deflateEnd(&z);
      throw GitWriteError("zlib: compressing failed");
    }
    produced += out_before - z.avail_out;
    std::size_t used = chunk - z.avail_in;
    in += used;
    left -= used;
  }
  deflateEnd(&z);
  out.resize(produced);
  return out;
}

std::string pack_entry(PackType type, std::string_view content, int level) {
  return entry_header(type, content.size()) + zlib_deflate(content, level);
}

void PackWriter::add_object(const git_oid &id, PackType type, std::string_view content, int level) {
  entries_.push_back({id, pack_entry(type, content, level)});
}

void PackWriter::add_ref_delta(const git_oid &id, const git_oid &base, std::string_view delta) {
  std::string raw = entry_header(PackType::RefDelta, delta.size());
  raw.append(reinterpret_cast<const char *>(base.id), GIT_OID_RAWSZ);
  raw += zlib_deflate(delta);
  entries_.push_back({id, std::move(raw)});
}

void PackWriter::append(PackWriter &&other) {
  for (auto &e : other.entries_) entries_.push_back(std::move(e));
  other.entries_.clear();
}

void PackWriter::add_raw(const git_oid &id, std::string raw) { entries_.push_back({id, std::move(raw)}); }

std::string PackWriter::write(const fs::path &dir, bool flush,
                              const std::function<void(const std::string &name)> &before_publish) {
  // The pack: "PACK", version 2, the count, the entries, their SHA-1.
  TempFile pack(dir, "tmp_pack_");
  Sha1 pack_sum;
  std::string head = "PACK";
  put_be32(head, 2);
  put_be32(head, static_cast<std::uint32_t>(entries_.size()));
  pack.write(head);
  pack_sum.update(head);
  struct Placed {
    const git_oid *id;
    std::uint64_t offset;
    std::uint32_t crc;
  };
  std::vector<Placed> placed;
  placed.reserve(entries_.size());
  std::uint64_t offset = head.size();
  for (const auto &e : entries_) {
    uLong crc = crc32(0L, Z_NULL, 0);
    for (std::size_t at = 0; at < e.raw.size(); at += 1u << 30) {
      auto n = static_cast<uInt>(std::min<std::size_t>(e.raw.size() - at, 1u << 30));
      crc = crc32(crc, reinterpret_cast<const Bytef *>(e.raw.data() + at), n);
    }
    placed.push_back({&e.id, offset, static_cast<std::uint32_t>(crc)});
    pack.write(e.raw);
    pack_sum.update(e.raw);
    offset += e.raw.size();
  }
  std::string trailer = pack_sum.digest();
  pack.write(trailer);

  // The index: magic, version 2, the fan-out of first bytes, then per object
  // in id order its id, CRC-32 and offset (an offset of 2 GiB or more is an
  // index into a table of 8-byte offsets), the pack's SHA-1, its own.
  std::sort(placed.begin(), placed.end(), [](const Placed &a, const Placed &b) { return git_oid_cmp(a.id, b.id) < 0; });
  for (std::size_t i = 1; i < placed.size(); ++i)
    if (git_oid_equal(placed[i - 1].id, placed[i].id))
      throw GitWriteError("internal: object " + detail::hex(placed[i].id) + " added to a pack twice");
  std::string idx = "\377tOc";
  put_be32(idx, 2);
  std::size_t at = 0;
  for (int b = 0; b < 256; ++b) {
    while (at < placed.size() && placed[at].id->id[0] <= b) ++at;
    put_be32(idx, static_cast<std::uint32_t>(at));
  }
  for (const auto &p : placed) idx.append(reinterpret_cast<const char *>(p.id->id), GIT_OID_RAWSZ);
  for (const auto &p : placed) put_be32(idx, p.crc);
  std::string large;
  std::uint32_t large_count = 0;
  for (const auto &p : placed) {
    if (p.offset < 0x80000000ull) {
      put_be32(idx, static_cast<std::uint32_t>(p.offset));
    } else {
      put_be32(idx, 0x80000000u | large_count++);
      put_be32(large, static_cast<std::uint32_t>(p.offset >> 32));
      put_be32(large, static_cast<std::uint32_t>(p.offset & 0xFFFFFFFFu));
    }
  }
  idx += large;
  idx += trailer;
  Sha1 idx_sum;
  idx_sum.update(idx);
  idx += idx_sum.digest();

  std::string name = "pack-" + hex_of(trailer);
  if (before_publish) before_publish(name);
  TempFile idx_file(dir, "tmp_idx_");
  idx_file.write(idx);
  pack.publish(dir / (name + ".pack"), flush);
  idx_file.publish(dir / (name + ".idx"), flush);
  if (flush) fsync_dir(dir);
  return name;
}

} // namespace otm::git
