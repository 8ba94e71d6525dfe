#include "explain/trace_model.hpp"

#include "error/error.hpp"
#include "io/file.hpp"
#include "partition/inputs.hpp"
#include "partition/partition.hpp"

namespace otm::explain {

using config::Setting;

namespace {

// The id without its "-<marker><NN>" discriminator.
std::string id_stem(const std::string &id) {
  auto dash = id.rfind('-');
  if (dash == std::string::npos || dash + 2 >= id.size()) return id;
  for (std::size_t i = dash + 2; i < id.size(); ++i)
    if (id[i] < '0' || id[i] > '9') return id;
  return id.substr(0, dash);
}

} // namespace

TraceModel TraceModel::load(config::Settings settings, const config::Config &config,
                            const store::RecordView::Scope &fallback_scope) {
  TraceModel m;
  m.config_ = config;
  m.loc_ = trace::locate_trace(settings, config);
  try {
    m.ingest_ = trace::ingest(m.loc_, config);
  } catch (const Error &e) {
    // The trace may simply not state its hardware: a record says what it
    // was filed under, which is enough to rebuild its packet (and said).
    const auto &vendor = fallback_scope.vendor, &arch = fallback_scope.arch;
    if (e.kind() != ErrorKind::Refused || settings.get(Setting::Arch) || !vendor || !arch) throw;
    settings.set(Setting::Vendor, *vendor);
    settings.set(Setting::Arch, *arch);
    if (const auto &product = fallback_scope.product) settings.set(Setting::Product, *product);
    m.loc_ = trace::locate_trace(settings, config);
    m.ingest_ = trace::ingest(m.loc_, config);
    m.hardware_note_ = "the trace does not state its hardware: vendor/arch/product taken from the record's "
                       "retrieval.scope (" +
                       *vendor + "/" + *arch + ")";
  }
  auto result = ladder::select(m.ingest_.versions, config.ladder());
  m.rows_ = ladder::annotate(m.ingest_.versions, result);
  m.versions_ = workspace::read_version_rows(m.ingest_.versions, "the trace's version rows");

  partition::Inputs in;
  in.rows = m.rows_;
  in.meta = workspace::TraceMeta::from_json(m.meta());
  in.profiles = m.ingest_.profiles;
  partition::Sources src;
  src.live = workspace::live_root(settings);
  if (io::is_directory(m.loc_.store.records_dir())) src.staging = m.loc_.store.root;
  src.trace = m.loc_.trace;
  src.limits = config.limits();
  src.prose_min_chars = config.ladder().deadend_min_chars;
  src.levers = levers::LeverVocabulary::from_config(config);
  partition::add_store_inputs(in, src);
  try {
    m.segments_ = partition::run(in).segments;
    m.typed_ = workspace::read_segments(m.segments_, "the trace's segments");
  } catch (const Error &e) {
    // Not a verdict on the record: the trace cannot be cut against these stores.
    if (e.kind() != ErrorKind::NegativeVerdict) throw;
    throw Error(ErrorKind::Usage,
                std::string("cannot rebuild the trace's segments against the given stores: ") + e.what());
  }

  m.repo_ = std::make_unique<git::Repository>(git::Repository::open(m.loc_.trace));
  m.commits_ = std::make_unique<packet::VersionCommits>(*m.repo_);
  m.files_ = std::make_unique<trace::TraceFiles>(m.loc_.trace, config.limits());
  m.denylist_ = std::make_unique<scrub::Denylist>(scrub::Denylist::from_setting(settings.get(Setting::Denylist)));
  return m;
}

const json::Value *TraceModel::row(const std::string &version) const {
  const auto *typed = version_row(version);
  return typed ? &rows_[static_cast<std::size_t>(typed - versions_.data())] : nullptr;
}

const workspace::VersionRow *TraceModel::version_row(const std::string &version) const {
  for (const auto &v : versions_)
    if (v.version == version) return &v;
  return nullptr;
}

const workspace::Segment &TraceModel::typed(const json::Value &segment) const {
  for (std::size_t i = 0; i < segments_.size(); ++i)
    if (&segments_[i] == &segment) return typed_[i];
  throw Error(ErrorKind::Internal, "a segment that is not one of the trace model's");
}

const json::Value *TraceModel::segment_for(const store::RecordView &record) const {
  const std::string id = record.id.value_or(""), type = record.type.value_or("");
  const std::string version = record.version.value_or("");
  for (std::size_t i = 0; i < typed_.size(); ++i)
    if (!id.empty() && typed_[i].id == id) return &segments_[i];
  const json::Value *by_stem = nullptr, *only = nullptr;
  std::size_t candidates = 0;
  for (std::size_t i = 0; i < typed_.size(); ++i) {
    const auto &s = typed_[i];
    if (s.record_type != type || s.version != version) continue;
    ++candidates;
    only = &segments_[i];
    if (id_stem(s.id) == id_stem(id)) by_stem = only;
  }
  if (by_stem) return by_stem;
  return candidates == 1 ? only : nullptr;
}

packet::Built TraceModel::packet_for(const json::Value &segment) const {
  auto ctx = packet::make_context(meta_file(), *repo_, *commits_, *files_, denylist_.get(), config_);
  return packet::build_one(typed(segment), versions_, ctx);
}

std::map<std::string, std::vector<workspace::TraceMeta::ReMeasurement>> TraceModel::re_measurements() const {
  return packet::make_context(meta_file(), *repo_, *commits_, *files_, denylist_.get(), config_).meta.re_measurements;
}

} // namespace otm::explain
