// [SECTION] Demo 1: the partition of one small layer, kernel by kernel.
#include "core/units.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

void draw_kernel_table(const KernelsResult& r, int& selected, Lang lang) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
                                ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("kernels", 7, flags)) return;
  ImGui::TableSetupColumn(Tx(Text::UiColIndex, lang));
  ImGui::TableSetupColumn(Tx(Text::UiColKind, lang));
  ImGui::TableSetupColumn(Tx(Text::UiColOps, lang), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(Tx(Text::UiColNodes, lang));
  ImGui::TableSetupColumn(Tx(Text::UiColReads, lang));
  ImGui::TableSetupColumn(Tx(Text::UiColWrites, lang));
  ImGui::TableSetupColumn(Tx(Text::UiColTime, lang));
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelRow& k = r.kernels[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(std::to_string(k.index).c_str(), selected == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns))
      selected = selected == static_cast<int>(i) ? -1 : static_cast<int>(i);
    ImGui::PopID();
    ImGui::TableNextColumn();
    KindCell(k.kind);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", k.label.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%d", k.nodes);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(k.reads).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(k.writes).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(k.t).c_str());
  }
  ImGui::EndTable();
}

void draw_kernel_details(const KernelRow& k, Lang lang) {
  if (!ImGui::BeginTable("details", 2, ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableNextColumn();
  SectionHeading(tr(Text::UiKernelNodes, lang, {std::to_string(k.index)}));
  for (const std::string& node : k.node_list) ImGui::TextWrapped("%s", node.c_str());
  ImGui::TableNextColumn();
  SectionHeading(Tx(Text::UiKernelEnds, lang));
  if (k.ends.empty()) TextMuted(Tx(Text::UiKernelEndsNone, lang));
  for (const std::string& why : k.ends) {
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", why.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void DrawKernelsPanel(State& state) {
  const KernelsResult& r = state.results.kernels;
  const Lang lang = state.settings.lang;
  int& selected = state.settings.kernel;
  if (selected >= static_cast<int>(r.kernels.size())) selected = -1;

  DrawViewHeader(r.title, lang);
  ImGui::TextWrapped("%s", r.summary.c_str());
  draw_kernel_table(r, selected, lang);
  if (selected >= 0) draw_kernel_details(r.kernels[static_cast<size_t>(selected)], lang);
  else TextMuted(Tx(Text::UiSelectKernel, lang));
  DrawObservations(r.observations, lang);
}

}  // namespace fl::web
