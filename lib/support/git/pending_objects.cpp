#include "git/pending_objects.hpp"

#include <git2/sys/odb_backend.h>

#include <algorithm>
#include <cstring>

#include "git/libgit2.hpp"
#include "git/work_tree.hpp"

namespace otm::git::detail {

namespace {

// Ahead of the loose (1) and pack (2) backends libgit2 opens: a write goes
// to the first backend that takes it.
constexpr int kPriority = 1000;

} // namespace

// libgit2 hands the backend's address back to each callback: a standard-
// layout struct whose first member is the git_odb_backend.
struct PendingObjects::Backend {
  git_odb_backend parent;
  PendingObjects *self;

  static PendingObjects &of(git_odb_backend *b) { return *reinterpret_cast<Backend *>(b)->self; }

  static int read(void **out, size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *id) {
    const PendingObject *o = of(b).lookup(*id);
    if (!o) return GIT_ENOTFOUND;
    void *data = git_odb_backend_data_alloc(b, std::max<std::size_t>(o->content.size(), 1));
    if (!data) return -1;
    std::memcpy(data, o->content.data(), o->content.size());
    *out = data;
    *len = o->content.size();
    *type = static_cast<git_object_t>(o->type);
    return 0;
  }

  static int read_header(size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *id) {
    const PendingObject *o = of(b).lookup(*id);
    if (!o) return GIT_ENOTFOUND;
    *len = o->content.size();
    *type = static_cast<git_object_t>(o->type);
    return 0;
  }

  static int exists(git_odb_backend *b, const git_oid *id) { return of(b).lookup(*id) ? 1 : 0; }

  static int write(git_odb_backend *b, const git_oid *id, const void *data, size_t len, git_object_t type) {
    PendingObjects &self = of(b);
    if (!self.capturing_) return GIT_PASSTHROUGH; // the repository's own backends write it
    if (self.lookup(*id)) return 0;
    if (type < GIT_OBJECT_COMMIT || type > GIT_OBJECT_TAG) return GIT_PASSTHROUGH;
    self.index_.emplace(*id, self.objects_.size());
    self.objects_.push_back(
        {*id, static_cast<PackType>(type), std::string(static_cast<const char *>(data), len), std::string()});
    return 0;
  }

  static void free(git_odb_backend *b) {
    delete reinterpret_cast<Backend *>(b)->self;
    delete reinterpret_cast<Backend *>(b);
  }
};

PendingObjects &PendingObjects::attach(git_odb *odb) {
  auto *b = new Backend{};
  b->self = new PendingObjects();
  if (git_odb_init_backend(&b->parent, GIT_ODB_BACKEND_VERSION) != 0) {
    Backend::free(&b->parent);
    throw GitWriteError("cannot set up an object backend (" + last_error() + ")");
  }
  b->parent.read = Backend::read;
  b->parent.read_header = Backend::read_header;
  b->parent.exists = Backend::exists;
  b->parent.write = Backend::write;
  b->parent.free = Backend::free;
  PendingObjects &self = *b->self;
  if (git_odb_add_backend(odb, &b->parent, kPriority) != 0) {
    Backend::free(&b->parent);
    throw GitWriteError("cannot set up an object backend (" + last_error() + ")");
  }
  return self;
}

void PendingObjects::capture(bool on) { capturing_ = on; }

const PendingObject *PendingObjects::lookup(const git_oid &id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &objects_[it->second];
}

const PendingObject *PendingObjects::find(const git_oid &id) const { return packed_ ? lookup(id) : nullptr; }

void PendingObjects::clear() {
  objects_.clear();
  index_.clear();
  packed_ = false;
}

std::string PendingObjects::write_pack(const std::filesystem::path &pack_dir, bool flush,
                                       std::optional<int> configured_level) {
  if (objects_.empty()) return "";
  PackWriter pack;
  for (auto &o : objects_) {
    o.entry = pack_entry(o.type, o.content, compression_level(o.content.size(), configured_level));
    pack.add_raw(o.id, o.entry);
  }
  std::string name = pack.write(pack_dir, flush);
  packed_ = true;
  return name;
}

} // namespace otm::git::detail
