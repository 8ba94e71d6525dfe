#include "store_generator.hpp"

#include <algorithm>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "admission/index_entry.hpp"
#include "io/file.hpp"
#include "record/store_layout.hpp"
#include "record_maker.hpp"
#include "store/candidate_summary.hpp"
#include "store/index_keys.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::bench {

namespace fs = std::filesystem;

namespace {

// `text` (a to_pretty document) indented by `levels` more levels, without
// its final newline: an element of the index's records list. JSON strings
// hold no raw newline, so every line break is layout.
void append_indented(std::string &out, const std::string &text, std::size_t levels) {
  std::string pad(levels, ' ');
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    if (pos) out += '\n';
    out += pad;
    out.append(text, pos, nl - pos);
    pos = nl + 1;
  }
}

} // namespace

GeneratedStore generate_store(const fs::path &root, const StoreSize &size) {
  std::error_code ec;
  if (fs::exists(root, ec) && !fs::is_empty(root, ec))
    throw io::IoError(root.string() + ": not empty; generate a store into a new directory");
  fs::create_directories(workspace::records_dir(root));

  // Records are generated in id order, so the index streams out sorted
  // without holding the entries (a 100,000-record index is ~250 MB).
  std::vector<std::string> ids(size.records);
  for (std::size_t n = 0; n < size.records; ++n) ids[n] = plan_record(size.seed, n).id;
  std::vector<std::size_t> order(size.records);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
  ids.clear();

  // The header is otm's own index document with an empty list, whose
  // closing "]" is where the entries go.
  json::Value header = admission::index_with_entry(json::Value(), json::Value::object());
  header.set("generated_by", "otm-bench-store");
  header.set("count", static_cast<long long>(size.records));
  header.set("records", json::Value::array());
  std::string head = json::to_pretty(header);
  auto hole = head.rfind("[]");
  fs::path index_file = workspace::index_file(root);
  fs::path index_tmp = index_file.parent_path() / ("." + index_file.filename().string() + ".tmp");
  std::ofstream index(index_tmp, std::ios::binary);
  index << head.substr(0, hole) << (size.records ? "[\n" : "[]");
  // The keys index is written beside it (where each entry sits, and its
  // record's summary), as a compaction does, so that a store's first reader
  // does not rebuild it from 100,000 records.
  std::size_t written = hole + 2;
  store::KeysCacheBuilder keys;

  GeneratedStore out;
  out.records = size.records;
  std::string entry;
  for (std::size_t i = 0; i < order.size(); ++i) {
    json::Value record = make_record(size.seed, order[i]);
    std::string rel = workspace::store_relpath(record::record_relpath(record));
    std::string text = json::to_pretty(record);
    io::write_file_atomic(root / rel, text, io::FileClass::Scratch);
    out.record_bytes += text.size();
    entry.clear();
    json::Value index_entry = admission::live_index_entry(record, rel);
    append_indented(entry, json::to_pretty(index_entry), 2);
    keys.add(index_entry, written + 2, entry.size() - 2, store::candidate_summary_text(record));
    entry += i + 1 < order.size() ? ",\n" : "\n ]";
    index << entry;
    written += entry.size();
  }
  index << head.substr(hole + 2);
  index.close();
  if (!index) throw io::IoError(index_tmp.string() + ": write failed");
  out.index_bytes = fs::file_size(index_tmp);
  fs::rename(index_tmp, index_file);
  keys.write(root);
  return out;
}

} // namespace otm::bench
