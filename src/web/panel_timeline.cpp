// [SECTION] The timeline: a partition's kernels on a time axis with the fixed
// overhead before each; CUDA Graphs (hw.graph_launch per kernel instead of
// hw.launch) and a megakernel (one launch for the whole layer).
#include <algorithm>
#include <cmath>

#include "core/demos/observations.h"
#include "core/report_json.h"
#include "core/units.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr ImGuiID kTimelineChart = 0x6A7A0003u;

double total_time(const PartitionReport& p, double overhead, bool mega) {
  double t = 0;
  for (const KernelReport& k : p.kernels) t += k.t;
  return t + (mega ? overhead : overhead * static_cast<double>(p.kernels.size()));
}

}  // namespace

void DrawTimelinePanel(State& state) {
  const Lang lang = state.settings.lang;
  ExplainState& e = state.explain;
  ImGui::TextWrapped("%s", Tx(Ui::TimelineIntro, lang));
  const PhaseReport& ph = DrawPhaseChooser(state);
  if (ph.partitions.empty()) return;
  // A link may name the compiler's partition while the lecture's four are shown.
  const PartitionReport& p = ph.partitions[static_cast<size_t>(std::clamp(state.settings.partition, 0, static_cast<int>(ph.partitions.size()) - 1))];
  const Hardware& hw = ph.config.hw;
  int& selected = state.settings.kernel;
  if (selected >= static_cast<int>(p.kernels.size())) selected = -1;

  ImGui::Checkbox(Tx(Ui::TimelineGraphs, lang), &e.graphs);
  RecordWidget("graphs");
  SameLineIfRoom(ToggleWidth(Tx(Ui::TimelineMega, lang)));
  ImGui::Checkbox(Tx(Ui::TimelineMega, lang), &e.megakernel);
  RecordWidget("mega");
  const double overhead = e.graphs ? hw.graph_launch : hw.launch;
  const double total = total_time(p, overhead, e.megakernel);
  double compute = 0;
  for (const KernelReport& k : p.kernels) compute += k.t;
  // What is launched: every kernel, every kernel from one graph, or one megakernel.
  const Ui total_text = e.megakernel ? Ui::TimelineTotalMega : e.graphs ? Ui::TimelineTotalGraphs : Ui::TimelineTotal;
  ImGui::TextUnformatted(tr(total_text, lang, {fmt_time(total), fmt_time(compute), fmt_time(total - compute),
                                               std::to_string(p.kernels.size()), fmt_time(overhead)}).c_str());
  RecordWidget("total");
  // Whether the overhead dominates, in words, for the partition and modes on screen.
  const double share = total > 0 ? (total - compute) / total : 0;
  const Ui verdict = share >= demos::Claim::kSetsLatency ? Ui::TimelineOverheadDominates
                       : share >= demos::Claim::kSmall      ? Ui::TimelineOverheadMatters
                                                            : Ui::TimelineOverheadMinor;
  ImGui::TextWrapped("%s", tr(verdict, lang, {fmt_percent(share)}).c_str());
  RecordShown("timeline_total_s", total);
  RecordShown("timeline_launches", e.megakernel ? 1 : static_cast<double>(p.kernels.size()));
  TextMuted(tr(Ui::TimelineModes, lang, {fmt_time(total_time(p, hw.launch, false)), fmt_time(total_time(p, hw.graph_launch, false)),
                                            fmt_time(total_time(p, e.graphs ? hw.graph_launch : hw.launch, true))}));
  DrawExportRow("timeline_export", [&] { return PartitionCsv(p); }, "timeline", JsonOf(ph), "fusionlab-timeline", lang);

  const float line = ImGui::GetTextLineHeight();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 size(std::max(avail.x, 200.0f), std::clamp(line * 6.5f, 90.0f, std::max(90.0f, avail.y - line * 3)));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("timeline", size);
  RecordFigure("timeline");
  const bool hovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked();
  const float left = 8, right = 8, top = line + 6, bar_h = size.y - top - line * 2 - 8;
  const float pw = size.x - left - right;
  const double span = std::max(total, 1e-12);
  auto X = [&](double t) { return left + static_cast<float>(t / span) * pw; };
  const float s = ImGui::GetIO().DisplayFramebufferScale.x;
  std::vector<Quad> quads;
  double t = 0;
  int hover = -1;
  bool hover_overhead = false;
  const float mx = ImGui::GetIO().MousePos.x - origin.x;
  std::vector<std::pair<float, float>> spans(p.kernels.size());
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const KernelReport& k = p.kernels[i];
    const double oh = e.megakernel ? (i == 0 ? overhead : 0) : overhead;
    if (oh > 0) {
      quads.push_back({X(t) * s, top * s, X(t + oh) * s, (top + bar_h) * s, Colors().overhead_grey});
      if (hovered && mx >= X(t) && mx < X(t + oh)) hover = static_cast<int>(i), hover_overhead = true;
      t += oh;
    }
    const float x0 = X(t), x1 = std::max(X(t + k.t), x0 + 1.0f / s);
    spans[i] = {x0, x1};
    if (static_cast<int>(i) == selected)
      quads.push_back({(x0 - 2) * s, (top - 3) * s, (x1 + 2) * s, (top + bar_h + 3) * s, Colors().ink, 2 * s});
    quads.push_back({x0 * s, top * s, x1 * s, (top + bar_h) * s, KindColor(k.kind), 1.5f * s});
    if (hovered && mx >= x0 && mx < x1) hover = static_cast<int>(i), hover_overhead = false;
    t += k.t;
  }
  quads.push_back({left * s, (top + bar_h + 4) * s, (left + pw) * s, (top + bar_h + 5) * s, Colors().chart_axis});
  if (clicked) selected = hover >= 0 && !hover_overhead && hover != selected ? hover : -1;
  const ImTextureID tex = Charts().Render(kTimelineChart, static_cast<int>(std::lround(size.x * s)),
                                                   static_cast<int>(std::lround(size.y * s)), Colors().chart_background, quads);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddImage(tex, origin, ImVec2(origin.x + size.x, origin.y + size.y));
  const ImU32 muted = ImGui::ColorConvertFloat4ToU32(Colors().muted_text);
  // Ticks: 0, a quarter, half, three quarters and the total.
  for (int q = 0; q <= 4; ++q) {
    const std::string label = q == 0 ? "0" : fmt_time(span * q / 4);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float x = std::clamp(X(span * q / 4) - w / 2, 0.0f, size.x - w);
    draw->AddText(ImVec2(origin.x + x, origin.y + top + bar_h + 7), muted, label.c_str());
  }
  // Kernel indices over the bars that are wide enough.
  for (size_t i = 0; i < spans.size(); ++i) {
    const std::string label = std::to_string(p.kernels[i].index);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    if (spans[i].second - spans[i].first >= w + 2)
      draw->AddText(ImVec2(origin.x + (spans[i].first + spans[i].second - w) / 2, origin.y + 2), muted, label.c_str());
  }
  if (hover >= 0) {
    ImGui::BeginTooltip();
    if (hover_overhead) ImGui::TextUnformatted(tr(Ui::TimelineOverheadTip, lang, {fmt_time(overhead)}).c_str());
    else KernelTooltip(p.kernels[static_cast<size_t>(hover)], e.megakernel ? 0 : overhead, cost_model_of(hw), lang);
    ImGui::EndTooltip();
  }
  DrawKindLegend(KindsOf(p.kernels), lang, OverheadKey::Grey);
  TextMuted(Tx(Ui::TimelineNote, lang));
}

}  // namespace fl::web
