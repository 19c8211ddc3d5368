// [SECTION] The pass timeline: the pipeline as a strip of stages; the chosen
// stage's graph, its node count, and what its pass added, rewrote and removed.
#include <algorithm>

#include "core/report_json.h"
#include "core/units.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

std::string count(size_t n) { return fmt_count(static_cast<double>(n)); }  // "7958", "50,231"

std::string csv_of(const StageReport& st, bool fused) {
  std::string out = CsvRow({"id", "op", "text", "inputs", "view", "source", "change", "kernel"});
  for (const GraphNodeReport& n : st.nodes) {
    std::string ins;
    for (int i : n.inputs) ins += (ins.empty() ? "" : " ") + std::to_string(i);
    out += CsvRow({std::to_string(n.id), std::string(op_name(n.op)), n.text, ins, n.view() ? "1" : "0", n.source() ? "1" : "0", std::string(node_change_name(n.change)),
                   fused ? std::to_string(n.kernel) : ""});
  }
  return out;
}

void draw_strip(const KernelsReport& r, ExplainState& e, Lang lang) {
  const float avail = ImGui::GetContentRegionAvail().x;
  float used = 0;
  for (int i = 0; i < kStageCount; ++i) {
    const bool fused = i == kFusedStage;
    const int rows = static_cast<int>(r.stages.size());
    const size_t n = fused ? (rows ? r.stages.back().nodes.size() : 0) : i < rows ? r.stages[static_cast<size_t>(i)].nodes.size() : 0;
    std::string label = std::string(kStageKeys[i]) + " (" + count(n) + ")";
    if (fused) label = tr(Ui::StageFusedKernels, lang, {count(r.kernels.size())});
    const float w = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    const float arrow = ImGui::CalcTextSize(">").x + ImGui::GetStyle().ItemSpacing.x * 2;
    if (i > 0) {
      if (used + arrow + w <= avail) {
        ImGui::SameLine();
        TextMuted(">");
        ImGui::SameLine();
        used += arrow;
      } else {
        used = 0;
      }
    }
    const bool on = e.stage == i;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(IM_COL32(52, 101, 164, 255)));
    if (on) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    if (ImGui::Button(label.c_str())) {
      if (e.stage != i) e.node = -1;
      e.stage = i;
    }
    RecordWidget(std::string("stage.") + kStageKeys[i]);
    if (on) ImGui::PopStyleColor(2);
    used += w + ImGui::GetStyle().ItemSpacing.x;
  }
}

void draw_changes(const StageReport& st, int stage, const KernelsReport& r, const ExplainState& e, int kernel, Lang lang) {
  if (stage == kFusedStage) {
    TextMuted(Tx(Ui::GraphLegendFused, lang));
    // The kernels' colours, each with what it runs (a whole model has thousands: clipped).
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(r.kernels.size()));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const KernelReport& k = r.kernels[static_cast<size_t>(i)];
        Swatch(GraphKernelColor(static_cast<int>(k.index)));
        ImGui::TextUnformatted(tr(Ui::GraphKernelKey, lang, {std::to_string(k.index), k.label}).c_str());
      }
  } else {
    ImGui::TextWrapped("%s", tr(Ui::StageChanges, lang, {count(st.rewrites), count(st.added),
                                                            count(st.rewritten), count(st.removed.size())})
                                 .c_str());
    TextMuted(Tx(Ui::GraphLegendStage, lang));
  }
  // The selected node, and (fused) its kernel.
  if (e.node >= 0)
    for (const GraphNodeReport& n : st.nodes)
      if (n.id == e.node) {
        SectionHeading(Tx(Ui::GraphSelectedNode, lang));
        ImGui::TextWrapped("%s", n.text.c_str());
      }
  if (stage == kFusedStage && kernel >= 0 && kernel < static_cast<int>(r.kernels.size())) {
    const KernelReport& k = r.kernels[static_cast<size_t>(kernel)];
    SectionHeading(tr(Ui::TipKernel, lang, {std::to_string(k.index), std::string(kernel_kind_name(k.kind))}));
    ImGui::TextWrapped("%s", k.label.c_str());
    for (const KernelEndReport& end : k.ends) WrappedBullet(end.text);
  }
  if (stage != kFusedStage && !st.removed.empty()) {
    SectionHeading(Tx(Ui::StageRemoved, lang));
    // One line each, through a clipper: a whole model removes thousands.
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(st.removed.size()));
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        ImGui::TextUnformatted(st.removed[static_cast<size_t>(i)].c_str());
  }
}

}  // namespace

void DrawPassesPanel(State& state) {
  const KernelsReport& r = state.results.kernels;
  const Lang lang = state.settings.lang;
  ExplainState& e = state.explain;
  if (r.stages.empty()) {
    TextMuted(Tx(Ui::SelectKernel, lang));
    return;
  }
  e.stage = std::clamp(e.stage, 0, kStageCount - 1);
  const StageReport& st = e.stage == kFusedStage ? r.stages.back() : r.stages[static_cast<size_t>(std::min<int>(e.stage, static_cast<int>(r.stages.size()) - 1))];
  if (state.settings.kernel >= static_cast<int>(r.kernels.size())) state.settings.kernel = -1;

  ImGui::TextWrapped("%s", Tx(Ui::PassesIntro, lang));
  draw_strip(r, e, lang);
  ImGui::TextUnformatted(tr(Ui::StageStats, lang, {e.stage == kFusedStage ? std::string(Tx(Ui::StageFused, lang)) : std::string(stage_name(st.stage)),
                                                      count(st.nodes.size())})
                             .c_str());
  ImGui::SameLine();
  DrawExportRow("passes_export", [&] { return csv_of(st, e.stage == kFusedStage); }, "graph", JsonOf(r),
                std::string("fusionlab-graph-") + kStageKeys[e.stage], lang);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool side = avail.x >= 640;
  const float graph_w = side ? avail.x * 0.68f : avail.x;
  const float graph_h = side ? std::max(avail.y - 4, 160.0f) : std::max(avail.y * 0.62f, 160.0f);
  DrawGraphPanel(state, ImVec2(graph_w, graph_h));
  if (side) ImGui::SameLine();
  ImGui::BeginChild("stage_details", ImVec2(0, side ? graph_h : 0), false);
  draw_changes(st, e.stage, r, e, state.settings.kernel, lang);
  ImGui::EndChild();
}

}  // namespace fl::web
