// [SECTION] The compilers view: one layer under eager PyTorch, the lecture's
// rules, Inductor and gpt-fast side by side, and for each step of the layer's
// code the kernels that compute it under each (core/lineup.h).
#include <algorithm>

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

std::string lineup_csv(const LineupReport& r) {
  std::vector<std::string> head{"step", "text"};
  for (const PartitionReport& p : r.columns) head.push_back(std::string(partition_key(p.id)));
  std::string out = CsvRow(head);
  for (const LineupRow& row : r.rows) {
    std::vector<std::string> cells{std::string(origin_key(row.step)), row.text};
    for (const std::vector<int>& ks : row.kernels) cells.push_back(ks.empty() ? "" : lineup_cell(ks, Lang::En));  // none: an empty cell
    out += CsvRow(cells);
  }
  return out;
}

void draw_totals(const LineupReport& r, Lang lang) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
                                ImGuiTableFlags_SizingFixedFit;
  const float em = ImGui::GetFontSize();
  const WideTable table = BeginWideTable("lineup.totals", 5, flags, static_cast<int>(r.columns.size()), em * 34, em * 15, 2);
  if (!table.open) return;
  ImGui::TableSetupColumn(Tx(Ui::ColPartition, lang), table.text_flags, table.text_width);
  ImGui::TableSetupColumn(Tx(Ui::ColKernels, lang));
  ImGui::TableSetupColumn(Tx(Ui::ColBytes, lang));
  ImGui::TableSetupColumn(Tx(TimeColumn(r.config.hw), lang));
  ImGui::TableSetupColumn(Tx(Ui::ColWithOverhead, lang));
  TableHeadersWithHelp({Ui::HelpCompilersColumn, Ui::HelpColKernels, Ui::HelpColBytes, TimeColumnHelp(r.config.hw),
                        Ui::HelpColWithOverhead},
                       lang);
  for (const PartitionReport& p : r.columns) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", p.name.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(p.cost.kernels));
    RecordShown(std::string("lineup.kernels.") + std::string(partition_key(p.id)), static_cast<double>(p.cost.kernels));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_bytes(p.cost.bytes).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(p.cost.t).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt_time(p.cost.t_total).c_str());
  }
  ImGui::EndTable();
}

// The steps' table, rows [first, end): a column per compiler; steps that
// share a kernel share its shade, so a kernel reads as one block of rows.
// Below `min_width` (em) the table scrolls sideways.
void draw_steps(const LineupReport& r, size_t first, size_t end, const char* id, float min_width, Lang lang) {
  // As wide as its columns: the steps' names beside their kernels, not across the slide.
  const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_BordersOuterH |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX;
  const float em = ImGui::GetFontSize();
  const int columns = 1 + static_cast<int>(r.columns.size());
  const WideTable table = BeginWideTable(id, columns, flags, static_cast<int>(end - first), em * min_width, em * 11, 1);
  if (!table.open) return;
  ImGui::TableSetupColumn(Tx(Text::LineupStep, lang), ImGuiTableColumnFlags_WidthFixed, table.text_width);
  for (const PartitionReport& p : r.columns) ImGui::TableSetupColumn(Tx(lineup_column_text(p.id), lang));
  std::vector<std::optional<Ui>> help(static_cast<size_t>(columns), Ui::HelpCompilersCell);
  help[0] = Ui::HelpCompilersStep;
  TableHeadersWithHelp(help, lang);
  // Per column, the shade flips where the kernels change from the row above:
  // a kernel's run of rows is one block, and two neighbouring kernels never share a shade.
  std::vector<const std::vector<int>*> above(r.columns.size(), nullptr);
  std::vector<bool> darker(r.columns.size(), false);
  for (size_t i = first; i < end; ++i) {
    const LineupRow& row = r.rows[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.text.c_str());
    for (size_t col = 0; col < row.kernels.size(); ++col) {
      ImGui::TableNextColumn();
      const std::vector<int>& ks = row.kernels[col];
      if (above[col] && *above[col] != ks) darker[col] = !darker[col];
      above[col] = &ks;
      if (ks.empty()) {
        TextMuted(lineup_cell(ks, lang));
        continue;
      }
      const ImU32 alpha = darker[col] ? 0x55u : 0x28u;
      ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, (PartitionColor(r.columns[col].id) & 0x00FFFFFFu) | (alpha << 24));
      ImGui::TextUnformatted(lineup_cell(ks, lang).c_str());
      if (i == 0) RecordWidget("lineup.first." + std::string(partition_key(r.columns[col].id)));  // for tests to hover
      if (ImGui::IsItemHovered()) {
        const PartitionReport& p = r.columns[col];
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(p.name.c_str());
        for (int k : ks) {
          ImGui::Separator();
          KernelTooltip(p.kernels[static_cast<size_t>(k)], p.cost.kernels > 0 ? p.cost.overhead / static_cast<double>(p.cost.kernels) : 0,
                        cost_model_of(r.config.hw), lang);
        }
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndTable();
}

// Each compiler beside what torch.compile generated on an H200, where this configuration was measured.
void draw_measured(const LineupReport& r) {
  for (const LineupMeasured& m : r.measured) {
    ImGui::TextWrapped("%s", m.text.c_str());
    RecordShown("lineup.same_names." + std::string(partition_key(m.column)), m.same_names);
  }
}

}  // namespace

const LineupReport* ShownLineup(State& state) {
  const bool decode = ExplainDecode(state.settings, state.explain);
  LineupCache& cache = state.caches.lineup;
  const Lang lang = state.settings.lang;
  if (cache.generation != state.results_generation || cache.decode != decode || cache.lang != lang) {
    cache = LineupCache{state.results_generation, decode, lang, std::nullopt, ""};
    try {
      cache.report = lineup_report(MakeAnalysisConfig(state.settings, decode ? 3 : 2));
    } catch (const std::exception& e) {
      cache.error = e.what();
    }
  }
  return cache.report ? &*cache.report : nullptr;
}

void DrawCompilersPanel(State& state) {
  const Lang lang = state.settings.lang;
  const bool embedded = EmbedLayout();  // a slide: the steps first, the rest behind a disclosure
  if (!embedded) ImGui::TextWrapped("%s", Tx(Ui::CompilersIntro, lang));
  ExplainState& e = state.explain;
  const bool decode = ExplainDecode(state.settings, e);
  if (ImGui::RadioButton(Tx(Ui::TabPrefill, lang), !decode)) e.phase = 0;
  RecordWidget("phase.prefill");
  ImGui::SameLine();
  if (ImGui::RadioButton(Tx(Ui::TabDecode, lang), decode)) e.phase = 1;
  RecordWidget("phase.decode");
  const LineupReport* r = ShownLineup(state);
  if (!r) {
    TextError(state.caches.lineup.error);
    return;
  }
  DrawViewHeader(r->title, r->config, lang);
  DrawExportRow("lineup_export", [r] { return lineup_csv(*r); }, nullptr, JsonOf(*r),
                r->demo == 3 ? "fusionlab-compilers-decode" : "fusionlab-compilers-prefill", lang);
  if (!embedded) {
    draw_totals(*r, lang);
    draw_measured(*r);
    ImGui::Spacing();
  }
  const float em = ImGui::GetFontSize();
  if (embedded && ImGui::GetContentRegionAvail().x >= em * 45) {  // a slide, wide and short: two tables side by side
    const size_t half = (r->rows.size() + 1) / 2;
    draw_steps(*r, 0, half, "lineup.steps", 22, lang);
    ImGui::SameLine(0, em);
    draw_steps(*r, half, r->rows.size(), "lineup.steps2", 22, lang);
  } else {
    draw_steps(*r, 0, r->rows.size(), "lineup.steps", 26, lang);
  }
  if (!embedded) DrawObservations(r->observations, lang);
  if (!BeginDetails(lang)) return;
  if (embedded) DrawObservations(r->observations, lang);
  TextMuted(Tx(Ui::CompilersLegend, lang));
  if (!embedded) return;
  draw_totals(*r, lang);
  draw_measured(*r);
  ImGui::TextWrapped("%s", Tx(Ui::CompilersIntro, lang));
}

}  // namespace fl::web
