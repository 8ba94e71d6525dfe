#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/settings.hpp"
#include "trace/captures.hpp"
#include "trace/trace_files.hpp"
#include "trace_fixture.hpp"
#include "json/write.hpp"

using namespace otm::trace;

TEST_CASE("count_lines follows Python's splitlines", "[captures]") {
  CHECK(count_lines("") == 0);
  CHECK(count_lines("a") == 1);
  CHECK(count_lines("a\n") == 1);
  CHECK(count_lines("a\n\nb") == 3);
  CHECK(count_lines("a\r\nb\rc") == 3);
  CHECK(count_lines("a\u2028b\x0c"
                    "c") == 3);
}

TEST_CASE("non-target kernels: the setting wins when it names any, else the configuration", "[captures]") {
  auto config = otm::config::Config::defaults();
  otm::config::Settings s;
  CHECK(non_target_kernels(s, config) ==
        std::vector<std::string>{"distribution_elementwise_grid_stride_kernel", "at::native::"});
  s.set(otm::config::Setting::NonTargetKernels, " a , ,b,");
  CHECK(non_target_kernels(s, config) == std::vector<std::string>{"a", "b"});
  s.set(otm::config::Setting::NonTargetKernels, " , ");
  CHECK(non_target_kernels(s, config).size() == 2);
}

TEST_CASE("capture rows of §4 in directory order", "[captures]") {
  otm::test::TempDir tmp;
  auto p = tmp.path() / "profiles";
  otm::test::write_text(p / "v3_ncu" / "summary.txt", "header\nKernel:   my_kernel  \nKernel: other\n");
  otm::test::write_text(p / "v3_ncu" / "REPORT.md", "# r\n\nline\n");
  otm::test::write_text(p / "v3_ncu" / "analysis" / "metrics_key_run.json", "{}");
  otm::test::write_text(p / "V10" / "summary.txt", "Kernel: distribution_elementwise_grid_stride_kernel\n");
  otm::test::write_text(p / "v4-b" / "summary.txt", "no kernel line\n");
  otm::test::write_text(p / "notes" / "summary.txt", "Kernel: x\n");
  otm::test::write_text(p / "v5", "a file, not a capture");
  TraceFiles files(tmp.path(), otm::config::Limits{});
  auto rows = scan_captures(files, {"distribution_elementwise_grid_stride_kernel"});
  REQUIRE(rows.size() == 3);
  CHECK(otm::json::to_line(rows[0]) ==
        R"({"dir": "V10", "version": "v10", "variant": null, "profiled_kernel": )"
        R"("distribution_elementwise_grid_stride_kernel", "ncu_usable": false, "has_summary": true, )"
        R"("has_report": false, "has_metrics": false, "report_lines": 0})");
  CHECK(otm::json::to_line(rows[1]) ==
        R"({"dir": "v3_ncu", "version": "v3", "variant": "ncu", "profiled_kernel": "my_kernel", "ncu_usable": true, )"
        R"("has_summary": true, "has_report": true, "has_metrics": true, "report_lines": 3})");
  CHECK(rows[2].get("profiled_kernel").is_null());
  CHECK(rows[2].string_or("variant") == "b");
  CHECK_FALSE(rows[2].get("ncu_usable").truthy());
  std::filesystem::create_directories(tmp.path() / "empty");
  CHECK(scan_captures(TraceFiles(tmp.path() / "empty", otm::config::Limits{}), {}).empty());
}

TEST_CASE("a non-target kernel matches by its qualified name or its namespace", "[captures][issue25]") {
  const std::vector<std::string> list{"distribution_elementwise_grid_stride_kernel", "at::native::"};
  // What ncu prints for torch's RNG, fill and reduction kernels.
  CHECK(is_non_target_kernel("void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel"
                             "<float, 4, at::native::templates::cuda::uniform_and_transform<float, float, "
                             "at::CUDAGeneratorImpl*>>",
                             {"distribution_elementwise_grid_stride_kernel"}));
  CHECK(is_non_target_kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::Half>, "
                             "at::detail::Array<char*, 1>>(int, at::native::FillFunctor<c10::Half>, "
                             "at::detail::Array<char*, 1>)",
                             list));
  CHECK(is_non_target_kernel("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
                             "at::native::MaxOps<float>, unsigned int, float, 4>>",
                             list));
  CHECK(is_non_target_kernel("distribution_elementwise_grid_stride_kernel", list));
  // The trace's own kernels, even one named like torch's.
  CHECK_FALSE(is_non_target_kernel("reduce_kernel", list));
  CHECK_FALSE(is_non_target_kernel("int4_gemv_kernel", list));
  CHECK_FALSE(is_non_target_kernel("void int4_gemv_kernel<128>(const unsigned char*, float*)", list));
  CHECK_FALSE(is_non_target_kernel("void mylib::my_distribution_elementwise_grid_stride_kernel<float>()", list));
  CHECK_FALSE(is_non_target_kernel("at::native_like::k", list));
}
