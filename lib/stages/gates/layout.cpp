// gates.md §3.3 through record/store_layout.hpp, the derivation the
// admission gate uses on insert (no "?" directories here, no guessed
// hardware there).
#include "gates/gates.hpp"

#include "record/store_layout.hpp"
#include "workspace/layout.hpp"

namespace otm::gates {

GateResult gate_layout(const Context &ctx) {
  GateResult out;
  for (const auto &r : ctx.records) {
    if (!r.parse_error.empty()) {
      out.findings.push_back(finding(Gate::Layout, r, "does not parse: cannot place it"));
      continue;
    }
    if (r.path.empty()) {
      out.findings.push_back(finding(Gate::Layout, r, "record was read from a stream: its location cannot be checked"));
      continue;
    }
    std::filesystem::path expected;
    try {
      expected = record::record_dir(r.record);
    } catch (const record::LayoutError &e) {
      out.findings.push_back(finding(Gate::Layout, r, e.what()));
      continue;
    }
    // The file's directory must end in the derived one (and, inside a store,
    // be exactly records/<derived>).
    auto actual = r.path.parent_path().lexically_normal();
    std::filesystem::path want =
        ctx.store_root ? (workspace::records_dir(*ctx.store_root) / expected).lexically_normal() : expected;
    std::string a = actual.generic_string(), w = want.generic_string();
    bool ok = ctx.store_root ? a == w
                             : (a == w || (a.size() > w.size() && a.compare(a.size() - w.size(), w.size(), w) == 0 &&
                                           a[a.size() - w.size() - 1] == '/'));
    if (!ok) {
      std::string shown =
          ctx.store_root ? actual.lexically_relative(workspace::records_dir(*ctx.store_root)).generic_string() : a;
      out.findings.push_back(finding(Gate::Layout, r,
                                     "filed under " + shown + ", expected " + expected.generic_string(),
                                     expected.generic_string()));
    }
  }
  return out;
}

} // namespace otm::gates
