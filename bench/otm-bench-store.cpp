// otm-bench-store: writes a generated clean-1.3 store for benchmarks and
// large-store tests (bench/storegen/store_generator.hpp).
#include <iostream>

#include "cmdline/options.hpp"
#include "storegen/store_generator.hpp"
#include "tool/exit_codes.hpp"

namespace {

std::size_t number(const std::string &name, const std::string &text) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
    throw otm::Error(otm::ErrorKind::Usage, "--" + name + " takes a non-negative integer, not '" + text + "'");
  return std::stoull(text);
}

} // namespace

int main(int argc, char **argv) {
  return otm::tool::run_tool("otm-bench-store", [&] {
    otm::cli::Options opts(
        "otm-bench-store",
        "Writes a generated store: OUTDIR/records/<type>/<vendor>/<arch>/<dsl>/<family>/<id>.json and "
        "OUTDIR/records/index.json, every record valid clean-1.3 and passing the nine store gates, and the keys "
        "index OUTDIR/records/.otm-index-keys (a cache: never commit it). The shapes (types, scopes, field "
        "presence, text sizes, links, shared episodes) follow the real store's; the words are otm's own. "
        "Deterministic: the same --seed and --records give the same bytes (the keys index aside), and a smaller "
        "store is a prefix of a larger one.\n\nIt reads nothing and decides nothing; it is test and benchmark tooling, "
        "not part of the pipeline.\n\nExit: 0 written; 2 usage, or OUTDIR exists and is not empty.\n\n"
        "Usage: otm-bench-store --records N [--seed S] OUTDIR");
    opts.value("records", "N", "number of records (required)");
    opts.value("seed", "S", "seed (default 1)");
    if (!opts.parse(argc, argv)) return 0;
    if (opts.positionals().size() != 1) throw otm::Error(otm::ErrorKind::Usage, "give one OUTDIR");
    if (!opts.get("records")) throw otm::Error(otm::ErrorKind::Usage, "--records N is required");
    otm::bench::StoreSize size;
    size.records = number("records", *opts.get("records"));
    size.seed = number("seed", opts.get_or("seed", "1"));
    auto made = otm::bench::generate_store(opts.positionals()[0], size);
    std::cerr << "otm-bench-store: " << made.records << " records (" << made.record_bytes << " bytes) and an index of "
              << made.index_bytes << " bytes in " << opts.positionals()[0] << "\n";
    return 0;
  });
}
