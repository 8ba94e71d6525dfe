// The review page's SVG and HTML embedding (issue 27): whatever a staging
// store and a workspace hold, the page is markup otm wrote. For any input
// (its first line an operator name, each further line a record, a ladder
// row's text and a refusal-ledger row, all in a store whose own
// reports/evil/ladder.svg holds script): every tag of the page is one otm
// writes, no attribute is an event handler or a javascript: URL, the page
// forbids script by its Content-Security-Policy, and nothing of the staged
// picture reaches it. (A record may well say "javascript:": as escaped text
// or a data- attribute it is inert; no attribute that loads or links exists.)
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "gates/context.hpp"
#include "io/file.hpp"
#include "report/ladder_svg.hpp"
#include "review/review_page.hpp"
#include "json/parse.hpp"
#include "json/write.hpp"

namespace {

namespace fs = std::filesystem;
const char *kStagedMarker = "OTM-STAGED-PICTURE-7d1e";

const fs::path &staging_store() {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "otm-fuzz-review-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    fs::path s = fs::path(tmpl) / "store";
    fs::create_directories(s / "records");
    otm::io::write_file_atomic(s / "reports" / "evil" / "ladder.svg",
                               std::string("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>") + kStagedMarker +
                                   "</script><text onload=\"x\">" + kStagedMarker + "</text></svg>\n",
                               otm::io::FileClass::Scratch);
    return s;
  }();
  return dir;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Every '<' of `page` opens a tag otm writes (or the doctype); no attribute
// is an event handler or one that loads or links (href, src, action...).
void check_markup(const std::string &page) {
  static const std::set<std::string> tags = {
      "html",    "head",   "meta",       "title",   "style", "body", "h1",   "h2",   "h3",   "p",      "table",
      "tr",      "th",     "td",         "section", "span",  "div",  "ul",   "li",   "b",    "pre",    "details",
      "summary", "figure", "figcaption", "svg",     "g",     "text", "line", "path", "rect", "circle", "polygon"};
  for (std::size_t at = page.find('<'); at != std::string::npos; at = page.find('<', at + 1)) {
    std::size_t i = at + 1;
    if (page.compare(i, 8, "!DOCTYPE") == 0) continue;
    if (i < page.size() && page[i] == '/') ++i;
    std::size_t name_end = i;
    while (name_end < page.size() && std::isalnum(static_cast<unsigned char>(page[name_end]))) ++name_end;
    std::string name = lower(std::string_view(page).substr(i, name_end - i));
    FUZZ_CHECK(tags.count(name));
    auto close = page.find('>', name_end);
    FUZZ_CHECK(close != std::string::npos);
    std::string attrs = lower(std::string_view(page).substr(name_end, close - name_end));
    // Attribute values are quoted and escaped: no raw '<' or '"' inside one.
    bool in_value = false;
    std::string word;
    for (char c : attrs) {
      if (c == '"') {
        in_value = !in_value;
        continue;
      }
      if (in_value) continue;
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':') {
        word += c;
        continue;
      }
      if (c == '=') {
        FUZZ_CHECK(!word.starts_with("on"));
        FUZZ_CHECK(word != "href" && word != "xlink:href" && word != "src" && word != "action" &&
                   word != "formaction" && word != "srcdoc" && word != "style");
      }
      word.clear();
    }
    FUZZ_CHECK(!in_value);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace otm;
  std::string_view in(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> lines;
  for (std::size_t pos = 0; pos <= in.size() && lines.size() < 64;) {
    auto nl = in.find('\n', pos);
    if (nl == std::string_view::npos) nl = in.size();
    lines.emplace_back(in.substr(pos, nl - pos));
    pos = nl + 1;
  }
  const fs::path root = staging_store();

  gates::Context ctx;
  ctx.store_root = root;
  report::LadderPicture pic;
  pic.title = lines.empty() ? std::string() : lines.front();
  std::string ledger;
  const char *selections[] = {"baseline", "milestone", "mega", "final", "deadend", "rejected"};
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto &l = lines[i];
    gates::RecordEntry r;
    r.file = "records/fuzz/" + std::to_string(i) + ".json";
    try {
      r.record = json::parse(l, r.file);
    } catch (const json::ParseError &e) {
      r.parse_error = e.what();
    }
    ctx.records.push_back(std::move(r));
    auto row = json::Value::object();
    row.set("version", l);
    row.set("selection", selections[(l.size() + i) % 6]);
    row.set("reason", l);
    row.set("geomean_us", static_cast<double>(i % 7) * 1.5);
    row.set("best_after_us", static_cast<double>(i));
    row.set("best_before_version", l);
    pic.rows.push_back(std::move(row));
    auto refusal = json::Value::object();
    refusal.set("seg_id", l);
    refusal.set("why", l);
    ledger += json::to_line(refusal) + "\n";
  }
  io::write_file_atomic(root / "reports" / "fz" / "refusals.jsonl", ledger, io::FileClass::Scratch);
  review::PageInputs page_in;
  page_in.context = &ctx;
  page_in.ladder = pic;
  page_in.ladder_source = lines.empty() ? std::string() : lines.back();
  const std::string page = review::review_page(page_in);
  FUZZ_CHECK(page.find(kStagedMarker) == std::string::npos);
  FUZZ_CHECK(lower(page).find("<script") == std::string::npos);
  FUZZ_CHECK(page.find("Content-Security-Policy\" content=\"default-src 'none'") != std::string::npos);
  check_markup(page);
  // The picture alone, as otm-recon writes it.
  check_markup(report::ladder_svg(pic).substr(report::ladder_svg(pic).find('\n') + 1));
  return 0;
}
