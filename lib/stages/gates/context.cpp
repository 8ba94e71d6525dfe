#include "gates/context.hpp"

#include <algorithm>

#include "config/config.hpp"
#include "io/file.hpp"
#include "store/store_reader.hpp"
#include "workspace/layout.hpp"
#include "workspace/packet_code.hpp"
#include "json/parse.hpp"

namespace otm::gates {

std::string RecordEntry::id() const {
  const auto *s = record.get("id").as_string();
  return s ? *s : std::string();
}

std::optional<workspace::PacketProvenance> PacketEntry::provenance() const {
  auto read = workspace::PacketProvenance::from_json(packet);
  if (!read) return std::nullopt;
  return std::move(read).value();
}

PacketLookup find_packet(const Context &ctx, const json::Value &record) {
  PacketLookup out;
  const auto *id = record.get("id").as_string();
  if (id) {
    for (const auto &p : ctx.packets)
      if (p.packet.get("target").string_or("id") == *id) {
        out.packet = &p;
        return out;
      }
  }
  const auto &raw = record.get("evidence").get("raw");
  const auto *repo = raw.get("source_repo").as_string();
  const auto *version = raw.get("version").as_string();
  if (!repo || !version) return out;
  for (const auto &p : ctx.packets) {
    const auto prov = p.provenance();
    if (prov && prov->source_repo == *repo && prov->version == *version) {
      if (out.packet) {
        // Several packets of one version: the pair cannot say which one the
        // record came from (the reference silently took the last).
        out.packet = nullptr;
        out.ambiguous = true;
        return out;
      }
      out.packet = &p;
    }
  }
  return out;
}

std::vector<RecordEntry> records_from_store(const fs::path &store_root, const config::Limits &limits) {
  auto records = store::load_records(store_root, limits);
  std::vector<RecordEntry> out;
  out.reserve(records.size());
  for (auto &r : records)
    out.push_back({std::move(r.relpath), std::move(r.path), std::move(r.record), std::move(r.parse_error)});
  return out;
}

std::vector<RecordEntry> records_from_files(const std::vector<fs::path> &files, const config::Limits &limits) {
  std::vector<RecordEntry> out;
  for (const auto &f : files) {
    if (!io::is_regular_file(f)) throw io::IoError(f.string() + ": no such record file");
    RecordEntry e{f.generic_string(), f, {}, ""};
    auto parsed = store::parse_record(io::read_file(f, limits.max_file_bytes), f.string(), limits);
    e.record = std::move(parsed.record);
    e.parse_error = std::move(parsed.error);
    out.push_back(std::move(e));
  }
  return out;
}

Finding unreadable_finding(const std::string &gate, const RecordEntry &r) {
  return {gate, "", r.file, "cannot be checked: " + r.parse_error, ""};
}

std::vector<Finding> unreadable_records(const std::string &gate, const Context &ctx) {
  std::vector<Finding> out;
  for (const auto &r : ctx.records)
    if (!r.parse_error.empty()) out.push_back(unreadable_finding(gate, r));
  return out;
}

std::vector<RecordEntry> records_from_jsonl(const std::string &text, const std::string &source,
                                            const config::Limits &limits) {
  std::vector<RecordEntry> out;
  std::size_t line = 0, pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view row(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    ++line;
    if (row.find_first_not_of(" \t\r") != std::string_view::npos) {
      RecordEntry e{source + ":" + std::to_string(line), {}, {}, ""};
      auto parsed = store::parse_record(row, e.file, limits);
      e.record = std::move(parsed.record);
      e.parse_error = std::move(parsed.error);
      out.push_back(std::move(e));
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return out;
}

PacketEntry load_packet(const fs::path &p) {
  PacketEntry e;
  e.packet = json::parse_file(p);
  if (!e.packet.is_object()) throw json::ParseError(p.string() + ": a packet must be a JSON object");
  e.seg_id = e.packet.string_or("seg_id", p.stem().string());
  e.file = workspace::Workspace::packet_relpath(p);
  e.code_text = workspace::packet_code(p, e.packet).text; // what the distiller was given
  e.code_after = workspace::packet_sibling(p, e.packet, "code_after_file").text;
  e.step_diff = workspace::packet_sibling(p, e.packet, "step_diff_file").text;
  return e;
}

std::vector<PacketEntry> load_packets(const fs::path &workspace) {
  std::vector<PacketEntry> out;
  for (const auto &p : io::list_dir(workspace::Workspace{workspace}.packets_dir())) {
    if (p.extension() != ".json" || !io::is_regular_file(p)) continue;
    try {
      out.push_back(load_packet(p));
    } catch (const json::ParseError &) {
      continue; // gates.md §3.1: packets that do not parse are not evidence
    } catch (const io::IoError &) {
      continue; // nor one whose named code file cannot be read
    }
  }
  return out;
}

std::set<std::string> load_usable_captures(const fs::path &profiles_jsonl) {
  std::set<std::string> out;
  for (const auto &row : json::parse_lines_file(profiles_jsonl))
    if (row.get("ncu_usable") == json::Value(true))
      if (const auto *dir = row.get("dir").as_string()) out.insert(*dir);
  return out;
}

void load_live(Context &ctx, const fs::path &live_root) {
  if (!io::is_directory(workspace::records_dir(live_root)))
    throw io::IoError(live_root.string() + ": not a store (no records/ directory); pass the directory that holds "
                                           "records/ to --live");
  ctx.have_live = true;
  for (const auto &e : store::live_entries(live_root)) {
    if (const auto *id = e.get("id").as_string()) ctx.live_ids.insert(*id);
    if (const auto *k = e.get("episode_key").as_string())
      if (!k->empty()) ctx.live_episode_keys.insert(*k);
  }
}

std::vector<std::string> target_products(const config::Config &config) {
  std::set<std::string> names = {"any"};
  for (const auto &t : config.target_table()) {
    for (const auto *s : {&t.key, &t.product, &t.arch})
      if (!s->empty()) names.insert(*s);
  }
  return {names.begin(), names.end()};
}

} // namespace otm::gates
