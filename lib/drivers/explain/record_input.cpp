#include "explain/record_input.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "record/id_format.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::explain {

namespace fs = std::filesystem;

std::vector<InputRecord> resolve_records(const std::vector<std::string> &args, const std::optional<fs::path> &staging,
                                         const std::optional<fs::path> &live, const config::Limits &limits) {
  std::vector<InputRecord> out;
  // Each store is read once, and only when an id is asked for.
  std::vector<std::pair<fs::path, std::vector<store::StoredRecord>>> stores;
  auto find_id = [&](const std::string &id) -> std::optional<InputRecord> {
    if (stores.empty())
      for (const auto &root : {staging, live})
        if (root && io::is_directory(workspace::records_dir(*root)))
          stores.emplace_back(*root, store::load_records(*root));
    for (const auto &[root, records] : stores)
      for (const auto &r : records)
        if (r.parse_error.empty() && store::RecordView::shown(r.record).id.value_or("") == id)
          return InputRecord{r.path.string(), r.record};
    return std::nullopt;
  };
  for (const auto &arg : args) {
    if (arg == "-") {
      std::size_t n = 0;
      json::for_each_line("-", limits.input_bounds(), [&](json::Value v) {
        out.push_back({"<stdin>:" + std::to_string(++n), std::move(v)});
      });
      continue;
    }
    if (io::is_regular_file(arg)) {
      out.push_back({arg, json::parse_file(arg)});
      continue;
    }
    if (record::is_valid_id(arg))
      if (auto hit = find_id(arg)) {
        out.push_back(std::move(*hit));
        continue;
      }
    std::string where;
    for (const auto &root : {staging, live})
      if (root) where += (where.empty() ? "" : " or ") + root->string();
    throw Error(ErrorKind::Usage, "'" + arg + "' is neither a record file nor an id in " +
                                      (where.empty() ? std::string("a store (give --store or --live)") : where));
  }
  return out;
}

} // namespace otm::explain
