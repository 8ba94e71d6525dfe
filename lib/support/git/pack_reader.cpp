#include "git/pack_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/file.hpp"

namespace otm::git {

namespace fs = std::filesystem;

namespace {

std::uint32_t be32(const std::string &d, std::size_t at) {
  return (std::uint32_t(static_cast<unsigned char>(d[at])) << 24) |
         (std::uint32_t(static_cast<unsigned char>(d[at + 1])) << 16) |
         (std::uint32_t(static_cast<unsigned char>(d[at + 2])) << 8) |
         std::uint32_t(static_cast<unsigned char>(d[at + 3]));
}

} // namespace

PackReader::PackReader(const fs::path &dir, const std::string &name)
    : name_(name), path_((dir / (name + ".pack")).string()) {
  auto bad = [&](const std::string &why) { return PackFormatError(path_ + ": " + why); };
  fs::path idx_path = dir / (name + ".idx");
  std::string idx;
  try {
    idx = io::read_file(idx_path);
  } catch (const Error &) {
    throw bad("its index cannot be read");
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw bad(std::string("cannot be opened (") + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw bad("cannot be read");
  const auto pack_size = static_cast<std::uint64_t>(st.st_size);

  if (idx.size() < 8 + 256 * 4 + 40 || idx.compare(0, 4, "\377tOc") != 0 || be32(idx, 4) != 2)
    throw bad("its index is not a version 2 pack index");
  const std::size_t n = be32(idx, 8 + 255 * 4);
  const std::size_t ids_at = 8 + 256 * 4, crc_at = ids_at + n * 20, off_at = crc_at + n * 4, large_at = off_at + n * 4;
  if (idx.size() < large_at + 40) throw bad("its index is truncated");
  if (pack_size < 12 + 20) throw bad("is too short to be a pack");
  std::string head = read_at(0, 12);
  if (head.size() != 12 || head.compare(0, 4, "PACK") != 0 || be32(head, 4) != 2 || be32(head, 8) != n)
    throw bad("is not a version 2 pack of the objects its index names");
  if (read_at(pack_size - 20, 20) != idx.substr(idx.size() - 40, 20))
    throw bad("does not end with the checksum its index names");

  entries_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    PackEntry &e = entries_[i];
    std::memcpy(e.id.id, idx.data() + ids_at + i * 20, 20);
    e.crc = be32(idx, crc_at + i * 4);
    std::uint32_t off = be32(idx, off_at + i * 4);
    if (off & 0x80000000u) {
      std::size_t k = large_at + std::size_t(off & 0x7FFFFFFFu) * 8;
      if (k + 8 > idx.size() - 40) throw bad("its index names a large offset it does not hold");
      e.offset = (std::uint64_t(be32(idx, k)) << 32) | be32(idx, k + 4);
    } else {
      e.offset = off;
    }
    if (e.offset < 12 || e.offset >= pack_size - 20) throw bad("its index names an offset outside the pack");
  }
  std::sort(entries_.begin(), entries_.end(),
            [](const PackEntry &a, const PackEntry &b) { return a.offset < b.offset; });
  for (std::size_t i = 0; i < n; ++i) {
    PackEntry &e = entries_[i];
    e.end = i + 1 < n ? entries_[i + 1].offset : pack_size - 20;
    if (e.end <= e.offset) throw bad("its index names two objects at one offset");
    // The header: type and size, then a REF_DELTA's base id or an
    // OFS_DELTA's base offset.
    std::string h = read_at(e.offset, std::min<std::uint64_t>(e.end - e.offset, 40));
    std::size_t p = 0;
    auto byte = [&]() -> unsigned char {
      if (p >= h.size()) throw bad("an entry's header is truncated");
      return static_cast<unsigned char>(h[p++]);
    };
    unsigned char c = byte();
    int type = (c >> 4) & 7;
    if (type == 0 || type == 5) throw bad("an entry has an unknown type");
    e.type = static_cast<PackType>(type);
    e.size = c & 0x0F;
    for (int shift = 4; c & 0x80; shift += 7) {
      if (shift > 60) throw bad("an entry's size is too long");
      c = byte();
      e.size |= std::uint64_t(c & 0x7F) << shift;
    }
    if (e.type == PackType::RefDelta) {
      if (p + 20 > h.size()) throw bad("a delta's base id is truncated");
      git_oid base;
      std::memcpy(base.id, h.data() + p, 20);
      e.base = base;
      p += 20;
    } else if (e.type == PackType::OfsDelta) {
      c = byte();
      std::uint64_t back = c & 0x7F;
      while (c & 0x80) {
        c = byte();
        back = ((back + 1) << 7) | (c & 0x7F);
      }
      if (back == 0 || back > e.offset) throw bad("a delta's base offset is outside the pack");
      e.ofs_base = e.offset - back;
    }
    e.data_at = e.offset + p;
  }
}

PackReader::~PackReader() {
  if (fd_ >= 0) ::close(fd_);
}

const PackEntry *PackReader::find(const git_oid &id) const {
  for (const auto &e : entries_)
    if (git_oid_equal(&e.id, &id)) return &e;
  return nullptr;
}

std::string PackReader::read_at(std::uint64_t offset, std::uint64_t size) const {
  std::string out(size, '\0');
  std::uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd_, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw PackFormatError(path_ + ": cannot be read (" + std::strerror(errno) + ")");
    if (n == 0) break;
    done += static_cast<std::uint64_t>(n);
  }
  out.resize(done);
  return out;
}

std::string PackReader::raw(const PackEntry &e) const {
  std::string r = read_at(e.offset, e.end - e.offset);
  if (r.size() != e.end - e.offset) throw PackFormatError(path_ + ": is truncated");
  return r;
}

std::string PackReader::inflate(const PackEntry &e) const {
  std::string in = read_at(e.data_at, e.end - e.data_at);
  std::string out(e.size, '\0');
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw PackFormatError(path_ + ": zlib cannot start");
  std::size_t in_at = 0, out_at = 0;
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_in = reinterpret_cast<Bytef *>(in.data() + in_at);
    z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size() - in_at, 1u << 30));
    z.next_out = reinterpret_cast<Bytef *>(out.data() + out_at);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - out_at, 1u << 30));
    uInt in_before = z.avail_in, out_before = z.avail_out;
    rc = ::inflate(&z, Z_NO_FLUSH);
    in_at += in_before - z.avail_in;
    out_at += out_before - z.avail_out;
    if (rc == Z_OK && in_before == z.avail_in && out_before == z.avail_out) break;
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END || out_at != e.size)
    throw PackFormatError(path_ + ": an entry's data does not inflate to its stated size");
  return out;
}

} // namespace otm::git
