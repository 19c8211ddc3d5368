#include "web/widgets.h"

#include <imgui_internal.h>  // SetItemUsingMouseWheel

#include <algorithm>

#include "core/ends_by_reason.h"
#include "core/measured/cost_model.h"
#include "core/units.h"
#include "web/embed_layout.h"
#include "web/theme.h"

namespace fl::web {

namespace {

// FLOPs with an SI prefix, three significant digits: "1.07 T", "524 k".
std::string flop_count(double flops) {
  static const struct { double scale; const char* prefix; } kPrefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& p : kPrefixes)
    if (flops >= p.scale) return fmt_fixed(flops / p.scale, flops / p.scale >= 100 ? 0 : flops / p.scale >= 10 ? 1 : 2) + " " + p.prefix;
  return fmt_fixed(flops, 0) + " ";
}

// The bar chart's overhead: the lighter shade of each kind's colour, side by side.
void tint_swatch(const std::vector<KernelKind>& kinds) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float side = h * 0.7f, pad = (h - side) / 2;
  const size_t n = std::max<size_t>(1, kinds.size());
  const float strip = side * 1.6f / static_cast<float>(n);
  for (size_t i = 0; i < kinds.size(); ++i) {
    const float x = p.x + strip * static_cast<float>(i);
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x, p.y + pad), ImVec2(x + strip, p.y + pad + side), Lighter(KindColor(kinds[i])));
  }
  ImGui::Dummy(ImVec2(side * 1.6f, h));
  ImGui::SameLine(0, h * 0.3f);
}

}  // namespace

void Swatch(ImU32 color) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float side = h * 0.7f, pad = (h - side) / 2;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + side, p.y + pad + side), color, 2);
  ImGui::Dummy(ImVec2(side, h));
  ImGui::SameLine(0, h * 0.3f);
}

void TextMuted(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().muted_text);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

void TextError(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, Colors().error_text);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

int ComboWheelStep() {
  if (!ImGui::IsItemHovered()) return 0;
  ImGui::SetItemUsingMouseWheel();
  const float wheel = ImGui::GetIO().MouseWheel;
  return wheel > 0 ? -1 : wheel < 0 ? 1 : 0;
}

int Stepped(int current, int step, int count) {
  if (step == 0) return current;
  if (current < 0) return step < 0 ? count - 1 : 0;
  return std::clamp(current + step, 0, count - 1);
}

WideTable BeginWideTable(const char* id, int columns, ImGuiTableFlags flags, int rows, float min_width, float text_width,
                         int text_lines) {
  WideTable t;
  ImVec2 outer(0, 0);
  if (const float avail = ImGui::GetContentRegionAvail().x; avail < min_width) {
    NoteWidthShortfall(min_width - avail);
    flags |= ImGuiTableFlags_ScrollX;
    const float row = ImGui::GetTextLineHeight() * static_cast<float>(text_lines) + ImGui::GetStyle().CellPadding.y * 2;
    outer.y = row * static_cast<float>(rows) + ImGui::GetFrameHeight() + ImGui::GetStyle().ScrollbarSize + 4;
    t.text_flags = ImGuiTableColumnFlags_WidthFixed;
    t.text_width = text_width;
  }
  t.open = ImGui::BeginTable(id, columns, flags, outer);
  return t;
}

void TableHeadersWithHelp(const std::vector<std::optional<Ui>>& help, Lang lang) {
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < ImGui::TableGetColumnCount(); ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    const size_t i = static_cast<size_t>(c);
    if (i < help.size() && help[i] && ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 22);
      ImGui::TextUnformatted(Tx(*help[i], lang));
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }
}

void SectionHeading(const std::string& text) {
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kAccent));
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopStyleColor();
  ImGui::Separator();
}

void SameLineIfRoom(float width, float spacing) {
  const float line_end = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
  if (ImGui::GetItemRectMax().x + gap + width <= line_end) ImGui::SameLine(0, gap);
}

float ToggleWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

void DrawViewHeader(const std::string& title, const AnalysisConfig& c, Lang lang) {
  ImGui::TextWrapped("%s", title.c_str());
  TextMuted(CostNote(c, lang));
}

std::string CostNote(const AnalysisConfig& c, Lang lang) {
  if (c.cost == CostModel::Roofline) return std::string(Tx(Ui::RooflineNote, lang));
  return cost_model_note(c, lang);  // the calibrated model and its fit, or why the roofline stands
}

Ui TimeColumn(const Hardware& hw) { return cost_model_of(hw) == CostModel::Roofline ? Ui::ColRoofline : Ui::ColCalibrated; }
Ui TimeColumnHelp(const Hardware& hw) {
  return cost_model_of(hw) == CostModel::Roofline ? Ui::HelpColRoofline : Ui::HelpColCalibrated;
}

void DrawObservations(const std::vector<Observation>& observations, Lang lang) {
  SectionHeading(Tx(Ui::Observations, lang));
  for (const Observation& o : observations) WrappedBullet(o.text);
}

void WrappedBullet(const std::string& text) {
  ImGui::Bullet();
  ImGui::TextWrapped("%s", text.c_str());
}

std::vector<KernelKind> KindsOf(const std::vector<KernelReport>& kernels) {
  std::vector<KernelKind> kinds;
  for (const KernelReport& k : kernels)
    if (std::find(kinds.begin(), kinds.end(), k.kind) == kinds.end()) kinds.push_back(k.kind);
  return kinds;
}

void DrawKindLegend(const std::vector<KernelKind>& kinds, Lang lang, OverheadKey overhead) {
  for (KernelKind kind : kinds) {
    Swatch(KindColor(kind));
    ImGui::TextUnformatted(std::string(kernel_kind_name(kind)).c_str());
    ImGui::SameLine(0, ImGui::GetTextLineHeight());
  }
  if (overhead == OverheadKey::LightShade) {
    tint_swatch(kinds);
    ImGui::TextUnformatted(Tx(Ui::LegendOverhead, lang));
  } else if (overhead == OverheadKey::Grey) {
    Swatch(Colors().overhead_grey);
    ImGui::TextUnformatted(Tx(Ui::LegendOverheadGrey, lang));
  } else {
    ImGui::NewLine();
  }
}

void KindCell(KernelKind kind) {
  Swatch(KindColor(kind));
  ImGui::TextUnformatted(std::string(kernel_kind_name(kind)).c_str());
}

void KernelTooltip(const KernelReport& k, double overhead, CostModel model, Lang lang) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
  ImGui::TextUnformatted(tr(Ui::TipKernel, lang, {std::to_string(k.index), std::string(kernel_kind_name(k.kind))}).c_str());
  ImGui::TextWrapped("%s", k.label.c_str());
  if (!k.name.empty()) TextMuted(k.name);  // as the compiler names it (the Inductor model's kernels)
  ImGui::TextUnformatted(
      tr(model == CostModel::Roofline ? Ui::TipTime : Ui::TipTimeCalibrated, lang,
         {fmt_time(k.t), fmt_time(overhead), fmt_time(k.t + overhead)}).c_str());
  ImGui::TextUnformatted(tr(Ui::TipBytes, lang, {fmt_bytes(static_cast<double>(k.reads)), fmt_bytes(static_cast<double>(k.writes))}).c_str());
  ImGui::TextUnformatted(tr(Ui::TipFlops, lang, {flop_count(k.flops)}).c_str());
  // A real compiler's kernel: why its values leave it, reason by reason, with the kernels that read them.
  if (!k.name.empty())
    for (const EndsOfReason& r : ends_by_reason(k.ends)) {
      std::string readers;
      for (int i : r.readers) readers.append(readers.empty() ? "" : ", ").append(std::to_string(i));
      // The words of the reason's first value (its sizes, where the model has them).
      const auto first = std::find_if(k.ends.begin(), k.ends.end(), [&](const KernelEndReport& e) { return e.why == r.why; });
      TextMuted(readers.empty() ? first->words : tr(Ui::TipEndsTo, lang, {readers, first->words}));
    }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace fl::web
