#include "web/a11y.h"

#include <emscripten.h>

#include <algorithm>

#include "core/json_writer.h"
#include "core/partitions.h"
#include "core/units.h"
#include "web/caption.h"
#include "web/explain.h"
#include "page/field_labels.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

EM_JS(void, js_set_accessible_view, (const char* json), {
  window.fusionlab.setAccessibleView(JSON.parse(UTF8ToString(json)));
});

TextTable partitions_table(const PhaseReport& r, Lang lang) {
  TextTable t{r.title,
              {Tx(Ui::ColIndex, lang), Tx(Ui::ColPartition, lang), Tx(Ui::ColKernels, lang), Tx(Ui::ColBytes, lang),
               Tx(TimeColumn(r.config.hw), lang), Tx(Ui::ColWithOverhead, lang), Tx(Ui::ColSpeedup, lang)},
              {}};
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    const PartitionReport& p = r.partitions[i];
    t.rows.push_back({std::to_string(i + 1), p.name, std::to_string(p.cost.kernels), fmt_bytes(p.cost.bytes), fmt_time(p.cost.t),
                      fmt_time(p.cost.t_total), fmt_ratio(p.speedup)});
  }
  return t;
}

TextTable kernels_table(const std::string& caption, const std::vector<KernelReport>& kernels, Lang lang) {
  TextTable t{caption,
              {Tx(Ui::ColIndex, lang), Tx(Ui::ColKind, lang), Tx(Ui::ColOps, lang), Tx(Ui::ColReads, lang),
               Tx(Ui::ColWrites, lang), Tx(Ui::ColTime, lang)},
              {}};
  for (const KernelReport& k : kernels)
    t.rows.push_back({std::to_string(k.index), std::string(kernel_kind_name(k.kind)), k.label, fmt_bytes(static_cast<double>(k.reads)),
                      fmt_bytes(static_cast<double>(k.writes)), fmt_time(k.t)});
  return t;
}

std::vector<TextTable> ablation_tables(const AblationReport& r, Lang lang) {
  TextTable paper{r.title + " (" + r.source + ")", r.columns, {}};
  for (const PaperAblationRow& row : r.rows) paper.rows.push_back({row.setting, fmt_ratio(row.inference), fmt_ratio(row.training)});
  TextTable ours{r.ours.title, r.ours.columns, {}};
  for (const OurAblationRow& row : r.ours.rows) ours.rows.push_back({row.setting, fmt_ratio(row.prefill), fmt_ratio(row.decode)});
  if (!r.torch_compile) return {paper, ours};
  AblationTable t = ablation_table(*r.torch_compile, lang);
  return {paper, ours, {r.torch_compile->title, std::move(t.columns), std::move(t.rows)}};
}

TextTable sweep_table(const Sweep& s, Lang lang) {
  const std::string key(sweep_key_name(s.key));
  TextTable t{Tx(Ui::TabSweep, lang), {FieldLabel(key, lang)}, {}};
  for (PartitionId id : s.partitions) t.headers.push_back(Tx(sweep_partition_text(s, id), lang));
  for (const SweepPoint& p : s.points) {
    std::vector<std::string> row{std::to_string(p.value)};
    for (const GraphCost& g : p.partitions) row.push_back(fmt_time(g.t_total));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The reality check's chosen op, token count by token count.
TextTable reality_table(const RealityReport& r, const ExplainState& e, const std::string& caption, Lang lang) {
  TextTable t{caption,
              {Tx(Ui::RealityColTokens, lang), Tx(Ui::RealityColMeasured, lang), Tx(Ui::RealityColRoofline, lang),
               Tx(Ui::RealityColCalibrated, lang)},
              {}};
  std::vector<const OpValidation*> rows;
  for (const OpValidation& row : r.profiles[RealityProfileIndex(e)].validation.rows)
    if (row.op == RealityOp(e)) rows.push_back(&row);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->num_tokens < b->num_tokens; });
  for (const OpValidation* row : rows)
    t.rows.push_back({std::to_string(row->num_tokens), fmt_exact(row->measured_us), fmt_exact(row->roofline_us),
                      row->calibrated_us ? fmt_exact(*row->calibrated_us) : ""});
  return t;
}

// The compilers view: each step of the layer and the kernels that compute it under each compiler.
TextTable lineup_table(const LineupReport& r, Lang lang) {
  TextTable t{r.title, {Tx(Text::LineupStep, lang)}, {}};
  for (const PartitionReport& p : r.columns) t.headers.push_back(p.name);
  for (const LineupRow& row : r.rows) {
    std::vector<std::string> cells{row.text};
    for (const std::vector<int>& ks : row.kernels) cells.push_back(lineup_cell(ks, lang));
    t.rows.push_back(std::move(cells));
  }
  return t;
}

// What the tables depend on, cheap to compare every frame.
std::string key_of(const State& state) {
  const Settings& s = state.settings;
  const ExplainState& e = state.explain;
  return ViewCaption(state) + "|" + std::to_string(state.results_generation) + "|" + std::to_string(s.partition) + "|" +
         std::to_string(e.phase) + "|" + std::to_string(e.stage) + "|" +
         (s.view == View::Sweep ? std::to_string(state.caches.sweep.ShownCount()) : "") + "|" +
         (state.caches.reality ? "reality" : "") + "|" + (state.caches.lineup.report ? "lineup" : "");
}

}  // namespace

std::vector<TextTable> ViewTables(const State& state) {
  const Settings& s = state.settings;
  const Lang lang = s.lang;
  const Results& r = state.results;
  switch (s.view) {
    case View::Kernels: return {kernels_table(r.kernels.title, r.kernels.kernels, lang)};
    case View::Prefill:
    case View::Source: return {partitions_table(r.prefill, lang)};
    case View::Decode: return {partitions_table(r.decode, lang)};
    case View::Ablation: return ablation_tables(r.ablation, lang);
    case View::Passes: {
      TextTable t{Tx(Ui::TabPasses, lang), {Tx(Ui::ColStage, lang), Tx(Ui::ColNodes, lang)}, {}};
      for (const StageReport& st : r.kernels.stages) t.rows.push_back({std::string(stage_name(st.stage)), std::to_string(st.nodes.size())});
      return {t};
    }
    case View::Roofline:
    case View::Timeline: {
      const PhaseReport& ph = ExplainDecode(s, state.explain) ? r.decode : r.prefill;
      if (ph.partitions.empty()) return {};
      const size_t i = static_cast<size_t>(std::clamp(s.partition, 0, static_cast<int>(ph.partitions.size()) - 1));
      return {kernels_table(ph.title + " · " + ph.partitions[i].name, ph.partitions[i].kernels, lang)};
    }
    case View::Sweep:
      if (const Sweep* sweep = ShownSweep(state)) return {sweep_table(*sweep, lang)};
      return {};
    case View::Compilers:
      if (state.caches.lineup.report) return {lineup_table(*state.caches.lineup.report, lang)};
      return {};
    case View::Reality:
      if (state.caches.reality) return {reality_table(*state.caches.reality, state.explain, ViewCaption(state), lang)};
      return {};
  }
  return {};
}

void SyncAccessibility(State& state) {
  std::string key = key_of(state);
  if (key == state.caches.accessible_view) return;
  state.caches.accessible_view = std::move(key);
  std::string text;
  JsonWriter w(text);
  w.object([&] {
    w.field("name", ViewCaption(state));
    w.key("tables");
    w.array([&] {
      for (const TextTable& t : ViewTables(state))
        w.object([&] {
          w.field("caption", t.caption);
          w.field("headers", t.headers);
          w.field("rows", t.rows);
        });
    });
  });
  js_set_accessible_view(text.c_str());
}

}  // namespace fl::web
