#include "workspace/packet_provenance.hpp"

#include <utility>

#include "workspace/field_reader.hpp"

namespace otm::workspace {

namespace {

using P = PacketProvenance;

// Each field by key and type, so a key is spelled once for reading.
constexpr std::pair<const char *, std::optional<std::string> P::*> kStrings[] = {
    {"report_dir", &P::report_dir},
    {"builds_on_version", &P::builds_on_version},
};
constexpr std::pair<const char *, P::End P::*> kEnds[] = {
    {"diff_from", &P::diff_from},
    {"diff_to", &P::diff_to},
};
constexpr std::pair<const char *, std::vector<std::string> P::*> kLists[] = {
    {"span_versions", &P::span_versions},
    {"lineage_versions", &P::lineage_versions},
};

void read(const json::Value &packet, FieldReader &r, PacketProvenance &p) {
  const auto *prov = packet.find("provenance");
  if (!prov || prov->is_null() || !r.members(*prov)) return;
  for (const auto &[key, field] : kStrings)
    if (const auto *x = prov->find(key)) r.string_or_null(key, *x, p.*field);
  for (const auto &[key, field] : kEnds) {
    const auto *x = prov->find(key);
    if (!x || x->is_null() || !r.is_object(key, *x)) continue;
    const std::string k(key);
    if (const auto *s = x->find("version")) r.string_or_null(k + ".version", *s, (p.*field).version);
    if (const auto *s = x->find("git_commit")) r.string_or_null(k + ".git_commit", *s, (p.*field).git_commit);
  }
  for (const auto &[key, field] : kLists)
    if (const auto *x = prov->find(key)) r.strings(key, *x, p.*field);
}

} // namespace

Result<PacketProvenance> PacketProvenance::from_json(const json::Value &packet) {
  FieldReader r("a packet's provenance", "otm-packet");
  PacketProvenance p;
  read(packet, r, p);
  if (r.failed()) return r.error();
  return p;
}

PacketProvenance PacketProvenance::shown(const json::Value &packet) {
  // The same reading; its sentences are the packet gates' to report.
  FieldReader r("a packet's provenance", "otm-packet");
  PacketProvenance p;
  read(packet, r, p);
  return p;
}

} // namespace otm::workspace
