// [SECTION] Demo 4: the PyTorch 2 paper's ablation (published figures).
#include <algorithm>

#include "web/bar_chart.h"
#include "core/units.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

std::string format_ratio_axis(double v) { return fmt_fixed(v, 1) + "×"; }

// One column of the table as horizontal bars, 1.0× (eager) marked.
// Only the first column carries the settings' names (label_w wide).
BarChart ratio_chart(const AblationResult& r, bool training, float label_w, Lang lang) {
  BarChart chart;
  chart.horizontal = true;
  chart.format_value = format_ratio_axis;
  chart.value_label = fmt_ratio;
  chart.reference = 1.0;
  chart.reference_label = Tx(Text::UiAblationEager, lang);
  chart.label_width = label_w;
  for (const AblationRow& row : r.rows) {
    double v = training ? row.training : row.inference;
    ImU32 color = v < 1.0 ? kChartReference : kAccent;
    chart.bars.push_back({label_w > 0 ? row.setting : std::string{}, {{v, color}}});
  }
  return chart;
}

}  // namespace

void DrawAblationPanel(State& state) {
  const AblationResult& r = state.results.ablation;
  const Lang lang = state.settings.lang;
  ImGui::TextWrapped("%s", r.title.c_str());
  TextMuted(r.source + " " + Tx(Text::UiAblationPublished, lang));

  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  const float line = ImGui::GetFrameHeightWithSpacing();
  const float height = std::max(line * 1.1f * static_cast<float>(r.rows.size()) + line * 1.6f, 160.0f);
  float label_w = 0;
  for (const AblationRow& row : r.rows) label_w = std::max(label_w, ImGui::CalcTextSize(row.setting.c_str()).x);
  label_w = std::min(label_w + 10, avail * 0.3f);
  const float plot_w = (avail - gap - label_w) / 2;
  double axis_max = 0;  // one scale for both columns, so bars compare across them
  for (const AblationRow& row : r.rows) axis_max = std::max({axis_max, row.inference, row.training});
  for (int column = 0; column < 2; ++column) {
    if (column) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const bool training = column == 1;
    const std::string& heading = r.columns.size() > 2 ? r.columns[training ? 2 : 1] : std::string{};
    if (!training) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::TextUnformatted(heading.c_str());
    BarChart chart = ratio_chart(r, training, training ? 0 : label_w, lang);
    chart.axis_max = axis_max;
    DrawBarChart(training ? "training" : "inference", chart, ImVec2(training ? plot_w : plot_w + label_w, height));
    ImGui::EndGroup();
  }
  DrawObservations(r.observations, lang);
}

}  // namespace fl::web
