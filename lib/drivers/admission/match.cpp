#include "admission/match.hpp"

#include "store/index_entry.hpp"
#include "store/record_view.hpp"
#include "store/store_reader.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"
#include "json/writer.hpp"

namespace otm::admission {

bool scope_matches(const json::Value &in, const json::Value &entry) { return store::scope_keeps(in, entry); }

namespace {
// A candidate whose summary is made from its record, read now; none when it
// is missing, unreadable, or a path that would leave the store.
void add_read_candidate(MatchResult &out, const std::filesystem::path &live_root, std::string_view id,
                        std::string_view rel, const std::string &key, const config::Limits &limits) {
  if (rel.empty()) return;
  json::Value rec;
  try {
    rec = store::read_record(live_root, std::string(rel), limits);
  } catch (const std::exception &) {
    return;
  }
  std::string_view summary = out.made.emplace_back(store::candidate_summary_text(rec));
  if (!key.empty() && store::RecordView::shown(rec).episode_key == key) out.episode_key_matches.emplace_back(id);
  out.candidates.push_back({id, rel, summary});
}
} // namespace

MatchResult find_candidates(const json::Value &incoming, const std::filesystem::path &live_root,
                            const config::Limits &limits) {
  MatchResult out;
  const auto &scope = incoming.get("retrieval").get("scope");
  std::string key = store::RecordView::shown(incoming).episode_key.value_or("");
  // The candidates by scope from the keys index, each with the summary it
  // keeps. Without an index (or with one that cannot be read) the entries
  // live_entries builds by walking records/, as before.
  try {
    out.keys = std::make_shared<const store::KeysIndex>(store::KeysIndex::open(live_root, limits));
  } catch (const std::exception &) {
    out.keys.reset();
  }
  if (out.keys && !out.keys->empty()) {
    out.rows = out.keys->in_scope(scope);
    out.candidates.reserve(out.rows.rows.size());
    for (const auto &row : out.rows.rows) {
      if (row.summary.empty()) {
        add_read_candidate(out, live_root, row.id, row.path, key, limits);
        continue;
      }
      if (!key.empty() && row.episode_key == key) out.episode_key_matches.emplace_back(row.id);
      out.candidates.push_back({row.id, row.path, row.summary});
    }
    return out;
  }
  for (const auto &entry : store::live_entries(live_root, limits)) {
    if (!scope_matches(scope, entry.get("retrieval").get("scope"))) continue;
    auto read = store::IndexEntry::from_json(entry);
    std::string_view id = out.made.emplace_back(std::move(read.id));
    std::string_view rel = out.made.emplace_back(std::move(read.path));
    add_read_candidate(out, live_root, id, rel, key, limits);
  }
  return out;
}

void write_match_report(const json::Value &incoming, const MatchResult &m,
                        const std::function<void(std::string_view)> &sink) {
  // One buffer, reused for every piece: a fresh page of a buffer is a page
  // fault, and a wide scope's report is thousands of pages.
  constexpr std::size_t kPiece = 1u << 20;
  std::string piece;
  piece.reserve(kPiece + (64u << 10));
  json::Writer out(piece, json::Writer::Layout::Line);
  auto drain = [&] {
    sink(piece);
    piece.clear();
  };
  out.begin_object();
  out.key("status").value("ok");
  out.key("incoming").written(store::candidate_summary_text(incoming));
  out.key("candidates_count").value(m.candidates.size());
  out.key("episode_key_matches").value(json::Value::strings(m.episode_key_matches));
  out.key("candidates").begin_array();
  for (const auto &c : m.candidates) {
    out.written(c.summary);
    if (piece.size() >= kPiece) drain();
  }
  out.end_array().end_object();
  drain();
  sink("\n");
}

std::string match_report(const json::Value &incoming, const MatchResult &m) {
  std::string line;
  write_match_report(incoming, m, [&](std::string_view piece) { line.append(piece); });
  line.pop_back();
  return line;
}

json::Value match_error_report(const std::vector<std::string> &errors) {
  json::Value out = json::Value::object();
  out.set("status", "schema_error");
  out.set("errors", json::Value::strings(errors));
  out.set("incoming", nullptr);
  out.set("candidates", json::Value::array());
  return out;
}

} // namespace otm::admission
