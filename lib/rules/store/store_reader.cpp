#include "store/store_reader.hpp"

#include <algorithm>

#include "io/beneath.hpp"
#include "store/index_journal.hpp"
#include "store/index_order.hpp"
#include "store/pending_commit.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::store {

namespace {

// Every *.json below `dir` (relative to the store root), depth first,
// through the store's reading policy; a directory it cannot list is kept
// with its reason, so gates report it.
void walk(const io::Beneath &store, const std::string &dir, std::vector<RecordFile> &out, std::size_t nesting) {
  io::DirList list = store.list(dir);
  if (!list) {
    if (list.refusal != io::Refusal::Missing || dir != workspace::kRecordsDirName)
      out.push_back({dir + "/", "not read: " + list.why, std::nullopt});
    return;
  }
  for (const auto &e : list.entries) {
    std::string rel = dir + "/" + e.name;
    if (e.type == io::EntryType::Directory) {
      // Deeper than any layout (records/<type>/<vendor>/<arch>/<dsl>/<family>/).
      if (nesting >= 16)
        out.push_back({rel + "/", "not read: directories nested too deep", std::nullopt});
      else
        walk(store, rel, out, nesting + 1);
      continue;
    }
    if (!e.name.ends_with(".json") || e.name == workspace::kIndexFileName) continue;
    out.push_back({std::move(rel), {}, std::nullopt});
  }
}

void read_into(const io::Beneath &store, StoredRecord &r, const config::Limits &limits) {
  if (!r.parse_error.empty()) return;
  std::string content;
  if (r.bytes_before_commit) {
    content = *r.bytes_before_commit;
  } else {
    io::FileRead f = store.read(r.relpath, limits.max_file_bytes);
    if (!f) {
      r.parse_error =
          r.relpath + ": not read: " + f.why + (f.refusal == io::Refusal::TooLarge ? " (limits.max_file_bytes)" : "");
      return;
    }
    content = std::move(f.content);
  }
  auto parsed = parse_record(content, r.relpath, limits);
  r.record = std::move(parsed.record);
  r.parse_error = std::move(parsed.error);
}

} // namespace

ParsedRecord parse_record(std::string_view text, const std::string &source, const config::Limits &limits) {
  ParsedRecord out;
  try {
    out.record = json::parse(text, source);
  } catch (const json::ParseError &e) {
    out.error = e.what();
    return out;
  }
  if (!out.record.is_object()) {
    out.error = source + ": not a JSON object";
    out.record = json::Value();
  } else if (json::nesting_depth(out.record, limits.max_json_depth) > limits.max_json_depth) {
    out.error =
        source + ": nested deeper than " + std::to_string(limits.max_json_depth) + " levels (limits.max_json_depth)";
    out.record = json::Value();
  }
  return out;
}

json::Value read_record(const fs::path &root, const std::string &relpath, const config::Limits &limits) {
  io::Beneath store(root, "the store");
  std::string shown = (root / relpath).string();
  io::FileRead f = store.read(relpath, limits.max_file_bytes);
  if (!f) throw json::ParseError(shown + ": not read: " + f.why);
  auto parsed = parse_record(f.content, shown, limits);
  if (!parsed.error.empty()) throw json::ParseError(parsed.error);
  return std::move(parsed.record);
}

std::vector<RecordFile> record_file_list(const fs::path &root) {
  std::vector<RecordFile> out;
  std::error_code ec;
  if (!fs::is_directory(workspace::records_dir(root), ec)) return out;
  io::Beneath store(root, "the store");
  walk(store, workspace::kRecordsDirName, out, 0);
  // A commit under way: its new files are not there yet, its replaced ones
  // still read as before.
  auto view = pending_view(root);
  if (!view.empty()) {
    std::erase_if(out, [&](RecordFile &r) {
      auto it = view.find(r.relpath);
      if (it == view.end()) return false;
      if (!it->second) return true;
      r.bytes_before_commit = it->second;
      return false;
    });
  }
  std::sort(out.begin(), out.end(), [](const RecordFile &a, const RecordFile &b) { return a.relpath < b.relpath; });
  return out;
}

StoredRecord stored_record(const fs::path &root, RecordFile f) {
  StoredRecord r;
  // A directory stands for its records by "<dir>/"; its path is the directory's.
  std::string_view rel = f.relpath;
  if (rel.ends_with('/')) rel.remove_suffix(1);
  r.path = root / rel;
  r.relpath = std::move(f.relpath);
  r.parse_error = std::move(f.error);
  r.bytes_before_commit = std::move(f.bytes_before_commit);
  return r;
}

std::vector<StoredRecord> record_files(const fs::path &root) {
  std::vector<StoredRecord> out;
  auto files = record_file_list(root);
  out.reserve(files.size());
  for (auto &f : files) out.push_back(stored_record(root, std::move(f)));
  return out;
}

void read_record(const fs::path &root, StoredRecord &r, const config::Limits &limits) {
  read_into(io::Beneath(root, "the store"), r, limits);
}

void read_record(const io::Beneath &store, StoredRecord &r, const config::Limits &limits) {
  read_into(store, r, limits);
}

std::vector<StoredRecord> load_records(const fs::path &root, const config::Limits &limits) {
  auto out = record_files(root);
  if (out.empty()) return out;
  io::Beneath store(root, "the store");
  for (auto &r : out) read_into(store, r, limits);
  return out;
}

std::optional<json::Value> load_index(const fs::path &root, const config::Limits &limits) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return std::nullopt;
  io::Beneath store(root, "the store");
  // The index of a large store is far above one record's bound.
  io::FileRead f = store.read(workspace::kIndexRelpath, limits.max_input_bytes);
  std::string shown = workspace::index_file(root).string();
  std::optional<json::Value> base;
  if (f.refusal != io::Refusal::Missing) {
    if (!f) throw json::ParseError(shown + ": not read: " + f.why);
    base = json::parse(f.content, shown);
  }
  Journal journal = read_journal(root, limits);
  if (journal.lines.empty()) return base;
  // A base that is not an index is left as it is, for the gates to report.
  if (base && !base->is_object()) return base;
  // Folding is idempotent: a compaction stopped after it rewrote index.json
  // and before it removed the journal reads the same.
  return index_with_entries(base ? std::move(*base) : json::Value(), journal_entries(journal, root));
}

std::vector<json::Value> live_entries(const fs::path &root, const config::Limits &limits) {
  std::vector<json::Value> out;
  try {
    if (auto index = load_index(root, limits)) {
      if (const auto *list = index->get("records").as_array()) return *list;
    }
  } catch (const json::ParseError &) {
    // fall through to the walk: an unreadable index must not hide the records
  }
  for (const auto &r : load_records(root, limits)) {
    if (!r.parse_error.empty()) continue;
    json::Value e = json::Value::object();
    e.set("id", r.record.get("id"));
    e.set("type", r.record.get("type"));
    e.set("episode_key", r.record.get("episode_key"));
    e.set("path", r.relpath);
    e.set("retrieval", r.record.get("retrieval"));
    out.push_back(std::move(e));
  }
  return out;
}

} // namespace otm::store
