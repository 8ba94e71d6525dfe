// The `meta` object of work/meta.json as one typed row (issue 28: stage
// data read field by field fails at run time in whichever stage reads a
// renamed field). otm-ingest writes it with to_json; otm-partition, recon
// and otm-packet read it with from_json; no stage spells its keys.
//
//   auto meta = workspace::TraceMeta::from_json(doc.get("meta"));
//   meta.operator_slug, meta.var_axes  // the definition's variable axes
#pragma once

#include <map>
#include <string>
#include <vector>

#include "text/regex.hpp"
#include "workspace/kernel_file.hpp"
#include "json/value.hpp"

namespace otm::workspace {

struct TraceMeta {
  std::string operator_name, operator_slug, workload_family;
  json::Value description; // the definition's, verbatim (a string or null)
  json::Value constants;   // the definition's const axes: name -> value
  std::vector<std::string> var_axes;
  json::Value n_shapes;        // a count, or null when the workload is absent
  json::Value target_hardware; // the solution's, as a list
  json::Value languages;       // the solution's, as a list
  std::string final_dsl;
  std::string vendor, arch, product, arch_basis; // hardware.hpp's target
  std::string dsl_default, harness;
  std::string source_repo, head_sha;
  // The file holding the kernel (workspace/kernel_file.hpp); a meta.json
  // written before it was recorded reads kernel.py.
  std::string kernel_file = kDefaultKernelFile;

  // The run's other measurements of a version's code: the step-record
  // variants ("v65_retry.json") that hold a geomean, by their base version,
  // in file order. Not part of the `meta` object: re_measurements_in()
  // reads them from meta.json's `memory_variants`, and to_json() leaves
  // them out.
  struct ReMeasurement {
    std::string file;
    double geomean_us = 0;
    json::Value correctness_status; // as the file states it, or null
  };
  std::map<std::string, std::vector<ReMeasurement>> re_measurements;
  // Those whose suffix `suffix` matches (none when it is null).
  static std::map<std::string, std::vector<ReMeasurement>> re_measurements_in(const json::Value &memory_variants,
                                                                              const text::Regex *suffix);

  // Fields absent or of another type read as empty (null for the values).
  static TraceMeta from_json(const json::Value &meta);
  // In the order otm-ingest has always written them.
  json::Value to_json() const;
};

} // namespace otm::workspace
