#include "scoring/score_store.hpp"

#include <map>
#include <sstream>

#include "error/error.hpp"
#include "io/file.hpp"
#include "scoring/staging_index.hpp"
#include "scoring/worth_model.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "text/pyformat.hpp"
#include "workspace/layout.hpp"
#include "json/write.hpp"

namespace otm::scoring {

ScoreSummary score_staging(const ScoreOptions &opts) {
  workspace::StagingStore store{opts.staging_root};
  auto records = store::load_records(store.root);
  if (records.empty() && !opts.allow_empty)
    throw Error(ErrorKind::NegativeVerdict, store.records_dir().string() + ": no staged records; distil packets first");
  std::string broken;
  for (const auto &r : records) {
    if (!r.parse_error.empty())
      broken += "\n  " + r.parse_error;
    else if (!r.record.is_object())
      broken += "\n  " + r.relpath + ": not a JSON object";
  }
  if (!broken.empty())
    throw io::IoError("cannot score: fix or remove these files first (nothing was written):" + broken);

  ScoreSummary sum;
  std::vector<json::Value> entries;
  std::map<std::string, int> score_hist, tier_hist;
  std::vector<std::pair<std::filesystem::path, std::string>> rewrites;
  for (const auto &r : records) {
    Rank rank = rank_record(r.record);
    const auto &old = r.record.get("worth").get("rank");
    bool changed = old.get("score").as_number() != std::optional<double>(rank.score) ||
                   store::RecordView::shown(r.record).tier.value_or("") != rank.tier;
    if (changed) {
      json::Value rec = r.record;
      json::Value worth = rec.get("worth").is_object() ? rec.get("worth") : json::Value::object();
      json::Value nr = worth.get("rank").is_object() ? worth.get("rank") : json::Value::object();
      nr.set("score", rank.score);
      nr.set("tier", rank.tier);
      nr.set("formula", kFormula);
      nr.set("builder_version", opts.builder_version);
      worth.set("rank", nr);
      rec.set("worth", worth);
      rewrites.emplace_back(r.path, json::to_pretty(rec));
      ++sum.rescored;
    }
    entries.push_back(staging_index_entry(r.record, r.relpath, rank));
    ++score_hist[text::fixed(rank.score, 1)];
    ++tier_hist[rank.tier];
  }
  sum.records = records.size();
  if (!opts.dry_run) {
    for (const auto &[path, text] : rewrites) io::write_file_atomic(path, text);
    io::write_file_atomic(store.index_file(), json::to_pretty(staging_index(std::move(entries), opts.builder_version)));
  }
  std::ostringstream os;
  if (records.empty()) os << "nothing staged: every packet was refused (listed in the staging store's refusals)\n";
  os << sum.records << " records, " << sum.rescored << (opts.dry_run ? " would be rescored" : " rescored") << "\n";
  os << "scores:";
  for (const auto &[k, n] : score_hist) os << " " << k << "=" << n;
  os << "\ntiers:";
  for (const auto &[k, n] : tier_hist) os << " " << k << "=" << n;
  os << "\n"
     << (opts.dry_run ? "dry run: nothing written (index would be " : "index: ") << store.index_file().string()
     << (opts.dry_run ? ")" : "") << "\n";
  sum.console = os.str();
  return sum;
}

} // namespace otm::scoring
