#include "git/version_pack.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <system_error>
#include <vector>

#include "git/git_delta.hpp"
#include "git/libgit2.hpp"
#include "git/pack_reader.hpp"
#include "git/pack_writer.hpp"
#include "io/file.hpp"

namespace otm::git {

namespace fs = std::filesystem;

namespace {

struct OidLess {
  bool operator()(const git_oid &a, const git_oid &b) const { return git_oid_cmp(&a, &b) < 0; }
};

bool is_pack_name(const std::string &name) {
  return name.size() == 45 && name.compare(0, 5, "pack-") == 0 && std::all_of(name.begin() + 5, name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// The version pack whose whole object is `previous`, when its chain is one
// otm can carry over: one whole blob, every other entry a REF_DELTA whose
// base is in the pack. Notes whose pack has been gone for an hour (a `git
// gc`, a writer killed before publishing) are removed on the way.
std::unique_ptr<PackReader> find_base(const fs::path &git_dir, const git_oid &previous) {
  fs::path notes = version_pack_notes(git_dir), pack_dir = git_dir / "objects" / "pack";
  std::error_code ec;
  if (!fs::is_directory(notes, ec)) return nullptr;
  std::unique_ptr<PackReader> found;
  for (fs::directory_iterator it(notes, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!is_pack_name(name)) continue;
    if (!fs::exists(pack_dir / (name + ".idx"), ec)) {
      auto age = fs::file_time_type::clock::now() - fs::last_write_time(it->path(), ec);
      if (!ec && age > std::chrono::hours(1)) fs::remove(it->path(), ec);
      ec.clear();
      continue;
    }
    if (found) continue;
    try {
      auto reader = std::make_unique<PackReader>(pack_dir, name);
      const PackEntry *whole = reader->find(previous);
      if (!whole || whole->type != PackType::Blob) continue;
      std::map<git_oid, const PackEntry *, OidLess> ids;
      for (const auto &e : reader->entries()) ids[e.id] = &e;
      bool carried = std::all_of(reader->entries().begin(), reader->entries().end(), [&](const PackEntry &e) {
        return &e == whole || (e.type == PackType::RefDelta && e.base && ids.count(*e.base));
      });
      if (carried) found = std::move(reader);
    } catch (const PackFormatError &) {
      // Not a pack otm can read: not a base.
    }
  }
  return found;
}

// Adds the versions of `base` to `pack`, for a pack that holds the new
// version `id` (bytes `content`) whole: the previous newest as a delta against it, every
// other entry copied as it is, or re-encoded against the new version when
// it would stand more than `max_depth` deltas from it. Returns how many were
// re-encoded. Throws PackFormatError or DeltaError for a pack otm cannot
// carry over.
std::size_t carry_over(PackWriter &pack, const PackReader &base, const git_oid &id, std::string_view content,
                       const git_oid &previous, int max_depth) {
  std::size_t rebased = 0;
  std::map<git_oid, const PackEntry *, OidLess> ids;
  for (const auto &e : base.entries()) ids[e.id] = &e;
  // Each entry's depth in the old pack (the whole one's is 0); a chain
  // that never reaches the whole object (a cycle) makes it no base.
  std::map<git_oid, int, OidLess> old_depth;
  std::function<int(const PackEntry &, std::size_t)> depth_of = [&](const PackEntry &e, std::size_t guard) -> int {
    if (!e.base) return 0;
    if (auto it = old_depth.find(e.id); it != old_depth.end()) return it->second;
    if (guard > ids.size()) throw PackFormatError(base.name() + ": its deltas form a cycle");
    int d = depth_of(*ids.at(*e.base), guard + 1) + 1;
    old_depth[e.id] = d;
    return d;
  };
  std::vector<const PackEntry *> deltas;
  for (const auto &e : base.entries())
    if (e.base) {
      depth_of(e, 0);
      deltas.push_back(&e);
    }
  std::stable_sort(deltas.begin(), deltas.end(),
                   [&](const PackEntry *a, const PackEntry *b) { return old_depth[a->id] < old_depth[b->id]; });

  // The previous newest version becomes a delta against the new one.
  const PackEntry &whole = *base.find(previous);
  std::map<git_oid, std::string, OidLess> from_newest; // a version as a delta against the new one
  from_newest[previous] = encode_delta(content, base.inflate(whole));
  pack.add_ref_delta(previous, id, from_newest[previous]);

  std::function<const std::string &(const PackEntry &)> delta_from_newest =
      [&](const PackEntry &e) -> const std::string & {
    if (auto it = from_newest.find(e.id); it != from_newest.end()) return it->second;
    std::string own = base.inflate(e);
    return from_newest[e.id] = compose_deltas(own, delta_from_newest(*ids.at(*e.base)));
  };
  std::map<git_oid, int, OidLess> new_depth{{previous, 1}};
  for (const PackEntry *e : deltas) {
    int d = new_depth.at(*e->base) + 1;
    if (d > max_depth) {
      pack.add_ref_delta(e->id, id, delta_from_newest(*e));
      new_depth[e->id] = 1;
      ++rebased;
    } else {
      pack.add_raw(e->id, base.raw(*e));
      new_depth[e->id] = d;
    }
  }
  return rebased;
}

} // namespace

fs::path version_pack_notes(const fs::path &git_dir) { return git_dir / "otm-version-packs"; }

VersionPackResult write_version_pack(const fs::path &git_dir, const git_oid &id, std::string_view content,
                                     const std::optional<git_oid> &previous, bool flush, int max_depth) {
  VersionPackResult result;
  std::unique_ptr<PackReader> base = previous ? find_base(git_dir, *previous) : nullptr;
  if (base && base->find(id)) base.reset(); // the "new" version is in it already: nothing to chain

  PackWriter pack;
  pack.add_object(id, PackType::Blob, content);
  if (base) {
    try {
      PackWriter carried;
      result.rebased = carry_over(carried, *base, id, content, *previous, max_depth);
      pack.append(std::move(carried));
    } catch (const PackFormatError &) {
      base.reset(); // not a chain otm can carry over: start a new one
    } catch (const DeltaError &) {
      base.reset();
    }
  }
  result.versions = pack.count();
  fs::path notes = version_pack_notes(git_dir);
  result.written = pack.write(git_dir / "objects" / "pack", flush, [&](const std::string &name) {
    // The note first: a pack becomes a version pack the moment it is visible.
    io::write_file_atomic(notes / name,
                          "otm: this pack holds the versions of one file as a delta chain, and otm replaces it on "
                          "its next push (docs/scale-out.md)\n",
                          flush ? io::FileClass::Live : io::FileClass::Scratch);
  });
  if (base) {
    // Every object of the old pack is in the new one: it can go, its index
    // first so no reader finds an index without its pack.
    fs::path old = git_dir / "objects" / "pack" / base->name();
    std::error_code ec;
    fs::remove(old.string() + ".idx", ec);
    fs::remove(old.string() + ".pack", ec);
    fs::remove(notes / base->name(), ec);
    result.replaced = base->name();
  }
  return result;
}

} // namespace otm::git
