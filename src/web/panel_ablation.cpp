// [SECTION] Demo 4: the PyTorch 2 paper's ablation (published figures).
#include <algorithm>

#include "core/report_json.h"
#include "core/units.h"
#include "web/bar_chart.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

std::string format_ratio_axis(double v) { return fmt_fixed(v, 1) + "×"; }

// One column of the table as horizontal bars, 1.0× (eager) marked.
// Only the first column carries the settings' names (label_w wide).
BarChart ratio_chart(const AblationReport& r, bool training, float label_w, Lang lang) {
  BarChart chart;
  chart.horizontal = true;
  chart.format_value = format_ratio_axis;
  chart.value_label = fmt_ratio;
  chart.reference = 1.0;
  chart.reference_label = Tx(Ui::AblationEager, lang);
  chart.label_width = label_w;
  for (const PaperAblationRow& row : r.rows) {
    double v = training ? row.training : row.inference;
    ImU32 color = v < 1.0 ? kChartReference : kAccent;
    chart.bars.push_back({label_w > 0 ? row.setting : std::string{}, {{v, color}}});
  }
  return chart;
}

// One table of every row: the paper's (inference, training), ours (prefill,
// decode) and torch.compile's under the Inductor model (prefill, decode, empty
// where not modelled; then measured, empty where not measured).
std::string ablation_csv(const AblationReport& r) {
  std::string out = CsvRow({"table", "id", "setting", "column_1", "column_2", "measured_1", "measured_2"});
  for (const PaperAblationRow& row : r.rows)
    out += CsvRow({"paper", row.id, row.setting, fmt_exact(row.inference), fmt_exact(row.training), "", ""});
  for (const OurAblationRow& row : r.ours.rows)
    out += CsvRow({"ours", row.id, row.setting, fmt_exact(row.prefill), fmt_exact(row.decode), "", ""});
  if (!r.torch_compile) return out;
  auto measured = [](const std::optional<MeasuredAblationCell>& m) { return m ? fmt_exact(m->speedup) : std::string(); };
  for (const OurAblationRow& row : r.torch_compile->rows) {
    const bool computed = row.not_modelled.empty();
    out += CsvRow({"torch_compile", row.id, row.setting, computed ? fmt_exact(row.prefill) : "",
                   computed ? fmt_exact(row.decode) : "", measured(row.measured_prefill), measured(row.measured_decode)});
  }
  return out;
}

// Our compiler's switches, turned off one at a time, as bars on the paper's
// axis: prefill and decode of the Llama layer, computed by our model.
void draw_ours(const AblationReport& r, double axis_max, float label_w, float height, Lang lang) {
  if (r.ours.rows.empty()) return;
  ImGui::Spacing();
  ImGui::TextWrapped("%s", r.ours.title.c_str());
  TextMuted(Tx(r.ours.cost == CostModel::Roofline ? Ui::AblationOurs : Ui::AblationOursCalibrated, lang));
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  const float plot_w = (avail - gap - label_w) / 2;  // label_w: the paper's table's, so 1.0× lines up
  for (int column = 0; column < 2; ++column) {
    if (column) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    const bool decode = column == 1;
    const std::string heading = r.ours.columns.size() > 2 ? r.ours.columns[decode ? 2 : 1] : std::string(decode ? "decode" : "prefill");
    if (!decode) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + label_w);
    ImGui::TextUnformatted(heading.c_str());
    BarChart chart;
    chart.horizontal = true;
    chart.format_value = format_ratio_axis;
    chart.value_label = fmt_ratio;
    chart.reference = 1.0;
    chart.reference_label = Tx(Ui::AblationEager, lang);
    chart.label_width = decode ? 0 : label_w;
    chart.axis_max = axis_max;
    for (const OurAblationRow& row : r.ours.rows) {
      double v = decode ? row.decode : row.prefill;
      chart.bars.push_back({decode ? std::string{} : row.setting, {{v, v < 1.0 ? kChartReference : IM_COL32(60, 150, 90, 255)}}});
    }
    DrawBarChart(decode ? "ours_decode" : "ours_prefill", chart, ImVec2(decode ? plot_w : plot_w + label_w, height));
    ImGui::EndGroup();
  }
}

// torch.compile's rows under the Inductor model for one layer, beside the same
// rows measured on an H200 where the layer is the one measured: the table,
// a row the model lacks with why on hover, then what differs and why.
void draw_torch_compile(const OurAblationReport& t, Lang lang) {
  SectionHeading(t.title);
  const AblationTable table = ablation_table(t, lang);
  const int columns = static_cast<int>(table.columns.size());
  const float setting_w = ImGui::GetFontSize() * 16;
  const float min_w = setting_w + ImGui::GetFontSize() * 6 * static_cast<float>(columns - 1);
  const WideTable wide = BeginWideTable("torch_compile", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV,
                                        static_cast<int>(table.rows.size()), min_w, setting_w, 2);
  if (wide.open) {
    ImGui::TableSetupColumn(table.columns[0].c_str(), wide.text_flags, wide.text_width);
    for (int c = 1; c < columns; ++c) ImGui::TableSetupColumn(table.columns[static_cast<size_t>(c)].c_str());
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < table.rows.size(); ++i) {
      ImGui::TableNextRow();
      for (const std::string& cell : table.rows[i]) {
        ImGui::TableNextColumn();
        if (&cell == &table.rows[i][0]) ImGui::TextWrapped("%s", cell.c_str());
        else ImGui::TextUnformatted(cell.c_str());
        if (!t.rows[i].not_modelled.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.rows[i].not_modelled.c_str());
      }
    }
    ImGui::EndTable();
  }
  RecordWidget("ablation.torch_compile");
  TextMuted(t.measured_source);
  for (const std::string& note : t.measured_notes) WrappedBullet(note);
  for (const OurAblationRow& row : t.rows)
    if (!row.versus_measured.empty()) WrappedBullet(row.setting + ": " + row.versus_measured);
}

}  // namespace

void DrawAblationPanel(State& state) {
  const AblationReport& r = state.results.ablation;
  const Lang lang = state.settings.lang;
  ImGui::TextWrapped("%s", r.title.c_str());
  DrawExportRow("ablation_export", [&] { return ablation_csv(r); }, "ablation.figure", JsonOf(r), "fusionlab-ablation", lang);

  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  const float line = ImGui::GetFrameHeightWithSpacing();
  auto wanted = [&](size_t bars) { return std::max(line * static_cast<float>(bars) + line * 1.6f, 160.0f); };
  float height = wanted(r.rows.size()), ours_height = wanted(r.ours.rows.size());
  float label_w = 0;
  for (const PaperAblationRow& row : r.rows) label_w = std::max(label_w, ImGui::CalcTextSize(row.setting.c_str()).x);
  for (const OurAblationRow& row : r.ours.rows) label_w = std::max(label_w, ImGui::CalcTextSize(row.setting.c_str()).x);
  label_w = std::min(label_w + 10, avail * 0.3f);
  const float plot_w = (avail - gap - label_w) / 2;
  double axis_max = 0;  // one scale for both columns and both tables, so bars compare across them
  for (const PaperAblationRow& row : r.rows) axis_max = std::max({axis_max, row.inference, row.training});
  for (const OurAblationRow& row : r.ours.rows) axis_max = std::max({axis_max, row.prefill, row.decode});
  ImGui::BeginGroup();  // the exported figure: the paper's table with its source, and ours
  TextMuted(r.source + " " + Tx(Ui::AblationPublished, lang));
  // An embed: both tables share what is left beside their titles' lines, or,
  // when that would squeeze a bar below a line of text, ours moves under "More".
  bool ours_in_details = false;
  if (EmbedLayout()) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float text_line = ImGui::GetTextLineHeightWithSpacing();
    auto wrapped = [&](const std::string& t) { return ImGui::CalcTextSize(t.c_str(), nullptr, false, avail).y + style.ItemSpacing.y; };
    auto least = [&](size_t bars) { return ImGui::GetTextLineHeight() * (static_cast<float>(bars) + 2.0f); };
    const float ours_text = text_line + style.ItemSpacing.y * 2 + wrapped(r.ours.title) + wrapped(Tx(Ui::AblationOurs, lang));
    const float both = FitHeight(0, 0, text_line + ours_text + DetailsHeight());
    ours_in_details = r.ours.rows.empty() || both < least(r.rows.size()) + least(r.ours.rows.size());
    if (ours_in_details) height = FitHeight(0, least(r.rows.size()), text_line + DetailsHeight());
    else height = ours_height = both / 2;
  }
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
  if (!ours_in_details) draw_ours(r, axis_max, label_w, ours_height, lang);
  ImGui::EndGroup();
  RecordFigure("ablation.figure");
  if (!BeginDetails(lang)) return;
  if (ours_in_details) draw_ours(r, axis_max, label_w, ours_height, lang);
  DrawObservations(r.observations, lang);
  if (r.torch_compile) draw_torch_compile(*r.torch_compile, lang);
}

}  // namespace fl::web
