// [SECTION] Demos 2 and 3: one Llama layer, four partitions, prefill or decode.
#include <algorithm>

#include "web/bar_chart.h"
#include "core/report_json.h"
#include "core/units.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

std::string format_time_axis(double seconds) { return fmt_time(seconds); }

double overhead_per_kernel(const PartitionReport& p) {
  return p.cost.kernels > 0 ? p.cost.overhead / static_cast<double>(p.cost.kernels) : 0;
}

// The seed's table: prefill compares speed, decode the share of fixed cost.
void draw_partition_table(const PhaseReport& r, bool decode, int& chosen, Lang lang) {
  const int columns = decode ? 10 : 8;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
                                ImGuiTableFlags_SizingFixedFit;
  const float em = ImGui::GetFontSize();
  const WideTable table = BeginWideTable("partitions", columns, flags, static_cast<int>(r.partitions.size()), em * 46, em * 15, 2);
  if (!table.open) return;
  std::vector<std::optional<Ui>> help;
  auto column = [&](const char* label, std::optional<Ui> tip, ImGuiTableColumnFlags f = 0, float width = 0) {
    ImGui::TableSetupColumn(label, f, width);
    help.push_back(tip);
  };
  column(Tx(Ui::ColIndex, lang), std::nullopt);
  column(Tx(Ui::ColPartition, lang), Ui::HelpColPartition, table.text_flags, table.text_width);
  column(Tx(Ui::ColKernels, lang), Ui::HelpColKernels);
  column(Tx(Ui::ColBytes, lang), Ui::HelpColBytes);
  if (!decode) column(Tx(Ui::ColGflops, lang), Ui::HelpColGflops);
  column(Tx(TimeColumn(r.config.hw), lang), TimeColumnHelp(r.config.hw));
  if (decode) {
    column(Tx(Ui::ColOverhead, lang), Ui::HelpColOverhead);
    column(Tx(Ui::ColOverheadShare, lang), Ui::HelpColOverheadShare);
  }
  column(Tx(Ui::ColWithOverhead, lang), Ui::HelpColWithOverhead);
  column(Tx(Ui::ColSpeedup, lang), Ui::HelpColSpeedup);
  const std::string tokens = tr(Ui::ColTokensPerS, lang, {std::to_string(r.config.layers)});
  if (decode) column(tokens.c_str(), Ui::HelpColTokensPerS);
  TableHeadersWithHelp(help, lang);
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    const PartitionReport& p = r.partitions[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(std::to_string(i + 1).c_str(), chosen == static_cast<int>(i),
                          ImGuiSelectableFlags_SpanAllColumns))
      chosen = static_cast<int>(i);
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", p.name.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(p.cost.kernels));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(p.cost.bytes).c_str());
    if (!decode) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_gflops(p.cost.flops).c_str());
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(p.cost.t).c_str());
    if (decode) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_time(p.cost.overhead).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_percent(p.overhead_share).c_str());
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(p.cost.t_total).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_ratio(p.speedup).c_str());
    if (decode) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fmt_fixed(p.tokens_per_s, 0).c_str());
    }
  }
  ImGui::EndTable();
}

// The table as CSV: SI units (bytes, FLOPs, seconds), every column of both phases.
std::string partitions_csv(const PhaseReport& r) {
  std::string out = CsvRow({"index", "partition", "kernels", "bytes", "flops", "t_roofline_s", "overhead_s",
                            "t_total_s", "speedup_vs_eager", "tokens_per_s"});
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    const PartitionReport& p = r.partitions[i];
    out += CsvRow({std::to_string(i + 1), p.name, std::to_string(p.cost.kernels), fmt_fixed(p.cost.bytes, 0), fmt_fixed(p.cost.flops, 0),
                   fmt_exact(p.cost.t), fmt_exact(p.cost.overhead), fmt_exact(p.cost.t_total), fmt_exact(p.speedup), fmt_exact(p.tokens_per_s)});
  }
  return out;
}

// One bar per kernel: roofline time in the kind's colour, the fixed cost on
// top in a lighter shade. A whole model has thousands of kernels: the chart
// (and its legend) is built once per result, not per frame, and drawn as one
// instanced batch by the chart renderer.
const KernelChartCache& kernel_chart(State& state, const PartitionReport& p, bool decode, int partition) {
  KernelChartCache& cache = state.caches.kernel_chart;
  if (cache.generation == state.results_generation && cache.decode == decode && cache.partition == partition) return cache;
  cache.generation = state.results_generation;
  cache.decode = decode;
  cache.partition = partition;
  cache.chart = BarChart{};
  cache.chart.format_value = format_time_axis;
  const double overhead = overhead_per_kernel(p);
  cache.chart.bars.reserve(p.kernels.size());
  for (const KernelReport& k : p.kernels) {
    ImU32 color = KindColor(k.kind);
    cache.chart.bars.push_back({std::to_string(k.index), {{k.t, color}, {overhead, Lighter(color)}}});
  }
  cache.kinds = KindsOf(p.kernels);
  return cache;
}

void draw_kernel_chart(const PartitionReport& p, const KernelChartCache& cache, int number, float width, float height,
                       CostModel model, Lang lang) {
  ImGui::TextUnformatted(tr(Ui::ChartKernels, lang, {std::to_string(number)}).c_str());
  BarChartInput in = DrawBarChart("kernel_chart", cache.chart, ImVec2(width, height));
  RecordWidget("kernel_chart");
  RecordShown("kernel_chart_hovered", in.hovered);
  if (in.hovered >= 0) KernelTooltip(p.kernels[static_cast<size_t>(in.hovered)], overhead_per_kernel(p), model, lang);
}

void draw_totals_chart(const PhaseReport& r, int& chosen, float width, float height, Lang lang) {
  BarChart chart;
  chart.format_value = format_time_axis;
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    const PartitionReport& p = r.partitions[i];
    chart.bars.push_back({std::to_string(i + 1), {{p.cost.t, kAccent}, {p.cost.overhead, Lighter(kAccent)}},
                          chosen == static_cast<int>(i)});
  }
  ImGui::TextUnformatted(Tx(Ui::ChartTotals, lang));
  BarChartInput in = DrawBarChart("totals_chart", chart, ImVec2(width, height));
  if (in.hovered < 0) return;
  const PartitionReport& p = r.partitions[static_cast<size_t>(in.hovered)];
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
  ImGui::TextWrapped("%s", p.name.c_str());
  ImGui::TextUnformatted(tr(Ui::TipPartition, lang, {std::to_string(p.cost.kernels), fmt_bytes(p.cost.bytes)}).c_str());
  const Ui time = cost_model_of(r.config.hw) == CostModel::Roofline ? Ui::TipTime : Ui::TipTimeCalibrated;
  ImGui::TextUnformatted(tr(time, lang, {fmt_time(p.cost.t), fmt_time(p.cost.overhead), fmt_time(p.cost.t_total)}).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
  if (in.clicked) chosen = in.hovered;
}

void draw_slowest(const PhaseReport& r, Lang lang) {
  const std::vector<KernelReport>& slowest = r.slowest;
  SectionHeading(tr(Ui::Slowest, lang, {std::to_string(slowest.size()), r.partition(PhaseReport::slowest_of).name}));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("slowest", 5, flags)) return;
  ImGui::TableSetupColumn(Tx(Ui::ColKind, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColOps, lang), ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(Tx(Ui::ColReads, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColWrites, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColTime, lang));
  ImGui::TableHeadersRow();
  for (const KernelReport& k : slowest) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    KindCell(k.kind);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", k.label.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(k.reads).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(k.writes).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(k.t).c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void DrawPhasePanel(State& state) {
  const bool decode = state.settings.view == View::Decode;
  const PhaseReport& r = decode ? state.results.decode : state.results.prefill;
  const Lang lang = state.settings.lang;
  if (r.partitions.empty()) return;
  int& chosen = state.settings.partition;
  chosen = std::clamp(chosen, 0, static_cast<int>(r.partitions.size()) - 1);

  const MemoryReport& memory_fit = r.memory;
  DrawViewHeader(r.title, r.config, lang);
  draw_partition_table(r, decode, chosen, lang);
  // Weights + KV cache against the GPU's memory; red when it does not fit
  // (an embed keeps only that case above its charts).
  auto memory = [&] {
    if (memory_fit.text.empty()) return;
    if (memory_fit.fits) ImGui::TextWrapped("%s", memory_fit.text.c_str());
    else TextError(memory_fit.text);
  };
  if (!EmbedLayout() || !memory_fit.fits) memory();
  if (!EmbedLayout()) TextMuted(Tx(Ui::ChartHint, lang));
  DrawExportRow("phase_export", [&] { return partitions_csv(r); }, "phase.figure", JsonOf(r), decode ? "fusionlab-decode" : "fusionlab-prefill",
                lang);

  const PartitionReport& p = r.partitions[static_cast<size_t>(chosen)];
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  // Below the charts: their titles' line above, the legend, the details' header.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float below = ImGui::GetTextLineHeightWithSpacing() * 2 + style.ItemSpacing.y * 2 + DetailsHeight();
  // Side by side, or on a narrow screen (a phone) one above the other: then
  // an embed's height left is shared by the two, the second's title between.
  const bool stacked = avail < ImGui::GetFontSize() * 36;
  float height = FitHeight(std::clamp(ImGui::GetIO().DisplaySize.y * 0.3f, 130.0f, 280.0f), 80, below);
  if (stacked && EmbedLayout()) height = std::max(80.0f, (height - ImGui::GetTextLineHeightWithSpacing() - style.ItemSpacing.y) / 2);
  const float kernels_w = stacked ? avail : (avail - gap) * 0.68f;
  ImGui::BeginGroup();  // the exported figure: both charts and the legend
  ImGui::BeginGroup();
  const KernelChartCache& cache = kernel_chart(state, p, decode, chosen);
  draw_kernel_chart(p, cache, chosen + 1, kernels_w, height, cost_model_of(r.config.hw), lang);
  ImGui::EndGroup();
  if (!stacked) ImGui::SameLine(0, gap);
  ImGui::BeginGroup();
  draw_totals_chart(r, chosen, stacked ? avail : avail - gap - kernels_w, height, lang);
  ImGui::EndGroup();
  DrawKindLegend(cache.kinds, lang, OverheadKey::LightShade);
  ImGui::EndGroup();
  RecordFigure("phase.figure");

  if (!BeginDetails(lang)) return;
  if (EmbedLayout()) {
    TextMuted(Tx(Ui::ChartHint, lang));
    if (memory_fit.fits) memory();
  }
  if (!r.slowest.empty()) draw_slowest(r, lang);
  DrawObservations(r.observations, lang);
}

}  // namespace fl::web
