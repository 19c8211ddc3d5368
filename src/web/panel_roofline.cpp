// [SECTION] The roofline: every kernel of a partition at (FLOPs per HBM byte,
// attained FLOP/s), under the hardware's roofs (matmul peak, other-ops peak,
// bandwidth slope); prefill and decode move the points across the ridge.
// A toggle draws, for a fused partition, an arrow from every op run alone
// (fusion off) to the fused kernel that absorbed it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_set>

#include "core/report_json.h"
#include "core/units.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/log_plot.h"
#include "web/panels.h"
#include "page/roofline_arrows.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr ImGuiID kRooflineChart = 0x6A7A0002u;

// A roof: a peak rate, reached right of the ridge; bandwidth × intensity left of it.
struct Roof {
  double peak, bandwidth;  // FLOP/s, bytes/s
  double ridge() const { return peak / bandwidth; }
};

}  // namespace

std::string PartitionCsv(const PartitionReport& p) {
  std::string out = CsvRow({"index", "kind", "label", "reads_bytes", "writes_bytes", "flops", "t_seconds", "intensity", "attained_flops_per_s"});
  for (const KernelReport& k : p.kernels) {
    const double bytes = static_cast<double>(k.reads + k.writes);
    out += CsvRow({std::to_string(k.index), std::string(kernel_kind_name(k.kind)), k.label, fmt_exact(k.reads), fmt_exact(k.writes), fmt_exact(k.flops),
                   fmt_exact(k.t), fmt_exact(bytes > 0 ? k.flops / bytes : 0), fmt_exact(k.t > 0 ? k.flops / k.t : 0)});
  }
  return out;
}

// Phase and partition choosers shared by the roofline and the timeline.
const PhaseReport& DrawPhaseChooser(State& state) {
  const Lang lang = state.settings.lang;
  ExplainState& e = state.explain;
  bool decode = ExplainDecode(state.settings, state.explain);
  if (ImGui::RadioButton(Tx(Ui::TabPrefill, lang), !decode)) e.phase = 0;
  RecordWidget("phase.prefill");
  ImGui::SameLine();
  if (ImGui::RadioButton(Tx(Ui::TabDecode, lang), decode)) e.phase = 1;
  RecordWidget("phase.decode");
  decode = ExplainDecode(state.settings, state.explain);
  EnsurePhaseReports(state, decode);
  const PhaseReport& ph = decode ? state.results.decode : state.results.prefill;
  int& part = state.settings.partition;
  if (ph.partitions.empty()) return ph;
  part = std::clamp(part, 0, static_cast<int>(ph.partitions.size()) - 1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(260.0f, ImGui::GetContentRegionAvail().x));
  if (ImGui::BeginCombo("##partition", ph.partitions[static_cast<size_t>(part)].name.c_str())) {
    for (size_t i = 0; i < ph.partitions.size(); ++i)
      if (ImGui::Selectable(ph.partitions[i].name.c_str(), static_cast<int>(i) == part)) {
        part = static_cast<int>(i);
        state.settings.kernel = -1;
      }
    ImGui::EndCombo();
  } else if (const int next = Stepped(part, ComboWheelStep(), static_cast<int>(ph.partitions.size())); next != part) {
    part = next;
    state.settings.kernel = -1;
  }
  RecordWidget("partition");
  return ph;
}

void DrawRooflinePanel(State& state) {
  const Lang lang = state.settings.lang;
  ImGui::TextWrapped("%s", Tx(Ui::RooflineIntro, lang));
  const PhaseReport& ph = DrawPhaseChooser(state);
  if (ph.partitions.empty()) return;
  const PartitionReport& p = ph.partitions[static_cast<size_t>(state.settings.partition)];
  const Hardware& hw = ph.config.hw;
  int& selected = state.settings.kernel;
  if (selected >= static_cast<int>(p.kernels.size())) selected = -1;
  ExplainState& e = state.explain;
  SameLineIfRoom(ToggleWidth(Tx(Ui::RooflineArrows, lang)));
  ImGui::Checkbox(Tx(Ui::RooflineArrows, lang), &e.arrows);
  RecordWidget("roofline.arrows");
  static const RooflineArrows kNoArrows;
  const RooflineArrows& arrows =
      e.arrows ? ArrowsFor(state, ExplainDecode(state.settings, state.explain), state.settings.partition) : kNoArrows;

  DrawExportRow("roofline_export", [&] { return PartitionCsv(p); }, "roofline.figure", JsonOf(ph), "fusionlab-roofline", lang);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeight();
  // Under the chart: the roofs' line, the legend and, with arrows, their note (two lines).
  const float below = ImGui::GetTextLineHeightWithSpacing() * (e.arrows ? 4.0f : 2.0f) + ImGui::GetStyle().ItemSpacing.y * 2;
  const ImVec2 size(std::max(avail.x, 200.0f), FitHeight(std::clamp(avail.y - line * 2.6f, 180.0f, 520.0f), 120, below));

  // The roofs the cost model reaches: the peaks (the roofline), or under the
  // calibrated model the fitted fractions of them, a GEMM's traffic and
  // every other kernel's each at its own bandwidth.
  const Achieved& reached = hw.achieved;
  const bool calibrated = cost_model_of(hw) == CostModel::Calibrated;
  const Roof matmul_roof{hw.matmul_flops * reached.matmul, hw.bandwidth * reached.matmul_bandwidth};
  const Roof other_roof{hw.other_flops * reached.vector, hw.bandwidth * reached.bandwidth};
  // Axes (log10): the points, both ridges, both peaks, with a margin.
  double ix0 = std::log10(std::min(other_roof.ridge(), hw.other_flops / hw.bandwidth));
  double ix1 = std::log10(std::max(matmul_roof.ridge(), hw.matmul_flops / hw.bandwidth));
  double iy0 = std::log10(other_roof.peak), iy1 = std::log10(hw.matmul_flops);
  double tmax = 0;
  auto plotted = [](double flops, double bytes, double t) { return flops > 0 && bytes > 0 && t > 0; };
  auto extend = [&](double flops, double bytes, double t) {
    if (!plotted(flops, bytes, t)) return;
    ix0 = std::min(ix0, std::log10(flops / bytes));
    ix1 = std::max(ix1, std::log10(flops / bytes));
    iy0 = std::min(iy0, std::log10(flops / t));
  };
  for (const KernelReport& k : p.kernels) {
    extend(k.flops, k.reads + k.writes, k.t);
    if (plotted(k.flops, k.reads + k.writes, k.t)) tmax = std::max(tmax, k.t);
  }
  for (const ArrowSource& a : arrows.sources) extend(a.flops, a.bytes, a.t);
  ix0 = std::floor(ix0 - 0.3), ix1 = std::ceil(ix1 + 0.3), iy0 = std::floor(iy0 - 0.3), iy1 = std::ceil(iy1 + 0.3);

  ImGui::BeginGroup();  // the exported figure: chart, roofs, legend
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("roofline", size);
  RecordWidget("roofline");
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  const float left = ImGui::CalcTextSize("100T").x + 10, bottom = line + 8, top = 8, right = 12;
  const LogPlot plot{left, top, size.x - left - right, size.y - top - bottom, ix0, ix1, iy0, iy1};
  const float pw = plot.width, phh = plot.height;
  auto X = [&](double v) { return plot.X(v); };
  auto Y = [&](double v) { return plot.Y(v); };
  const float s = ImGui::GetIO().DisplayFramebufferScale.x;
  std::vector<Quad> quads;
  std::vector<Segment> segs;
  plot.AddGrid(quads, s);
  // Roofs: min(peak, I × bandwidth); under the calibrated model the GPU's peaks thin and grey beneath.
  const double xlo = std::pow(10.0, ix0), xhi = std::pow(10.0, ix1);
  auto roof = [&](const Roof& r, ImU32 color, float width, bool ridge_line) {
    double x0 = std::max(xlo, std::pow(10.0, iy0) / r.bandwidth);
    segs.push_back({X(x0) * s, Y(x0 * r.bandwidth) * s, X(r.ridge()) * s, Y(r.peak) * s, color, width * s});
    segs.push_back({X(r.ridge()) * s, Y(r.peak) * s, X(xhi) * s, Y(r.peak) * s, color, width * s});
    if (ridge_line) segs.push_back({X(r.ridge()) * s, Y(r.peak) * s, X(r.ridge()) * s, (top + phh) * s, Colors().faint_ink, 1 * s});
  };
  if (calibrated) {
    roof({hw.matmul_flops, hw.bandwidth}, Colors().faint_ink, 1.5f, false);
    roof({hw.other_flops, hw.bandwidth}, Colors().faint_ink, 1.5f, false);
  }
  roof(matmul_roof, IM_COL32(52, 101, 164, 255), 2.5f, true);
  roof(other_roof, IM_COL32(200, 120, 40, 255), 2.0f, true);
  int hover = -1, hover_source = -1;
  const ImVec2 mouse(ImGui::GetIO().MousePos.x - origin.x, ImGui::GetIO().MousePos.y - origin.y);
  float best = 1e9f;
  auto radius = [&](double t) { return 4 + 12 * static_cast<float>(std::sqrt(t / tmax)); };
  // A whole model repeats each layer's points and arrows at the same place:
  // each is drawn once (a software renderer pays for every copy).
  std::unordered_set<uint64_t> drawn;
  auto first_time = [&drawn](float a, float b, float c, float d) {
    auto q = [](float v) { return static_cast<uint64_t>(static_cast<uint16_t>(std::lround(v * 2))); };
    return drawn.insert(q(a) << 48 | q(b) << 32 | q(c) << 16 | q(d)).second;
  };
  // Arrows first, under the points: from each op alone to the rim of its fused kernel.
  for (size_t i = 0; i < arrows.sources.size(); ++i) {
    const ArrowSource& a = arrows.sources[i];
    if (a.fused >= p.kernels.size()) continue;
    const KernelReport& k = p.kernels[a.fused];
    if (!plotted(a.flops, a.bytes, a.t) || !plotted(k.flops, k.reads + k.writes, k.t)) continue;
    const float x0 = X(a.flops / a.bytes), y0 = Y(a.flops / a.t);
    const float x1 = X(k.flops / (k.reads + k.writes)), y1 = Y(k.flops / k.t);
    const float dx = x1 - x0, dy = y1 - y0, len = std::hypot(dx, dy);
    const float dist = std::hypot(mouse.x - x0, mouse.y - y0);
    if (hovered && dist <= 5 && dist < best) best = dist, hover_source = static_cast<int>(i);
    if (!first_time(x0, y0, x1, y1)) continue;
    const ImU32 c = (KindColor(a.kind) & 0x00FFFFFFu) | (static_cast<ImU32>(150) << IM_COL32_A_SHIFT);
    quads.push_back({(x0 - 3) * s, (y0 - 3) * s, (x0 + 3) * s, (y0 + 3) * s, c, 3 * s});
    const float r = radius(k.t) + 2;
    if (len <= r + 4) continue;  // the op sits inside its kernel's point
    const float ux = dx / len, uy = dy / len, tx = x1 - ux * r, ty = y1 - uy * r;
    const ImU32 ink = Colors().faint_ink;
    segs.push_back({x0 * s, y0 * s, tx * s, ty * s, ink, 1.2f * s});
    segs.push_back({tx * s, ty * s, (tx - ux * 7 - uy * 4) * s, (ty - uy * 7 + ux * 4) * s, ink, 1.2f * s});
    segs.push_back({tx * s, ty * s, (tx - ux * 7 + uy * 4) * s, (ty - uy * 7 - ux * 4) * s, ink, 1.2f * s});
  }
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const KernelReport& k = p.kernels[i];
    const double bytes = k.reads + k.writes;
    if (!plotted(k.flops, bytes, k.t)) continue;
    const float x = X(k.flops / bytes), y = Y(k.flops / k.t);
    const float r = radius(k.t);
    const float dist = std::hypot(mouse.x - x, mouse.y - y);
    if (hovered && dist <= r + 2 && dist < best) best = dist, hover = static_cast<int>(i), hover_source = -1;
    const bool sel = static_cast<int>(i) == selected;
    if (!sel && !first_time(x, y, r, -1)) continue;
    if (sel) quads.push_back({(x - r - 3) * s, (y - r - 3) * s, (x + r + 3) * s, (y + r + 3) * s, Colors().ink, (r + 3) * s});
    ImU32 c = KindColor(k.kind);
    c = (c & 0x00FFFFFFu) | (static_cast<ImU32>(200) << IM_COL32_A_SHIFT);
    quads.push_back({(x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s, c, r * s});
  }
  if (clicked) selected = hover >= 0 && hover != selected ? hover : -1;
  const ImTextureID tex = Charts().Render(kRooflineChart, static_cast<int>(std::lround(size.x * s)),
                                                   static_cast<int>(std::lround(size.y * s)), Colors().chart_background, quads, segs);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddImage(tex, origin, ImVec2(origin.x + size.x, origin.y + size.y));
  const ImU32 muted = ImGui::ColorConvertFloat4ToU32(Colors().muted_text);
  auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  for (int d = static_cast<int>(ix0); d <= static_cast<int>(ix1); ++d) {
    std::string t = fmt_decade(d);
    draw->AddText(at(X(std::pow(10.0, d)) - ImGui::CalcTextSize(t.c_str()).x / 2, top + phh + 3), muted, t.c_str());
  }
  for (int d = static_cast<int>(iy0); d <= static_cast<int>(iy1); ++d) {
    std::string t = fmt_decade(d);
    draw->AddText(at(left - ImGui::CalcTextSize(t.c_str()).x - 5, Y(std::pow(10.0, d)) - line / 2), muted, t.c_str());
  }
  const std::string xl = Tx(Ui::RooflineXAxis, lang);
  draw->AddText(at(left + pw - ImGui::CalcTextSize(xl.c_str()).x, top + phh - line - 2), muted, xl.c_str());
  draw->AddText(at(left + 4, top), muted, Tx(Ui::RooflineYAxis, lang));
  if (hover >= 0) {
    const KernelReport& k = p.kernels[static_cast<size_t>(hover)];
    ImGui::BeginTooltip();
    KernelTooltip(k, hw.launch, cost_model_of(hw), lang);
    ImGui::TextUnformatted(tr(Ui::RooflinePoint, lang, {fmt_fixed(k.flops / (k.reads + k.writes), 1),
                                                           fmt_fixed(k.flops / k.t / 1e12, 2)}).c_str());
    ImGui::EndTooltip();
  } else if (hover_source >= 0) {
    const ArrowSource& a = arrows.sources[static_cast<size_t>(hover_source)];
    ImGui::SetTooltip("%s", tr(Ui::RooflineArrowTip, lang, {std::string(kernel_kind_name(a.kind)), fmt_time(a.t), fmt_bytes(a.bytes),
                                                                std::to_string(a.fused)}).c_str());
  }
  // The roofs' numbers under the chart, where no point can cover them.
  auto roof_text = [&](Ui peak_text, Ui reached_text, const Roof& r, double peak) {
    return tr(calibrated ? reached_text : peak_text, lang, {fmt_fixed(r.peak / 1e12, 0), fmt_fixed(r.ridge(), 0), fmt_fixed(peak / 1e12, 0)});
  };
  const std::string mm = roof_text(Ui::RooflineMatmulRoof, Ui::RooflineMatmulReached, matmul_roof, hw.matmul_flops);
  const std::string oo = roof_text(Ui::RooflineOtherRoof, Ui::RooflineOtherReached, other_roof, hw.other_flops);
  ImGui::TextColored(Colors().matmul_text, "%s", mm.c_str());
  SameLineIfRoom(ImGui::CalcTextSize(oo.c_str()).x, ImGui::GetFontSize() * 1.5f);
  ImGui::TextColored(Colors().other_text, "%s", oo.c_str());
  std::vector<KernelKind> kinds = KindsOf(p.kernels);
  for (const ArrowSource& a : arrows.sources)
    if (std::find(kinds.begin(), kinds.end(), a.kind) == kinds.end()) kinds.push_back(a.kind);
  DrawKindLegend(kinds, lang, OverheadKey::None);
  ImGui::EndGroup();
  RecordFigure("roofline.figure");
  if (!e.arrows) return;
  const int part = state.settings.partition;
  if (!arrows.error.empty()) TextError(arrows.error);
  else if (arrows.sources.empty()) TextMuted(Tx(Ui::RooflineArrowsNeedFused, lang));
  else TextMuted(tr(Ui::RooflineArrowsNote, lang, {std::to_string(arrows.sources.size()),
                                                       std::to_string(p.kernels.size()), ph.partitions[static_cast<size_t>(part)].name}).c_str());
}

}  // namespace fl::web
