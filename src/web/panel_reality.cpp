// [SECTION] The reality check: a shipped profile's measured time of one op
// against the token count (log axes) beside the roofline's and the calibrated
// model's, their ratio to the measurement below, what the profile shows the
// roofline leaves out, and published end-to-end speeds beside our model's.
#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/demos/demos.h"
#include "core/presets.h"
#include "core/report_json.h"
#include "core/units.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/log_plot.h"
#include "web/panels.h"
#include "web/platform.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr ImGuiID kTimeChart = 0x6A7A0005u, kRatioChart = 0x6A7A0006u;
constexpr ImU32 kRooflineColor = IM_COL32(52, 101, 164, 255), kCalibratedColor = IM_COL32(46, 139, 87, 255);

// One op of one profile, by token count.
struct Series {
  std::vector<const OpValidation*> rows;
  bool calibrated = false;
};

Series series_of(const RealityProfile& p, ProfiledOp op) {
  Series s;
  for (const OpValidation& row : p.validation.rows)
    if (row.op == op && row.measured_us > 0) s.rows.push_back(&row);
  std::sort(s.rows.begin(), s.rows.end(), [](auto* a, auto* b) { return a->num_tokens < b->num_tokens; });
  s.calibrated = !s.rows.empty() && s.rows.front()->calibrated_us.has_value();
  return s;
}

// "H100 SXM · meta-llama/Llama-2-7b-hf"
std::string profile_label(const RealityProfile& p) {
  const HardwarePreset* h = find_hardware(p.shipped->profile.config.hardware_key);
  return (h ? std::string(h->name) : p.shipped->profile.gpu) + " · " + p.shipped->profile.model;
}

std::string series_csv(const RealityProfile& p, const Series& s) {
  std::string out = CsvRow({"gpu", "model", "op", "num_tokens", "measured_us", "roofline_us", "calibrated_us"});
  for (const OpValidation* r : s.rows)
    out += CsvRow({p.shipped->profile.gpu, p.shipped->profile.model, std::string(profiled_op_name(r->op)),
                   std::to_string(r->num_tokens), fmt_exact(r->measured_us), fmt_exact(r->roofline_us),
                   r->calibrated_us ? fmt_exact(*r->calibrated_us) : ""});
  return out;
}

// A line of the chart: y for each row (<= 0: no point there).
struct Line {
  ImU32 color;
  float width;
  std::vector<double> y;
};

// A log-log chart of `lines` against the rows' token counts; `reference`
// (> 0) draws a horizontal line there. Returns the row nearest the mouse.
int draw_lines(ImGuiID id, const char* widget, const Series& s, const std::vector<Line>& lines, float height,
               const char* y_label, std::string (*tick)(double), double reference, Lang lang) {
  double lo = INFINITY, hi = 0;
  for (const Line& l : lines)
    for (double v : l.y)
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  if (reference > 0) lo = std::min(lo, reference), hi = std::max(hi, reference);
  if (!(hi > 0)) lo = hi = 1;
  const double x0 = std::log10(static_cast<double>(s.rows.front()->num_tokens));
  const double x1 = std::max(x0 + 1e-9, std::log10(static_cast<double>(s.rows.back()->num_tokens)));
  int y0 = static_cast<int>(std::floor(std::log10(lo))), y1 = static_cast<int>(std::ceil(std::log10(hi)));
  if (y1 <= y0) y1 = y0 + 1;

  const float line = ImGui::GetTextLineHeight();
  const ImVec2 size(std::max(ImGui::GetContentRegionAvail().x, 200.0f), height);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(widget, size);
  RecordWidget(widget);
  const bool hovered = ImGui::IsItemHovered();
  const float left = ImGui::CalcTextSize("100 ms").x + 10, bottom = line + 8, top = line + 4, right = 12;
  const LogPlot plot{left, top, size.x - left - right, size.y - top - bottom, x0, x1, static_cast<double>(y0), static_cast<double>(y1)};
  const float pw = plot.width, ph = plot.height;
  auto X = [&](double v) { return plot.X(v); };
  auto Y = [&](double v) { return plot.Y(v); };
  const float px = ImGui::GetIO().DisplayFramebufferScale.x;
  std::vector<Quad> quads;
  std::vector<Segment> segs;
  plot.AddGrid(quads, px);
  if (reference > 0)
    segs.push_back({left * px, Y(reference) * px, (left + pw) * px, Y(reference) * px, kChartReference, 1.5f * px});
  for (const Line& l : lines)
    for (size_t i = 1; i < s.rows.size(); ++i)
      if (l.y[i - 1] > 0 && l.y[i] > 0)
        segs.push_back({X(static_cast<double>(s.rows[i - 1]->num_tokens)) * px, Y(l.y[i - 1]) * px,
                        X(static_cast<double>(s.rows[i]->num_tokens)) * px, Y(l.y[i]) * px, l.color, l.width * px});
  int hover = -1;
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x - origin.x;
    float best = 1e9f;
    for (size_t i = 0; i < s.rows.size(); ++i)
      if (const float d = std::abs(X(static_cast<double>(s.rows[i]->num_tokens)) - mx); d < best) best = d, hover = static_cast<int>(i);
    const float x = X(static_cast<double>(s.rows[static_cast<size_t>(hover)]->num_tokens)) * px;
    segs.push_back({x, top * px, x, (top + ph) * px, Colors().chart_axis, 1 * px});
  }
  const ImTextureID tex = Charts().Render(id, static_cast<int>(std::lround(size.x * px)), static_cast<int>(std::lround(size.y * px)),
                                          Colors().chart_background, quads, segs);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddImage(tex, origin, ImVec2(origin.x + size.x, origin.y + size.y));
  const ImU32 muted = ImGui::ColorConvertFloat4ToU32(Colors().muted_text);
  auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  for (int d = plot.first_x_decade(); d <= plot.last_x_decade(); ++d) {
    const std::string t = fmt_decade(d);
    const float w = ImGui::CalcTextSize(t.c_str()).x;
    draw->AddText(at(std::clamp(X(std::pow(10.0, d)) - w / 2, 0.0f, size.x - w), top + ph + 3), muted, t.c_str());
  }
  for (int d = y0; d <= y1; ++d) {
    const std::string t = tick(std::pow(10.0, d));
    draw->AddText(at(left - ImGui::CalcTextSize(t.c_str()).x - 5, Y(std::pow(10.0, d)) - line / 2), muted, t.c_str());
  }
  draw->AddText(at(left + 4, 0), muted, y_label);
  const char* x_label = Tx(Ui::RealityTokens, lang);
  draw->AddText(at(left + pw - ImGui::CalcTextSize(x_label).x, top + ph - line - 2), muted, x_label);
  return hover;
}

// "1 µs", not "1.00 µs"; "10×".
std::string time_tick(double us) { return DecadeTick(fmt_time(us * 1e-6)); }
std::string ratio_tick(double r) { return fmt_decade(static_cast<int>(std::lround(std::log10(r)))) + "×"; }

void draw_legend(bool calibrated, Lang lang) {
  const float h = ImGui::GetTextLineHeight();
  auto key = [&](ImU32 color, Ui label, bool first) {
    const float w = h * 1.4f + ImGui::CalcTextSize(Tx(label, lang)).x;
    if (!first) SameLineIfRoom(w, h);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + h * 0.35f), ImVec2(p.x + h * 1.2f, p.y + h * 0.65f), color);
    ImGui::Dummy(ImVec2(h * 1.4f, h));
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(Tx(label, lang));
  };
  key(Colors().ink, Ui::RealityMeasured, true);
  key(kRooflineColor, Ui::RealityRoofline, false);
  if (calibrated) key(kCalibratedColor, Ui::RealityCalibrated, false);
  key(kChartReference, Ui::RealityExact, false);
}

void row_tooltip(const OpValidation& r, Lang lang) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(tr(Ui::RealityTip, lang, {demos::token_count(r.num_tokens, lang), fmt_time(r.measured_us * 1e-6)}).c_str());
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kRooflineColor), "%s",
                     tr(Ui::RealityTipModel, lang, {Tx(Ui::RealityRoofline, lang), fmt_time(r.roofline_us * 1e-6),
                                                        fmt_ratio(r.roofline_us / r.measured_us)}).c_str());
  if (r.calibrated_us)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kCalibratedColor), "%s",
                       tr(Ui::RealityTipModel, lang, {Tx(Ui::RealityCalibrated, lang), fmt_time(*r.calibrated_us * 1e-6),
                                                          fmt_ratio(*r.calibrated_us / r.measured_us)}).c_str());
  ImGui::EndTooltip();
}

void draw_choosers(const RealityReport& r, ExplainState& e, Lang lang) {
  const size_t chosen = RealityProfileIndex(e);
  for (size_t i = 0; i < r.profiles.size(); ++i) {
    const std::string label = profile_label(r.profiles[i]) + "##reality." + RealityProfileKey(i);
    if (i > 0) SameLineIfRoom(ToggleWidth(label.c_str()));
    if (ImGui::RadioButton(label.c_str(), i == chosen)) e.reality_profile = static_cast<int>(i);
    RecordWidget("reality.profile." + RealityProfileKey(i));
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tx(Ui::RealityOp, lang));
  ImGui::SameLine();
  const std::string current(profiled_op_name(RealityOp(e)));
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("post_attention_layernorm").x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("##reality.op", current.c_str())) {
    for (size_t i = 0; i < std::size(kProfiledOps); ++i)
      if (ImGui::Selectable(std::string(profiled_op_name(kProfiledOps[i])).c_str(), kProfiledOps[i] == RealityOp(e)))
        e.reality_op = static_cast<int>(i);
    ImGui::EndCombo();
  } else {
    const int i = static_cast<int>(std::find(std::begin(kProfiledOps), std::end(kProfiledOps), RealityOp(e)) - std::begin(kProfiledOps));
    if (const int next = Stepped(i, ComboWheelStep(), static_cast<int>(std::size(kProfiledOps))); next != i) e.reality_op = next;
  }
  RecordWidget("combo.reality_op");
}

void bullets(const std::vector<Observation>& obs) {
  for (const Observation& o : obs) WrappedBullet(o.text);
}

}  // namespace

const RealityReport& ShownReality(State& state) {
  std::optional<RealityReport>& cached = state.caches.reality;
  if (!cached || state.caches.reality_lang != state.settings.lang) {
    cached = reality_report(state.settings.lang);
    state.caches.reality_lang = state.settings.lang;
  }
  return *cached;
}

void DrawRealityPanel(State& state) {
  const Lang lang = state.settings.lang;
  ExplainState& e = state.explain;
  if (!EmbedLayout()) ImGui::TextWrapped("%s", Tx(Ui::RealityIntro, lang));  // an embed: under "More"
  const RealityReport& r = ShownReality(state);
  if (r.profiles.empty()) return;
  draw_choosers(r, e, lang);
  const RealityProfile& p = r.profiles[RealityProfileIndex(e)];
  const Series s = series_of(p, RealityOp(e));
  if (s.rows.empty()) return;
  DrawExportRow("reality_export", [&] { return series_csv(p, s); }, "reality.figure", JsonOf(r),
                "fusionlab-reality", lang);

  // Two charts share what is left above the legend and the findings (in an embed: behind "More").
  const ImGuiStyle& style = ImGui::GetStyle();
  const float below = ImGui::GetTextLineHeightWithSpacing() * 2 + style.ItemSpacing.y * 2 + DetailsHeight();
  const float both = FitHeight(std::clamp(ImGui::GetContentRegionAvail().y * 0.7f, 260.0f, 600.0f), 160, below);
  std::vector<Line> times{{Colors().ink, 3, {}}, {kRooflineColor, 2, {}}, {kCalibratedColor, 2, {}}};
  std::vector<Line> ratios{{kRooflineColor, 2, {}}, {kCalibratedColor, 2, {}}};
  for (const OpValidation* row : s.rows) {
    times[0].y.push_back(row->measured_us);
    times[1].y.push_back(row->roofline_us);
    times[2].y.push_back(row->calibrated_us.value_or(0));
    ratios[0].y.push_back(row->roofline_us / row->measured_us);
    ratios[1].y.push_back(row->calibrated_us ? *row->calibrated_us / row->measured_us : 0);
  }
  ImGui::BeginGroup();  // the exported figure: both charts and the legend
  int hover = draw_lines(kTimeChart, "reality.time", s, times, both * 0.62f, Tx(Ui::RealityTime, lang), time_tick, 0, lang);
  const int hover_ratio =
      draw_lines(kRatioChart, "reality.ratio", s, ratios, both * 0.38f, Tx(Ui::RealityRatio, lang), ratio_tick, 1, lang);
  if (hover < 0) hover = hover_ratio;
  draw_legend(s.calibrated, lang);
  ImGui::EndGroup();
  RecordFigure("reality.figure");
  if (hover >= 0) row_tooltip(*s.rows[static_cast<size_t>(hover)], lang);
  RecordShown("reality_points", static_cast<double>(s.rows.size()));
  RecordShown("reality_findings", static_cast<double>(p.findings.size()));

  if (!BeginDetails(lang)) return;
  if (EmbedLayout()) ImGui::TextWrapped("%s", Tx(Ui::RealityIntro, lang));
  SectionHeading(Tx(Ui::Observations, lang));
  bullets(p.findings);
  SectionHeading(Tx(Ui::RealityEndToEnd, lang));
  std::vector<Observation> speeds;
  for (const EndToEndCheck& c : r.end_to_end) speeds.push_back(c.finding);
  bullets(speeds);
}

}  // namespace fl::web
