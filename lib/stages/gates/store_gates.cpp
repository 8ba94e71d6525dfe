#include "gates/store_gates.hpp"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "io/beneath.hpp"
#include "store/store_reader.hpp"

namespace otm::gates {

namespace {

// Records read ahead by the reader thread: enough to keep the passes busy,
// few enough that memory stays flat whatever the store's size.
constexpr std::size_t kReadAhead = 32;

class ReadAhead {
public:
  ReadAhead(fs::path root, std::vector<store::RecordFile> files, config::Limits limits)
      : root_(std::move(root)), files_(std::move(files)), limits_(limits) {
    worker_ = std::thread([this] { run(); });
  }
  ~ReadAhead() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  // The next record in order, or nullopt after the last.
  std::optional<RecordEntry> next() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return !ready_.empty() || done_; });
    if (ready_.empty()) return std::nullopt;
    RecordEntry e = std::move(ready_.front());
    ready_.pop_front();
    cv_.notify_all();
    return e;
  }

private:
  void run() {
    // The root opened once for all records, not once per record (5 % of
    // the one pass).
    std::optional<io::Beneath> store;
    try {
      store.emplace(root_, "the store");
    } catch (const std::exception &) {
      // Each record then reports the failure itself, as before.
    }
    for (auto &file : files_) {
      // Its names are moved out: the list shrinks as the records are read.
      store::StoredRecord f = store::stored_record(root_, std::move(file));
      if (store)
        store::read_record(*store, f, limits_);
      else
        store::read_record(root_, f, limits_);
      RecordEntry e{f.relpath, f.path, std::move(f.record), std::move(f.parse_error)};
      std::unique_lock<std::mutex> lock(m_);
      cv_.wait(lock, [&] { return ready_.size() < kReadAhead || stop_; });
      if (stop_) return;
      ready_.push_back(std::move(e));
      cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(m_);
    done_ = true;
    cv_.notify_all();
  }

  fs::path root_;
  std::vector<store::RecordFile> files_;
  config::Limits limits_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<RecordEntry> ready_;
  bool done_ = false, stop_ = false;
  std::thread worker_;
};

} // namespace

std::vector<const GateInfo *> store_gates() {
  std::vector<const GateInfo *> out;
  for (const auto &g : all_gates())
    if (g.kind == GateKind::Store) out.push_back(&g);
  return out;
}

namespace {

// A bounded hand-over of records from the reading loop to the second
// worker; a record is freed when both workers are done with it.
class Handover {
public:
  void push(std::shared_ptr<const RecordEntry> r) {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return q_.size() < kReadAhead; });
    q_.push_back(std::move(r));
    cv_.notify_all();
  }
  void close() {
    std::lock_guard<std::mutex> lock(m_);
    closed_ = true;
    cv_.notify_all();
  }
  std::shared_ptr<const RecordEntry> pop() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return !q_.empty() || closed_; });
    if (q_.empty()) return nullptr;
    auto r = std::move(q_.front());
    q_.pop_front();
    cv_.notify_all();
    return r;
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<const RecordEntry>> q_;
  bool closed_ = false;
};

} // namespace

PassRun run_passes(const std::vector<const GateInfo *> &gates, const Context &ctx,
                   const std::optional<std::filesystem::path> &stream_from) {
  std::vector<std::unique_ptr<RecordPass>> passes;
  for (const auto *g : gates) passes.push_back(pass_for(*g, ctx));
  PassRun out;
  if (passes.size() < 2) {
    auto feed = [&](const RecordEntry &r) {
      ++out.records;
      for (auto &p : passes) p->record(r);
    };
    for (const auto &r : ctx.records) feed(r);
    if (stream_from) {
      ReadAhead reader(*stream_from, store::record_file_list(*stream_from), ctx.limits);
      while (auto r = reader.next()) feed(*r);
    }
  } else {
    // Two workers: the first gate (the schema gate, which costs as much as
    // all the others together) on its own thread, the rest on this one;
    // both see every record in order, so each pass's findings are as if
    // it ran alone.
    Handover to_first;
    std::exception_ptr failure;
    std::thread first([&] {
      try {
        while (auto r = to_first.pop()) passes[0]->record(*r);
      } catch (...) {
        failure = std::current_exception();
        while (to_first.pop()) {
        }
      }
    });
    auto feed = [&](std::shared_ptr<const RecordEntry> r) {
      ++out.records;
      to_first.push(r);
      for (std::size_t i = 1; i < passes.size(); ++i) passes[i]->record(*r);
    };
    try {
      for (const auto &r : ctx.records) feed(std::shared_ptr<const RecordEntry>(&r, [](const RecordEntry *) {}));
      if (stream_from) {
        ReadAhead reader(*stream_from, store::record_file_list(*stream_from), ctx.limits);
        while (auto r = reader.next()) feed(std::make_shared<const RecordEntry>(std::move(*r)));
      }
    } catch (...) {
      to_first.close();
      first.join();
      throw;
    }
    to_first.close();
    first.join();
    if (failure) std::rethrow_exception(failure);
  }
  for (std::size_t i = 0; i < gates.size(); ++i) out.runs.push_back({gates[i], passes[i]->finish()});
  return out;
}

} // namespace otm::gates
