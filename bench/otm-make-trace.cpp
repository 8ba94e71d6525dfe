// otm-make-trace: writes a generated, realistic optimisation trace for tests
// and benchmarks (bench/tracegen/trace_generator.hpp; bench/README.md).
#include <iostream>

#include "cmdline/options.hpp"
#include "io/file.hpp"
#include "tool/exit_codes.hpp"
#include "tracegen/hostile_shapes.hpp"
#include "tracegen/trace_generator.hpp"
#include "tracegen/trace_writer.hpp"

using namespace otm;

namespace {

std::uint64_t number(const std::string &name, const std::string &text, std::uint64_t max) {
  if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoull(text) > max)
    throw Error(ErrorKind::Usage,
                "--" + name + " takes an integer up to " + std::to_string(max) + ", not '" + text + "'");
  return std::stoull(text);
}

template <typename E>
E choice(const std::string &name, const std::string &text, const std::vector<std::pair<const char *, E>> &options) {
  std::string names;
  for (const auto &[k, v] : options) {
    if (text == k) return v;
    names += (names.empty() ? "" : ", ") + std::string(k);
  }
  throw Error(ErrorKind::Usage, "--" + name + " takes one of " + names + ", not '" + text + "'");
}

} // namespace

int main(int argc, char **argv) {
  return tool::run_tool("otm-make-trace", [&] {
    cli::Options opts(
        "otm-make-trace",
        "Usage: otm-make-trace [options] OUTDIR\n"
        "       otm-make-trace [options] --stream > trace.fi\n\n"
        "Writes OUTDIR/kernel_opt_<NNN>_<operator>, a git repository in the producer's trace layout: commits\n"
        "v1..vN whose subjects name the parameters they change (BLOCK_SIZE, num_warps, num_stages, cache\n"
        "modifiers, ld.global.nc.v4.f32), kernel.py in the chosen DSL (CUDA as load_inline strings with inline\n"
        "PTX), memory/v<N>.json in both step-record templates and pitfall vintages, ncu and nsys captures,\n"
        "snapshots, reverted dead-ends with stated causes, comment-only and docstring-only steps, re-committed\n"
        "versions, accuracy failures and outages. Prints the trace directory. With --stream, writes the git\n"
        "fast-import stream to stdout instead (no git needed). --hostile adds shapes of a stranger's trace that\n"
        "mislead a miner (bench/README.md); --manifest records every version's ground truth.\n\n"
        "Deterministic: the same options give the same commit ids. Test and benchmark tooling (it runs git),\n"
        "not part of the pipeline; it reads nothing and decides nothing about records.\n\n"
        "Exit: 0 written; 2 usage, OUTDIR's trace directory exists, or git failed.");
    opts.value("versions", "N", "number of versions v1..vN (default 120, at most 5000)");
    opts.value("dsl", "DSL", "triton (default), cuda (load_inline strings) or gluon");
    opts.value("operator", "NAME", "operator name, [a-z0-9_]+ (default rmsnorm; norms, softmax, elementwise kinds)");
    opts.value("seed", "S", "seed of every random choice (default 1)");
    opts.value("spelling", "S", "prose spelling: british, american or mixed (default)");
    opts.value("variant", "V", "full (default), no-memory, broken-json, no-hardware or no-profiles");
    opts.value("gpu", "TOKEN", "hardware the trace states (default 'NVIDIA H100')");
    opts.value("number", "NNN", "the NNN of kernel_opt_NNN_<operator> (default 901)");
    opts.value("manifest", "FILE",
               "also write the manifest (one JSON line per version: kind, names, subject, ground truth)");
    opts.value("hostile", "LIST",
               "hostile shapes: all, or comma-separated invisible-code, renamed-levers, template-impact, "
               "repeated-pitfalls, milestone-span, contradicted-pitfalls, misleading-reverts, quoted-versions "
               "(default none)");
    opts.value("hostile-rate", "PCT",
               "percent of versions from v3 on that start a hostile episode (default 20, 1..100; needs --hostile)");
    opts.flag("stream", "write the fast-import stream to stdout instead of a repository");
    if (!opts.parse(argc, argv)) return tool::kSuccess;
    tracegen::TraceOptions o;
    o.versions = number("versions", opts.get_or("versions", "120"), 5000);
    if (o.versions < 2) throw Error(ErrorKind::Usage, "--versions must be at least 2 (a baseline and one step)");
    o.dsl = choice<tracegen::Dsl>(
        "dsl", opts.get_or("dsl", "triton"),
        {{"triton", tracegen::Dsl::Triton}, {"cuda", tracegen::Dsl::Cuda}, {"gluon", tracegen::Dsl::Gluon}});
    o.op = opts.get_or("operator", "rmsnorm");
    if (o.op.empty() || o.op.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      throw Error(ErrorKind::Usage, "--operator takes [a-z0-9_]+, not '" + o.op + "'");
    o.seed = number("seed", opts.get_or("seed", "1"), 999999999999ULL);
    o.spelling = choice<tracegen::Spelling>("spelling", opts.get_or("spelling", "mixed"),
                                            {{"british", tracegen::Spelling::British},
                                             {"american", tracegen::Spelling::American},
                                             {"mixed", tracegen::Spelling::Mixed}});
    o.variant = choice<tracegen::Variant>("variant", opts.get_or("variant", "full"),
                                          {{"full", tracegen::Variant::Full},
                                           {"no-memory", tracegen::Variant::NoMemory},
                                           {"broken-json", tracegen::Variant::BrokenJson},
                                           {"no-hardware", tracegen::Variant::NoHardware},
                                           {"no-profiles", tracegen::Variant::NoProfiles}});
    o.gpu = opts.get_or("gpu", "NVIDIA H100");
    o.number = static_cast<unsigned>(number("number", opts.get_or("number", "901"), 999));
    if (auto h = opts.get("hostile")) {
      try {
        o.hostile = tracegen::parse_hostile_shapes(*h);
      } catch (const std::invalid_argument &e) {
        throw Error(ErrorKind::Usage, std::string("--hostile: ") + e.what());
      }
    }
    if (auto rate = opts.get("hostile-rate")) {
      if (o.hostile.empty()) throw Error(ErrorKind::Usage, "--hostile-rate needs --hostile");
      o.hostile_rate = static_cast<unsigned>(number("hostile-rate", *rate, 100));
      if (o.hostile_rate == 0) throw Error(ErrorKind::Usage, "--hostile-rate takes 1..100, not 0");
    }
    if (opts.is_set("stream")) {
      if (!opts.positionals().empty()) throw Error(ErrorKind::Usage, "--stream writes to stdout: give no OUTDIR");
      auto story = tracegen::write_story(o);
      tracegen::write_fast_import(std::cout, story);
      if (auto m = opts.get("manifest")) io::write_file_atomic(*m, tracegen::manifest_jsonl(story));
      return tool::kSuccess;
    }
    if (opts.positionals().size() != 1) throw Error(ErrorKind::Usage, "give one OUTDIR");
    std::filesystem::path outdir = opts.positionals()[0];
    if (std::filesystem::exists(outdir / tracegen::trace_dir_name(o)))
      throw Error(ErrorKind::Usage, (outdir / tracegen::trace_dir_name(o)).string() +
                                        " already exists; remove it or choose another OUTDIR");
    tracegen::GeneratedTrace g;
    try {
      g = tracegen::generate_trace(outdir, o);
    } catch (const std::runtime_error &e) {
      throw Error(ErrorKind::Usage, e.what());
    }
    if (auto m = opts.get("manifest")) io::write_file_atomic(*m, tracegen::manifest_jsonl(g.story));
    std::cout << g.dir.string() << "\n";
    return tool::kSuccess;
  });
}
