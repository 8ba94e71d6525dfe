#include "store/staged_reports.hpp"

#include "io/beneath.hpp"
#include "text/printable.hpp"
#include "workspace/layout.hpp"
#include "json/parse.hpp"

namespace otm::store {

StagedReports read_staged_reports(const std::filesystem::path &store_root, const config::Limits &limits) {
  StagedReports out;
  const std::string reports = workspace::kReportsDirName;
  std::optional<io::Beneath> store;
  try {
    store.emplace(store_root, "the store");
  } catch (const io::IoError &e) {
    out.problems.push_back(text::escape_controls(e.what()));
    return out;
  }
  auto dirs = store->list(reports);
  if (!dirs) {
    if (dirs.refusal != io::Refusal::Missing) out.problems.push_back(reports + "/: " + dirs.why);
    return out;
  }
  for (const auto &d : dirs.entries) {
    if (d.type == io::EntryType::Regular) continue; // a file beside the slugs: not a report directory
    const std::string shown = reports + "/" + text::escape_controls(d.name) + "/";
    const std::string ledger = reports + "/" + d.name + "/" + workspace::StagingStore::kRefusalsFileName;
    auto f = store->read(ledger, limits.max_file_bytes);
    if (f) {
      try {
        for (auto &row : json::parse_lines(f.content, shown + workspace::StagingStore::kRefusalsFileName))
          out.refusals.push_back(std::move(row));
      } catch (const json::ParseError &e) {
        out.problems.push_back(text::escape_controls(e.what()));
      }
    } else if (f.refusal != io::Refusal::Missing) {
      out.problems.push_back(shown + workspace::StagingStore::kRefusalsFileName + ": " + f.why);
    }
    const std::string picture = reports + "/" + d.name + "/" + workspace::StagingStore::kLadderPictureFileName;
    auto kind = store->probe_file(picture);
    if (kind == io::Refusal::None)
      out.ladder_slugs.push_back(d.name);
    else if (kind != io::Refusal::Missing)
      out.problems.push_back(shown + workspace::StagingStore::kLadderPictureFileName + ": " +
                             (kind == io::Refusal::OutsideRoot ? "a symbolic link or path leading out of the store"
                                                               : "not a regular file"));
  }
  return out;
}

} // namespace otm::store
