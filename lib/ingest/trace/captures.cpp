#include "trace/captures.hpp"

#include <algorithm>

#include "text/regex.hpp"
#include "text/utf8.hpp"
#include "trace/trace_files.hpp"
#include "trace/version_key.hpp"

namespace otm::trace {

namespace fs = std::filesystem;

std::vector<std::string> non_target_kernels(const config::Settings &settings, const config::Config &config) {
  std::vector<std::string> out;
  if (auto v = settings.get(config::Setting::NonTargetKernels)) {
    std::string_view s = *v;
    while (true) {
      auto comma = s.find(',');
      auto item = text::strip(s.substr(0, comma));
      if (!item.empty()) out.emplace_back(item);
      if (comma == std::string_view::npos) break;
      s = s.substr(comma + 1);
    }
  }
  return out.empty() ? config.non_target_kernels() : out;
}

std::size_t count_lines(std::string_view t) {
  std::size_t lines = 0, i = 0;
  bool open = false; // a line has started and not yet ended
  while (i < t.size()) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    std::size_t brk = 0; // length of a line break at i
    if (c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e)
      brk = 1;
    else if (c == '\r')
      brk = (i + 1 < t.size() && t[i + 1] == '\n') ? 2 : 1;
    else if (c == 0xc2 && i + 1 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0x85)
      brk = 2;
    else if (c == 0xe2 && i + 2 < t.size() && static_cast<unsigned char>(t[i + 1]) == 0x80 &&
             (static_cast<unsigned char>(t[i + 2]) == 0xa8 || static_cast<unsigned char>(t[i + 2]) == 0xa9))
      brk = 3;
    if (brk) {
      ++lines;
      open = false;
      i += brk;
    } else {
      open = true;
      ++i;
    }
  }
  return lines + (open ? 1 : 0);
}

std::string capture_tool(std::string_view dir, std::string_view report) {
  static const text::Regex tool(R"((?i)(?:^|[^a-z0-9])(ncu|nsys|nvprof|rocprof\w*|omniperf|omnitrace|)"
                                R"(nsight[ _-]?compute|nsight[ _-]?systems)(?:$|[^a-z0-9]))");
  auto named = [&](std::string_view s) -> std::string {
    auto m = tool.search(s);
    if (!m) return {};
    std::string t = text::to_lower((*m)[1]);
    if (t.starts_with("nsight")) return t.find("compute") != std::string::npos ? "ncu" : "nsys";
    return t;
  };
  if (auto t = named(dir); !t.empty()) return t;
  return named(report.substr(0, report.find('\n')));
}

namespace {

// `void a::(anonymous namespace)::k<T, f(x)>(int, T*)` -> `a::k`.
std::string qualified_kernel_name(std::string_view profiled) {
  std::string out;
  int angle = 0, paren = 0;
  for (char ch : profiled) {
    if (ch == '<')
      ++angle;
    else if (ch == '>' && angle > 0)
      --angle;
    else if (ch == '(' && angle == 0) {
      // `(anonymous namespace)` is a component; any other parenthesis at
      // depth 0 opens the parameter list.
      if (paren == 0 && !out.ends_with("::")) break;
      ++paren;
    } else if (ch == ')' && angle == 0 && paren > 0)
      --paren;
    else if (angle == 0 && paren == 0)
      out += ch;
  }
  // Drop the return type and qualifiers before the name.
  auto space = out.find_last_of(" \t");
  if (space != std::string::npos) out = out.substr(space + 1);
  for (auto at = out.find("::::"); at != std::string::npos; at = out.find("::::")) out.erase(at, 2);
  return out;
}

} // namespace

bool is_non_target_kernel(std::string_view profiled, const std::vector<std::string> &non_target) {
  auto name = qualified_kernel_name(profiled);
  for (const auto &e : non_target) {
    if (e.empty()) continue;
    if (profiled == e || name == e) return true;
    if (e.ends_with("::") ? name.starts_with(e) : name.size() > e.size() && name.ends_with("::" + e)) return true;
  }
  return false;
}

std::vector<json::Value> scan_captures(const TraceFiles &files, const std::vector<std::string> &non_target) {
  static const text::Regex dir_name("(?i)^(v\\d+)(?:[_-](.+))?$");
  static const text::Regex kernel_line("(?m)^Kernel:\\s*(.+)$");
  std::vector<json::Value> rows;
  for (const auto &name : files.names("profiles")) {
    const std::string dir = "profiles/" + name;
    auto m = dir_name.match(name);
    if (!m) continue;
    if (!files.is_directory(dir)) {
      files.is_file(dir, TraceFiles::Seen::Listed); // a skip unless a plain file (not a capture)
      continue;
    }
    if (auto problem = version_key_problem((*m)[1]); !problem.empty()) {
      files.skip(dir + "/", problem);
      continue;
    }
    json::Value profiled = nullptr;
    auto summary = files.text(dir + "/summary.txt");
    if (summary)
      if (auto k = kernel_line.search(*summary)) profiled = std::string(text::strip((*k)[1]));
    const std::string *pk = profiled.as_string();
    bool usable = pk && !pk->empty() && !is_non_target_kernel(*pk, non_target);
    auto report = files.text(dir + "/REPORT.md");
    json::Value row = json::Value::object();
    row.set("dir", name);
    row.set("version", text::to_lower((*m)[1]));
    row.set("variant", m->has(2) ? json::Value(std::string((*m)[2])) : json::Value());
    row.set("profiled_kernel", profiled);
    row.set("ncu_usable", usable);
    row.set("has_summary", summary.has_value());
    row.set("has_report", report.has_value());
    row.set("has_metrics", files.is_file(dir + "/analysis/metrics_key_run.json"));
    row.set("report_lines", report ? count_lines(*report) : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace otm::trace
