// [SECTION] Demo 1: the partition of one small layer, kernel by kernel.
#include "core/units.h"
#include "core/report_json.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/fonts.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

void draw_kernel_table(const KernelsReport& r, int& selected, Lang lang) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
                                ImGuiTableFlags_SizingFixedFit;
  const float em = ImGui::GetFontSize();
  const WideTable table = BeginWideTable("kernels", 7, flags, static_cast<int>(r.kernels.size()), em * 40, em * 14, 1);
  if (!table.open) return;
  ImGui::TableSetupColumn(Tx(Ui::ColIndex, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColKind, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColOps, lang), table.text_flags, table.text_width);
  ImGui::TableSetupColumn(Tx(Ui::ColNodes, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColReads, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColWrites, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColTime, lang));
  TableHeadersWithHelp({std::nullopt, Ui::HelpColKind, Ui::HelpColOps, Ui::HelpColNodes, Ui::HelpColReads,
                        Ui::HelpColWrites, Ui::HelpColTime},
                       lang);
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const KernelReport& k = r.kernels[i];
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
    ImGui::Text("%zu", k.nodes);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(static_cast<double>(k.reads)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(static_cast<double>(k.writes)).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(k.t).c_str());
  }
  ImGui::EndTable();
}

void draw_kernel_details(const KernelReport& k, Lang lang) {
  if (!ImGui::BeginTable("details", 2, ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableNextColumn();
  SectionHeading(tr(Ui::KernelNodes, lang, {std::to_string(k.index)}));
  for (const std::string& node : k.node_list) ImGui::TextWrapped("%s", node.c_str());
  ImGui::TableNextColumn();
  SectionHeading(Tx(Ui::KernelEnds, lang));
  if (k.ends.empty()) TextMuted(Tx(Ui::KernelEndsNone, lang));
  for (const KernelEndReport& end : k.ends) WrappedBullet(end.text);
  ImGui::EndTable();
  if (k.code.empty()) return;
  // The pseudo-kernel: loads, on-chip computation, stores, in a monospace block.
  SectionHeading(tr(Ui::KernelCode, lang, {std::to_string(k.index)}));
  int lines = 1;
  for (char c : k.code) lines += c == '\n';
  ImFont* mono = MonoFont();
  const float line_h = mono ? mono->FontSize * ImGui::GetIO().FontGlobalScale : ImGui::GetTextLineHeight();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, Colors().code_background);
  ImGui::BeginChild("code", ImVec2(0, line_h * static_cast<float>(lines) + 12), true, ImGuiWindowFlags_HorizontalScrollbar);
  if (mono) ImGui::PushFont(mono);
  ImGui::TextUnformatted(k.code.c_str());
  if (mono) ImGui::PopFont();
  ImGui::EndChild();
  ImGui::PopStyleColor();
  RecordWidget("kernel_code");
}

std::string kernels_csv(const KernelsReport& r) {
  std::string out = CsvRow({"index", "kind", "label", "nodes", "reads_bytes", "writes_bytes", "flops", "t_seconds", "ends"});
  for (const KernelReport& k : r.kernels) {
    std::string ends;
    for (const KernelEndReport& e : k.ends) ends += (ends.empty() ? "" : " | ") + e.text;
    out += CsvRow({std::to_string(k.index), std::string(kernel_kind_name(k.kind)), k.label, std::to_string(k.nodes),
                   std::to_string(k.reads), std::to_string(k.writes), fmt_exact(k.flops), fmt_exact(k.t), ends});
  }
  return out;
}

}  // namespace

void DrawKernelsPanel(State& state) {
  const KernelsReport& r = state.results.kernels;
  const Lang lang = state.settings.lang;
  int& selected = state.settings.kernel;
  if (selected >= static_cast<int>(r.kernels.size())) selected = -1;

  DrawViewHeader(r.title, r.config, lang);
  ImGui::TextWrapped("%s", r.summary.c_str());
  DrawExportRow("kernels_export", [&] { return kernels_csv(r); }, nullptr, JsonOf(r), "fusionlab-kernels", lang);
  const int before = selected;
  draw_kernel_table(r, selected, lang);
  if (selected < 0) TextMuted(Tx(Ui::SelectKernel, lang));
  // An embed keeps the kernel's detail under "More", opened by a click on a row.
  if (!EmbedLayout() && selected >= 0) draw_kernel_details(r.kernels[static_cast<size_t>(selected)], lang);
  if (!BeginDetails(lang, selected >= 0 && selected != before)) return;
  if (EmbedLayout() && selected >= 0) draw_kernel_details(r.kernels[static_cast<size_t>(selected)], lang);
  DrawObservations(r.observations, lang);
}

}  // namespace fl::web
