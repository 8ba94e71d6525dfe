#include "admission/live_index.hpp"

#include "io/file.hpp"
#include "store/index_entry.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::admission {

namespace fs = std::filesystem;

json::Value load_live_index_for_update(const fs::path &root) {
  std::optional<json::Value> index;
  try {
    index = store::load_index(root);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before admitting records");
  }
  if (index) {
    if (!index->is_object() || !index->get("records").is_array())
      throw io::IoError(workspace::index_file(root).string() +
                        ": not an index (an object with a \"records\" list); rebuild it before admitting records");
    return *index;
  }
  std::error_code ec;
  fs::path dir = workspace::records_dir(root);
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->path().filename() != workspace::kIndexFileName)
      throw io::IoError(workspace::index_file(root).string() +
                        ": missing although records exist; rebuild the index before admitting records");
  return nullptr;
}

std::optional<std::string> indexed_path(const json::Value &index, const std::string &id) {
  if (const auto *list = index.get("records").as_array())
    for (const auto &e : *list)
      if (auto entry = store::IndexEntry::from_json(e); entry.id == id) return entry.path;
  return std::nullopt;
}

fs::path under_records(const std::string &relpath) {
  fs::path p = fs::path(relpath).lexically_normal();
  auto it = p.begin();
  if (p.is_absolute() || it == p.end() || *it != workspace::kRecordsDirName)
    throw io::IoError("index path '" + relpath + "' is not under records/; rebuild the live index");
  fs::path rest;
  for (++it; it != p.end(); ++it) rest /= *it;
  if (rest.empty()) throw io::IoError("index path '" + relpath + "' names no file; rebuild the live index");
  return rest;
}

store::KeysIndex live_keys_for_update(const fs::path &root, const config::Limits &limits) {
  std::optional<store::KeysIndex> keys;
  try {
    keys = store::KeysIndex::open(root, limits);
  } catch (const json::ParseError &e) {
    throw io::IoError(std::string(e.what()) + "; the live index is broken: rebuild it before admitting records");
  }
  if (keys->has_base()) return std::move(*keys);
  // No records/index.json: every record file must be one of the journal's
  // (a store that started empty). Only this state walks records/.
  std::size_t files = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(workspace::records_dir(root), ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->path().filename() != workspace::kIndexFileName) ++files;
  if (files > keys->journal_ids())
    throw io::IoError(workspace::index_file(root).string() +
                      ": missing although records exist; rebuild the index before admitting records");
  return std::move(*keys);
}

} // namespace otm::admission
