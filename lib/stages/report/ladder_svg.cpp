#include "report/ladder_svg.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "ladder/ladder.hpp"
#include "ladder/noise.hpp"
#include "text/markup.hpp"
#include "text/pyformat.hpp"

namespace otm::report {

namespace {

using text::fixed;
using text::xml_escape;
using workspace::LadderVerdict;

// Geometry, in SVG user units (pixels at 100%).
constexpr double kLeft = 78, kTop = 58, kPlotHeight = 300, kBandGap = 34, kBandHeight = 26, kBottom = 64;
constexpr double kLegendWidth = 300, kMinPitch = 10, kMaxPitch = 34, kMinPlotWidth = 520, kMaxPlotWidth = 1500;

struct Style {
  const char *shape; // square, circle, diamond, star, cross, plus, up, down, left, right
  const char *stroke, *fill;
  double size;
};

// One style per category key, and each rejection reason the ratchet gives
// (ladder.cpp, noise.cpp) a glyph and colour of its own: accepted versions
// solid, rejected ones hollow. A reason not listed here gets a colour of its
// own from kOtherColours (PictureStyles assigns them per picture).
const std::map<std::string, Style> &styles() {
  static const std::map<std::string, Style> s = {
      {"baseline", {"square", "#1f4e99", "#1f4e99", 5.5}},
      {"milestone", {"circle", "#1b7f3b", "#2ca02c", 5.5}},
      {"mega", {"diamond", "#0b5a25", "#2ca02c", 9}},
      {"final", {"star", "#8a6d00", "#f2c01e", 10}},
      {"deadend", {"cross", "#c0262d", "none", 5.5}},
      {"rejected-harness-re-baselining", {"up", "#d9700b", "none", 7}},
      {"rejected-unexplained-win", {"down", "#7b4fb0", "none", 7}},
      {"rejected-under-threshold", {"circle", "#808080", "none", 4.5}},
      {"rejected-declares-no-change", {"diamond", "#808080", "none", 6}},
      {"rejected-incorrect", {"square", "#a01c1c", "none", 5}},
      {"rejected-gate-fail", {"diamond", "#a01c1c", "none", 6}},
      {"rejected-infrastructure", {"square", "#8c564b", "none", 5}},
      {"rejected-remeasurement", {"circle", "#1f77b4", "none", 4.5}},
      {"rejected-reverted-nothing-said", {"left", "#c0262d", "none", 6.5}},
      {"rejected-no-usable-geomean", {"right", "#555555", "none", 6.5}},
      {"rejected-no-commit-code-not-reachable", {"plus", "#8c564b", "none", 5.5}},
  };
  return s;
}

// Colours for reasons without a style of their own, in the order such
// reasons first appear in a picture (a circle each).
constexpr const char *kOtherColours[] = {"#e377c2", "#17becf", "#bcbd22", "#9467bd",
                                         "#ff7f0e", "#2f4f4f", "#b8860b", "#4682b4"};

std::string slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a'), alnum = true;
    if (alnum)
      out += c;
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string num(double x) { return fixed(x, 1); }

// A latency that can sit on a log axis: a finite positive number.
std::optional<double> positive(std::optional<double> x) {
  if (!x || !std::isfinite(*x) || *x <= 0) return std::nullopt;
  return x;
}

// A marker of `st` centred at (x, y), with classes `cls` and a hover title.
std::string marker(const Style &st, const std::string &cls, double x, double y, const std::string &title,
                   double scale = 1.0) {
  const double r = st.size * scale;
  std::string attrs = " class=\"" + cls + "\" stroke=\"" + st.stroke + "\" fill=\"" + st.fill + "\" stroke-width=\"" +
                      (std::string(st.fill) == "none" ? "1.8" : "1.2") + "\"";
  std::string shape(st.shape), body;
  auto pts = [&](std::initializer_list<std::pair<double, double>> p) {
    std::string s;
    for (auto [dx, dy] : p) {
      if (!s.empty()) s += ' ';
      s += num(x + dx * r);
      s += ',';
      s += num(y + dy * r);
    }
    return s;
  };
  if (shape == "square") {
    body = "<rect x=\"" + num(x - r) + "\" y=\"" + num(y - r) + "\" width=\"" + num(2 * r) + "\" height=\"" +
           num(2 * r) + "\"" + attrs + ">";
    return body + "<title>" + xml_escape(title) + "</title></rect>\n";
  }
  if (shape == "circle") {
    body = "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\"" + attrs + ">";
    return body + "<title>" + xml_escape(title) + "</title></circle>\n";
  }
  std::string points;
  if (shape == "diamond") points = pts({{0, -1}, {1, 0}, {0, 1}, {-1, 0}});
  if (shape == "up") points = pts({{0, -1}, {0.95, 0.75}, {-0.95, 0.75}});
  if (shape == "down") points = pts({{0, 1}, {0.95, -0.75}, {-0.95, -0.75}});
  if (shape == "left") points = pts({{-1, 0}, {0.75, -0.95}, {0.75, 0.95}});
  if (shape == "right") points = pts({{1, 0}, {-0.75, -0.95}, {-0.75, 0.95}});
  if (shape == "star")
    points = pts({{0, -1},
                  {0.24, -0.33},
                  {0.95, -0.31},
                  {0.38, 0.12},
                  {0.59, 0.81},
                  {0, 0.4},
                  {-0.59, 0.81},
                  {-0.38, 0.12},
                  {-0.95, -0.31},
                  {-0.24, -0.33}});
  if (shape == "plus") {
    std::string d = "M" + num(x - r) + "," + num(y) + " L" + num(x + r) + "," + num(y) + " M" + num(x) + "," +
                    num(y - r) + " L" + num(x) + "," + num(y + r);
    return "<path d=\"" + d + "\"" + attrs + " stroke-linecap=\"round\"><title>" + xml_escape(title) +
           "</title></path>\n";
  }
  if (shape == "cross") {
    std::string d = "M" + num(x - r) + "," + num(y - r) + " L" + num(x + r) + "," + num(y + r) + " M" + num(x + r) +
                    "," + num(y - r) + " L" + num(x - r) + "," + num(y + r);
    return "<path d=\"" + d + "\"" + attrs + " stroke-linecap=\"round\"><title>" + xml_escape(title) +
           "</title></path>\n";
  }
  return "<polygon points=\"" + points + "\"" + attrs + "><title>" + xml_escape(title) + "</title></polygon>\n";
}

// Tick values of a log axis over [lo, hi]: 1-2-5 per decade, or every
// mantissa when that gives fewer than three.
std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> out;
  for (const auto &mantissas : {std::vector<int>{1, 2, 5}, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    out.clear();
    for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= static_cast<int>(std::ceil(std::log10(hi))); ++e)
      for (int m : mantissas) {
        double v = m * std::pow(10.0, e);
        if (v >= lo && v <= hi) out.push_back(v);
      }
    if (out.size() >= 3) break;
  }
  return out;
}

std::string tick_label(double v) {
  if (v >= 1) return fixed(v, 0);
  if (v >= 0.1) return fixed(v, 1);
  if (v >= 0.01) return fixed(v, 2);
  return fixed(v, 3);
}

std::string describe(const json::Value &row, const LadderVerdict &verdict, const MarkCategory &cat) {
  std::string t = row.string_or("version") + ": " + cat.label;
  if (auto geo = ladder::usable_geomean(row))
    t += ", " + fixed(*geo, 2) + " us";
  else
    t += ", no measurement";
  if (verdict.improve_pct)
    t += "; " + fixed(*verdict.improve_pct, 2) + "% vs best-so-far " + fixed(verdict.best_before_us.value_or(0), 2) +
         " us (" + verdict.best_before_version.value_or("") + ")";
  if (verdict.reason && verdict.selection != "rejected") t += "; " + *verdict.reason;
  if (const auto *s = row.get("subject").as_string()) t += "\n" + *s;
  return t;
}

} // namespace

MarkCategory mark_category(const LadderVerdict &verdict) {
  const std::string &sel = verdict.selection;
  if (sel == "baseline" || sel == "milestone" || sel == "mega" || sel == "final" || sel == "deadend")
    return {sel, sel == "deadend" ? "dead-end (reverted, mined)" : sel};
  std::string group = ladder::reason_group(verdict.reason.value_or(""));
  if (group.empty()) group = "no reason given";
  // Every reason keeps its own key, legend entry and look (styles()).
  std::string key = group.rfind("under ", 0) == 0 ? "rejected-under-threshold" : "rejected-" + slug(group);
  return {key, "rejected: " + group};
}

namespace {

// The look of every category a picture draws: styles(), and for a reason
// without a style of its own a circle in a colour of its own, taken from
// kOtherColours in the order such reasons first appear.
class PictureStyles {
public:
  explicit PictureStyles(const std::vector<LadderVerdict> &verdicts) {
    for (const auto &v : verdicts) {
      std::string key = mark_category(v).key;
      if (categories_.insert(key).second && !styles().count(key)) {
        const char *colour = kOtherColours[other_.size() % std::size(kOtherColours)];
        other_.emplace(key, Style{"circle", colour, "none", 4.5});
      }
    }
  }
  const Style &of(const std::string &key) const {
    auto it = styles().find(key);
    return it != styles().end() ? it->second : other_.at(key);
  }
  std::size_t category_count() const { return categories_.size(); }

private:
  std::set<std::string> categories_;
  std::map<std::string, Style> other_;
};

// Where things go: the plot as wide as the versions need (within bounds),
// the no-measurement band below it, the legend to its right.
struct Frame {
  std::size_t n = 0; // versions
  double step = 0;   // between two versions
  double plot_w = 0; // the plot's width
  double band_y = 0; // the no-measurement band's top
  double width = 0;  // the picture's
  double height = 0; // the picture's
  double mark_scale = 1;
  double x_of(std::size_t i) const { return kLeft + step * (static_cast<double>(i) + 0.5); }
  double legend_x() const { return kLeft + plot_w + 24; }
};

Frame frame_for(std::size_t n, std::size_t categories) {
  Frame f;
  f.n = n;
  const double pitch = n ? std::clamp(kMinPlotWidth / static_cast<double>(n), kMinPitch, kMaxPitch) : kMaxPitch;
  f.plot_w = std::clamp(pitch * static_cast<double>(std::max<std::size_t>(n, 1)), kMinPlotWidth, kMaxPlotWidth);
  f.step = n ? f.plot_w / static_cast<double>(n) : f.plot_w;
  f.band_y = kTop + kPlotHeight + kBandGap;
  f.width = kLeft + f.plot_w + 24 + kLegendWidth;
  // Tall enough for the legend: a line per category drawn, plus two.
  f.height = std::max(f.band_y + kBandHeight + kBottom, kTop + 28 + 19.0 * (categories + 2) + 12);
  // Markers shrink on a crowded axis so neighbours and the ratchet stay visible.
  f.mark_scale = std::clamp(f.step / 14.0, 0.55, 1.0);
  return f;
}

// The log latency axis: every usable geomean and ratchet floor, with a
// margin of a quarter either way; none when no row has a latency.
struct LatencyAxis {
  bool any = false;
  double lo = 0, hi = 0;
  double llo = 0, lhi = 1; // their log10
  double y_of(double v) const { return kTop + kPlotHeight * (lhi - std::log10(v)) / (lhi - llo); }
};

LatencyAxis latency_axis(const std::vector<json::Value> &rows, const std::vector<LadderVerdict> &verdicts) {
  LatencyAxis a;
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (auto g : {ladder::usable_geomean(rows[i]), positive(verdicts[i].best_after_us)})
      if (g) {
        a.lo = a.any ? std::min(a.lo, *g) : *g;
        a.hi = a.any ? std::max(a.hi, *g) : *g;
        a.any = true;
      }
  if (a.any) a.lo /= 1.25, a.hi *= 1.25;
  a.llo = a.any ? std::log10(a.lo) : 0;
  a.lhi = a.any ? std::log10(a.hi) : 1;
  return a;
}

// The opening: the <svg> element, its title, the background and the heading.
std::string svg_head(const LadderPicture &pic, const Frame &f) {
  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(f.width) + "\" height=\"" +
       num(f.height) + "\" viewBox=\"0 0 " + num(f.width) + " " + num(f.height) +
       "\" font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"12\" role=\"img\">\n";
  std::string title = "Ladder of " + (pic.title.empty() ? std::string("the trace") : pic.title);
  s += "<title>" + xml_escape(title) + ": geomean latency per version</title>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + num(kLeft) + "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" + xml_escape(title) +
       "</text>\n";
  s += "<text x=\"" + num(kLeft) +
       "\" y=\"42\" fill=\"#444444\">geomean latency per version (log scale); a milestone "
       "beats the best-so-far by at least " +
       fixed(pic.thresholds.milestone_pct, 1) + "%, a mega by " + fixed(pic.thresholds.mega_pct, 1) + "%</text>\n";
  return s;
}

// The plot's frame, a grid line and label per tick of the latency axis, and
// the axis title (or why there is no axis).
std::string axes(const Frame &f, const LatencyAxis &axis) {
  std::string s;
  s += "<g class=\"axes\" stroke=\"#cccccc\" stroke-width=\"1\">\n";
  s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(f.plot_w) + "\" height=\"" +
       num(kPlotHeight) + "\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n";
  std::string tick_text;
  if (axis.any)
    for (double v : log_ticks(axis.lo, axis.hi)) {
      double y = axis.y_of(v);
      s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y) + "\" x2=\"" + num(kLeft + f.plot_w) + "\" y2=\"" + num(y) +
           "\"/>\n";
      tick_text += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + 4) + "\" text-anchor=\"end\">" + tick_label(v) +
                   "</text>\n";
    }
  s += "</g>\n";
  s += "<g class=\"ticks\" fill=\"#333333\">\n" + tick_text + "</g>\n";
  s += "<text transform=\"translate(20," + num(kTop + kPlotHeight / 2) +
       ") rotate(-90)\" text-anchor=\"middle\" fill=\"#333333\">geomean latency (us, log)</text>\n";
  if (!axis.any)
    s += "<text x=\"" + num(kLeft + f.plot_w / 2) + "\" y=\"" + num(kTop + kPlotHeight / 2) +
         "\" text-anchor=\"middle\" fill=\"#a01c1c\">no version has a usable geomean</text>\n";
  return s;
}

// The band below the plot where versions without a measurement sit.
std::string no_measurement_band(const Frame &f) {
  std::string s;
  s += "<rect class=\"no-measurement-band\" x=\"" + num(kLeft) + "\" y=\"" + num(f.band_y) + "\" width=\"" +
       num(f.plot_w) + "\" height=\"" + num(kBandHeight) + "\" fill=\"#f3f3f3\" stroke=\"#bbbbbb\" " +
       "stroke-dasharray=\"4,3\"/>\n";
  s += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(f.band_y + kBandHeight / 2 + 4) +
       "\" text-anchor=\"end\" fill=\"#555555\" font-size=\"10\">no meas.</text>\n";
  return s;
}

// The version axis: every k-th version's name, so they stay at least 30
// units apart (and the last), and the axis title.
std::string version_labels(const std::vector<json::Value> &rows, const Frame &f) {
  const std::size_t every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(30.0 / f.step)));
  std::string s = "<g class=\"versions\" fill=\"#333333\" font-size=\"10\">\n";
  for (std::size_t i = 0; i < f.n; ++i) {
    if (i % every != 0 && i + 1 != f.n) continue;
    double x = f.x_of(i), y = f.band_y + kBandHeight + 14;
    s += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"end\" transform=\"rotate(-40 " + num(x) + " " +
         num(y) + ")\">" + xml_escape(rows[i].string_or("version")) + "</text>\n";
  }
  s += "</g>\n";
  s += "<text x=\"" + num(kLeft + f.plot_w / 2) + "\" y=\"" + num(f.height - 8) +
       "\" text-anchor=\"middle\" fill=\"#333333\">version, in trace order</text>\n";
  return s;
}

// The ratchet: the floor after each row, as a step line ("" when no row has one).
std::string ratchet_line(const std::vector<LadderVerdict> &verdicts, const Frame &f, const LatencyAxis &axis) {
  std::string path;
  std::optional<double> floor;
  for (std::size_t i = 0; i < f.n; ++i) {
    auto after = positive(verdicts[i].best_after_us);
    if (!after) continue;
    double x = f.x_of(i);
    if (!floor)
      path += "M" + num(x) + "," + num(axis.y_of(*after));
    else if (*after != *floor)
      path += " H" + num(x) + " V" + num(axis.y_of(*after));
    floor = after;
  }
  if (floor) path += " H" + num(kLeft + f.plot_w);
  if (path.empty()) return "";
  return "<path class=\"ratchet\" d=\"" + path +
         "\" fill=\"none\" stroke=\"#1b7f3b\" stroke-width=\"2\" stroke-opacity=\"0.55\"/>\n";
}

// What a mega or final version says beside its marker: its gain, or the
// final latency; "" for any other version.
std::string mark_label(const LadderVerdict &verdict, std::optional<double> geo, double x, double y,
                       const PictureStyles &styles) {
  const std::string &sel = verdict.selection;
  if (!geo || (sel != "mega" && sel != "final")) return "";
  std::string text =
      sel == "final" ? "final " + fixed(*geo, 1) + " us" : "-" + fixed(verdict.improve_pct.value_or(0), 1) + "%";
  return "<text x=\"" + num(x + 9) + "\" y=\"" + num(y - 9) + "\" fill=\"" + styles.of(sel).stroke +
         "\" font-size=\"11\" font-weight=\"bold\">" + xml_escape(text) + "</text>\n";
}

// Every version's marker (on the latency axis, or on the band without a
// measurement) and its label, with what the legend counts.
struct Marks {
  std::string svg;
  std::vector<std::pair<MarkCategory, std::size_t>> seen; // each category drawn, in first-seen order, and its count
  std::size_t unmeasured = 0;
};

Marks draw_marks(const std::vector<json::Value> &rows, const std::vector<LadderVerdict> &verdicts, const Frame &f,
                 const LatencyAxis &axis, const PictureStyles &styles) {
  Marks m;
  m.svg = "<g class=\"marks\">\n";
  std::string labels;
  for (std::size_t i = 0; i < f.n; ++i) {
    const auto &row = rows[i];
    MarkCategory cat = mark_category(verdicts[i]);
    auto it = std::find_if(m.seen.begin(), m.seen.end(), [&](const auto &p) { return p.first.key == cat.key; });
    if (it == m.seen.end())
      m.seen.emplace_back(cat, 1);
    else
      ++it->second;
    auto geo = ladder::usable_geomean(row);
    double x = f.x_of(i);
    double y = geo ? axis.y_of(*geo) : f.band_y + kBandHeight / 2;
    if (!geo) ++m.unmeasured;
    m.svg += marker(styles.of(cat.key), "mark " + cat.key + (geo ? "" : " unmeasured"), x, y,
                    describe(row, verdicts[i], cat), f.mark_scale);
    labels += mark_label(verdicts[i], geo, x, y, styles);
  }
  m.svg += "</g>\n<g class=\"labels\">\n" + labels + "</g>\n";
  return m;
}

// The legend: the categories drawn in a fixed order (the selections first,
// then the rejections as first seen), each with its count, then the ratchet
// line and the band.
std::string legend(const Marks &marks, const Frame &f, const PictureStyles &styles) {
  std::vector<std::string> order = {"baseline", "milestone", "mega", "final", "deadend"};
  auto seen = marks.seen;
  std::stable_sort(seen.begin(), seen.end(), [&](const auto &a, const auto &b) {
    auto rank = [&](const std::string &k) {
      auto it = std::find(order.begin(), order.end(), k);
      return static_cast<std::size_t>(it - order.begin());
    };
    return rank(a.first.key) < rank(b.first.key);
  });
  const double lx = f.legend_x();
  double ly = kTop + 8;
  std::string s = "<g class=\"legend\">\n<text x=\"" + num(lx) + "\" y=\"" + num(ly) +
                  "\" font-weight=\"bold\">How the ladder judged each version</text>\n";
  ly += 20;
  for (const auto &[cat, count] : seen) {
    s += marker(styles.of(cat.key), "legend-mark " + cat.key, lx + 8, ly - 4, cat.label);
    s += "<text x=\"" + num(lx + 22) + "\" y=\"" + num(ly) + "\">" + xml_escape(cat.label) + " (" +
         std::to_string(count) + ")</text>\n";
    ly += 19;
  }
  s += "<path d=\"M" + num(lx) + "," + num(ly - 4) + " H" + num(lx + 16) +
       "\" stroke=\"#1b7f3b\" stroke-width=\"2\" stroke-opacity=\"0.55\"/>\n";
  s += "<text x=\"" + num(lx + 22) + "\" y=\"" + num(ly) + "\">best-so-far (the ratchet)</text>\n";
  ly += 19;
  s += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 11) +
       "\" width=\"16\" height=\"10\" fill=\"#f3f3f3\" stroke=\"#bbbbbb\" stroke-dasharray=\"3,2\"/>\n";
  s += "<text x=\"" + num(lx + 22) + "\" y=\"" + num(ly) + "\">no measurement (" + std::to_string(marks.unmeasured) +
       "): not drawn as zero</text>\n";
  s += "</g>\n";
  return s;
}

} // namespace

std::string ladder_svg(const LadderPicture &pic) {
  const auto verdicts = workspace::read_ladder_verdicts(pic.rows, "the ladder's rows");
  const PictureStyles styles(verdicts);
  const Frame frame = frame_for(pic.rows.size(), styles.category_count());
  const LatencyAxis axis = latency_axis(pic.rows, verdicts);
  const Marks marks = draw_marks(pic.rows, verdicts, frame, axis, styles);
  return svg_head(pic, frame) + axes(frame, axis) + no_measurement_band(frame) + version_labels(pic.rows, frame) +
         ratchet_line(verdicts, frame, axis) + marks.svg + legend(marks, frame, styles) + "</svg>\n";
}

} // namespace otm::report
