// Which file of a trace holds its kernel (workspace/kernel_file.hpp): a
// CUDA trace that keeps its device code in kernel.cu beside a kernel.py
// that only builds it is read from kernel.cu, by every stage.
#include <catch2/catch.hpp>

#include <map>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "distill/reference_kernel_code.hpp"
#include "distill_test_support.hpp"
#include "error/error.hpp"
#include "io/file.hpp"
#include "trace/ingest.hpp"
#include "trace_fixture.hpp"
#include "workspace/kernel_file.hpp"
#include "workspace/trace_meta.hpp"
#include "json/parse.hpp"

using namespace otm;

namespace {

const char *kLoader = "import os\nfrom torch.utils.cpp_extension import load\n"
                      "_ext = load(name=\"ext\", sources=[os.path.join(os.path.dirname(__file__), \"kernel.cu\")])\n"
                      "def op(x):\n    return _ext.op(x)\n";

std::string cuda_kernel(int block) {
  return "#include <cuda_runtime.h>\n#define BLOCK " + std::to_string(block) +
         "\n__global__ void __launch_bounds__(BLOCK, 2) row_kernel(float* y, const float* x, int n) {\n"
         "  int i = blockIdx.x * BLOCK + threadIdx.x;\n  if (i < n) y[i] = x[i] * 2.f;\n}\n"
         "void launch(float* y, const float* x, int n) {\n"
         "  row_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(y, x, n);\n}\n";
}

} // namespace

TEST_CASE("kernel file: the first candidate holding an entry point, else the first present", "[kernel-file]") {
  std::map<std::string, std::string> files;
  auto read = [&](const std::string &p) -> std::optional<std::string> {
    auto it = files.find(p);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const std::vector<std::string> candidates{"kernel.py", "kernel.cu"};
  CHECK(workspace::kernel_file_of(candidates, read) == "kernel.py"); // none present: the default
  files["kernel.py"] = kLoader;
  CHECK(workspace::kernel_file_of(candidates, read) == "kernel.py"); // the only one present
  files["kernel.cu"] = cuda_kernel(128);
  CHECK(workspace::kernel_file_of(candidates, read) == "kernel.cu"); // the loader holds no kernel
  // A kernel.py that holds a kernel (a Triton one, or CUDA in a
  // load_inline string) stays the kernel file, whatever lies beside it.
  files["kernel.py"] = "import triton\n@triton.jit\ndef k(x):\n    pass\n";
  CHECK(workspace::kernel_file_of(candidates, read) == "kernel.py");
  files["kernel.py"] = "src = '''__global__ void k() {}'''\n";
  CHECK(workspace::kernel_file_of(candidates, read) == "kernel.py");

  CHECK(workspace::snapshot_path("v12", "kernel.cu") == "versions/kernel_v12.cu");
  CHECK(workspace::snapshot_path("v3", "kernel.py") == "versions/kernel_v3.py");
  CHECK(workspace::kernel_extension("src/kernel.hip") == ".hip");
  CHECK(workspace::kernel_extension("kernel") == ".py");

  // A meta.json written before the field read kernel.py.
  CHECK(workspace::TraceMeta::from_json(json::parse("{}")).kernel_file == "kernel.py");
}

TEST_CASE("kernel file: the candidates are configuration, refused when malformed", "[kernel-file][config]") {
  auto dir = testsupport::fresh_dir("kernel-files-config");
  auto file = dir / "override.json";
  auto with = [&](const std::string &list) {
    io::write_file_atomic(file, R"({"kernel_files": )" + list + "}");
    return config::Config::load(file);
  };
  CHECK(with(R"(["kernel.cu", "kernel.py"])").kernel_files() == std::vector<std::string>{"kernel.cu", "kernel.py"});
  CHECK(config::Config::defaults().kernel_files().front() == "kernel.py");
  for (const char *bad : {"[]", R"(["/etc/passwd"])", R"(["../kernel.cu"])", R"("kernel.cu")", "[3]"}) {
    INFO(bad);
    CHECK_THROWS_AS(with(bad), Error);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("kernel file: ingest reads a CUDA trace's kernel.cu, not its loader", "[kernel-file][ingest]") {
  test::TempDir tmp;
  test::GitTrace t{tmp.path() / "kernel_opt_043_rownorm"};
  t.write("solution.json", R"({"spec": {"target_hardware": ["H100 SXM"], "languages": ["cuda"]}})");
  t.write("kernel.py", kLoader);
  t.write("kernel.cu", cuda_kernel(128));
  t.commit("v0: baseline");
  t.write("kernel.cu", cuda_kernel(256));
  t.commit("v1: kept -> 10->9us (-10%) BLOCK 128->256");
  config::Settings settings;
  settings.set(config::Setting::Trace, t.dir().string());
  settings.set(config::Setting::Workspace, (tmp.path() / "ws").string());
  settings.set(config::Setting::Store, (tmp.path() / "store").string());
  auto config = config::Config::defaults();
  auto r = trace::ingest(trace::locate_trace(settings, config), config);
  const auto meta = workspace::TraceMeta::from_json(r.meta.get("meta"));
  CHECK(meta.kernel_file == "kernel.cu");
  CHECK(meta.final_dsl == "cuda");
  for (const auto &v : r.versions) CHECK(v.string_or("dsl") == "cuda");
}

TEST_CASE("kernel file: a CUDA source file is its own reference kernel, quoted whole", "[kernel-file][distill]") {
  const std::string source = cuda_kernel(128);
  auto code = distill::reference_kernel_code(source, code::Language::CFamily);
  REQUIRE(code);
  CHECK(code->name == "row_kernel");
  CHECK(code->cuda);
  CHECK(code->launched);
  CHECK(code->snippet.find("#define BLOCK 128") != std::string::npos);
  CHECK(code->snippet.find("row_kernel<<<") != std::string::npos);
  // Read as Python, the same file has no entry point: the language decides.
  CHECK_FALSE(distill::reference_kernel_code(source, code::Language::Python));
  CHECK_FALSE(distill::reference_kernel_code("int x = 1;\n", code::Language::CFamily));
}
