#include "git/version_pack.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
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

bool is_whole(const PackEntry &e) { return e.type == PackType::Blob || e.type == PackType::Tree; }

// Whether otm can carry `pack`'s chains over: every entry a whole blob or
// tree, or a REF_DELTA whose base is in the pack.
bool carryable(const PackReader &pack) {
  std::set<git_oid, OidLess> ids;
  for (const auto &e : pack.entries()) ids.insert(e.id);
  return std::all_of(pack.entries().begin(), pack.entries().end(), [&](const PackEntry &e) {
    return is_whole(e) || (e.type == PackType::RefDelta && e.base && ids.count(*e.base));
  });
}

// The version pack holding, whole, the previous version of the first of
// `versions` that has one in some version pack (the first is the one that
// matters most: the index), when otm can carry it over. Notes whose pack
// has been gone for an hour (a `git gc`, a writer killed before
// publishing) are removed on the way.
std::unique_ptr<PackReader> find_base(const fs::path &git_dir, const std::vector<Version> &versions) {
  fs::path notes = version_pack_notes(git_dir), pack_dir = git_dir / "objects" / "pack";
  std::error_code ec;
  if (!fs::is_directory(notes, ec)) return nullptr;
  std::vector<std::unique_ptr<PackReader>> packs;
  for (fs::directory_iterator it(notes, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!is_pack_name(name)) continue;
    if (!fs::exists(pack_dir / (name + ".idx"), ec)) {
      auto age = fs::file_time_type::clock::now() - fs::last_write_time(it->path(), ec);
      if (!ec && age > std::chrono::hours(1)) fs::remove(it->path(), ec);
      ec.clear();
      continue;
    }
    try {
      packs.push_back(std::make_unique<PackReader>(pack_dir, name));
    } catch (const PackFormatError &) {
      // Not a pack otm can read: not a base.
    }
  }
  for (const auto &v : versions) {
    if (!v.previous) continue;
    for (auto &p : packs) {
      const PackEntry *e = p ? p->find(*v.previous) : nullptr;
      if (e && is_whole(*e) && carryable(*p)) return std::move(p);
    }
  }
  return nullptr;
}

// Adds the entries of `base` to `pack`, which holds every one of `versions`
// whole: a whole entry that is the previous version of one of them becomes
// a delta against it, every other entry is copied as it is, except a delta
// the change would take more than `max_depth` deltas from its chain's
// newest version, which is re-encoded against that version (its delta
// composed with those between). Returns how many versions became deltas
// and how many entries were re-encoded. Throws PackFormatError or
// DeltaError for a pack otm cannot carry over.
std::pair<std::size_t, std::size_t> carry_over(PackWriter &pack, const PackReader &base,
                                               const std::vector<Version> &versions, int max_depth) {
  std::map<git_oid, const PackEntry *, OidLess> ids;
  for (const auto &e : base.entries()) ids[e.id] = &e;
  // Each delta's depth below its whole entry; a chain that never reaches
  // one (a cycle) makes the pack no base.
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

  // A version's previous one, whole here, becomes a delta against it: its
  // chain's newest version. `from_newest` holds an entry as a delta against
  // its chain's newest version, `newest` which that is.
  std::map<git_oid, std::string, OidLess> from_newest;
  std::map<git_oid, git_oid, OidLess> newest;
  std::map<git_oid, int, OidLess> new_depth;
  std::size_t chained = 0, rebased = 0;
  for (const auto &v : versions) {
    if (!v.previous) continue;
    const PackEntry *old = base.find(*v.previous);
    if (!old || !is_whole(*old) || new_depth.count(old->id)) continue;
    from_newest[old->id] = encode_delta(v.content, base.inflate(*old));
    newest[old->id] = v.id;
    pack.add_ref_delta(old->id, v.id, from_newest[old->id]);
    new_depth[old->id] = 1;
    ++chained;
  }
  // The others stay whole: still current (a path this push did not change).
  for (const auto &e : base.entries())
    if (!e.base && !new_depth.count(e.id)) {
      pack.add_raw(e.id, base.raw(e));
      new_depth[e.id] = 0;
    }
  std::function<const std::string &(const PackEntry &)> delta_from_newest =
      [&](const PackEntry &e) -> const std::string & {
    if (auto it = from_newest.find(e.id); it != from_newest.end()) return it->second;
    std::string own = base.inflate(e);
    return from_newest[e.id] = compose_deltas(own, delta_from_newest(*ids.at(*e.base)));
  };
  std::function<const git_oid *(const PackEntry &)> newest_of = [&](const PackEntry &e) -> const git_oid * {
    if (auto it = newest.find(e.id); it != newest.end()) return &it->second;
    return e.base ? newest_of(*ids.at(*e.base)) : nullptr;
  };
  for (const PackEntry *e : deltas) {
    int d = new_depth.at(*e->base) + 1;
    const git_oid *top = d > max_depth ? newest_of(*e) : nullptr;
    if (top) {
      pack.add_ref_delta(e->id, *top, delta_from_newest(*e));
      newest[e->id] = *top;
      new_depth[e->id] = 1;
      ++rebased;
    } else {
      // Within the bound, or on a chain this push did not lengthen.
      pack.add_raw(e->id, base.raw(*e));
      new_depth[e->id] = d;
    }
  }
  return {chained, rebased};
}

} // namespace

fs::path version_pack_notes(const fs::path &git_dir) { return git_dir / "otm-version-packs"; }

VersionPackResult write_version_pack(const fs::path &git_dir, const std::vector<Version> &versions, bool flush,
                                     const Seeds &seeds, int max_depth) {
  VersionPackResult result;
  std::unique_ptr<PackReader> base = find_base(git_dir, versions);
  // A "new" version the pack holds already is no new version.
  std::vector<Version> fresh;
  std::set<git_oid, OidLess> seen;
  for (const auto &v : versions)
    if ((!base || !base->find(v.id)) && seen.insert(v.id).second) fresh.push_back(v);

  PackWriter pack;
  for (const auto &v : fresh)
    if (v.entry.empty())
      pack.add_object(v.id, v.type, v.content, v.level);
    else
      pack.add_raw(v.id, std::string(v.entry)); // compressed once, for the commit's own pack
  if (base) {
    try {
      PackWriter carried;
      std::tie(result.chained, result.rebased) = carry_over(carried, *base, fresh, max_depth);
      pack.append(std::move(carried));
    } catch (const PackFormatError &) {
      base.reset(); // not a chain otm can carry over: start a new pack
    } catch (const DeltaError &) {
      base.reset();
    }
  }
  for (const auto &id : seeds.ids)
    if ((!base || !base->find(id)) && seen.insert(id).second) {
      std::string content = seeds.read(id);
      pack.add_object(id, seeds.type, content, compression_level(content.size(), seeds.compression));
      ++result.seeded;
    }
  result.versions = pack.count();
  if (pack.count() == 0) return result;
  fs::path notes = version_pack_notes(git_dir);
  result.written = pack.write(git_dir / "objects" / "pack", flush, [&](const std::string &name) {
    // The note first: a pack becomes a version pack the moment it is visible.
    io::write_file_atomic(notes / name,
                          "otm: this pack holds versions of files and trees as delta chains, and otm replaces it "
                          "on its next push (docs/scale-out.md)\n",
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
