// Demo 4: the PyTorch 2 paper's ablation (published figures, quoted), with
// our own figures for the same effects beside them in the observations.
#include <algorithm>

#include "core/ablation.h"
#include "core/demos/demos.h"
#include "core/demos/observations.h"
#include "core/measured/h200_ablation.h"
#include "core/measured/h200_inductor.h"
#include "core/units.h"

namespace fl::demos {

namespace {

struct PaperRow {
  std::string_view id;  // stable, for JSON and CSV readers
  Text setting;
  double inference, training;
};

// Ansel et al., ASPLOS 2024, Table 4.
constexpr PaperRow kPaperTable4[] = {
    {"all", Text::AblAll, 1.91, 1.45},
    {"no_loop_reordering", Text::AblNoReorder, 1.91, 1.28},
    {"no_matmul_templates", Text::AblNoTemplates, 1.85, 1.41},
    {"no_parameter_freezing", Text::AblNoFreezing, 1.85, 1.45},
    {"no_pattern_matching", Text::AblNoPatterns, 1.83, 1.45},
    {"no_cuda_graphs", Text::AblNoCudaGraphs, 1.81, 1.37},
    {"no_fusion", Text::AblNoFusion, 1.68, 1.27},
    {"no_inlining", Text::AblNoInlining, 1.58, 1.31},
    {"no_fusion_no_inlining", Text::AblNoFusionInlining, 0.80, 0.59},
};

// Whether our compiler's ablation has the paper's shape: everything on is
// fastest, fusion and inlining both off slowest, one off in between.
Observation ours_observation(const AnalysisConfig& c, const std::vector<OurAblationRow>& rows) {
  const OurAblationRow &all = rows[0], &no_fusion = rows[1], &no_inlining = rows[2], &neither = rows[7];
  bool same = true;
  for (auto phase : {&OurAblationRow::prefill, &OurAblationRow::decode}) {
    const double a = all.*phase, f = no_fusion.*phase, i = no_inlining.*phase, n = neither.*phase;
    same = same && a >= f && a >= i && n <= f && n <= i;
  }
  const std::vector<std::string> args{workload_name(c, c.lang), fmt_ratio(all.prefill), fmt_ratio(all.decode),
                                      fmt_ratio(neither.prefill), fmt_ratio(neither.decode), fmt_ratio(no_fusion.prefill),
                                      fmt_ratio(no_fusion.decode), fmt_ratio(no_inlining.prefill), fmt_ratio(no_inlining.decode)};
  if (same) return {"ablation_ours_same_shape", tr(Text::Demo4Obs5, c.lang, args)};
  return {"ablation_ours_other_shape", tr(Text::Demo4Obs5Other, c.lang, args)};
}

// Measured eager taking this many times its kernels' GPU time (the same kernels
// replayed as one CUDA graph) was paced by the CPU's launches, not by the GPU.
constexpr double kLaunchBoundRatio = 1.5;

std::string phase_name(bool decode, Lang L) { return std::string(tr(decode ? Text::ColDecode : Text::ColPrefill, L)); }

// Under the Inductor model, where `c` is the measured setup: each row beside
// the same row measured on the H200, with how ours differs (the compiled
// call's time), and, once per phase, eager's time, which every row's speed-up
// divides, and what bounded it when measured.
void add_measured(const AnalysisConfig& c, const std::vector<AblationEntry>& entries, OurAblationReport& r) {
  const Lang L = c.lang;
  bool any = false;
  for (size_t i = 0; i < entries.size(); ++i) {
    const AblationEntry& e = entries[i];
    OurAblationRow& row = r.rows[i];
    for (const bool decode : {false, true}) {
      const MeasuredAblationRow* m = measured_ablation_row(c, decode, e.id);
      if (!m) continue;
      any = true;
      (decode ? row.measured_decode : row.measured_prefill) =
          MeasuredAblationCell{m->speedup, m->launches, m->compiled_ms, m->eager_ms};
      if (e.not_modelled) continue;  // its not_modelled says why ours is missing
      if (!row.versus_measured.empty()) row.versus_measured += tr(Text::AblVersusJoin, L);
      row.versus_measured += tr(Text::AblVersusPhase, L,
                                {phase_name(decode, L), fmt_ratio(decode ? e.decode_speedup : e.prefill_speedup),
                                 fmt_ratio(m->speedup), std::to_string(decode ? e.decode_kernels : e.prefill_kernels),
                                 std::to_string(m->launches), fmt_time(decode ? e.decode_s : e.prefill_s),
                                 fmt_time(m->compiled_ms * 1e-3)});
    }
  }
  r.measured_source = any ? tr(Text::AblMeasuredSource, L, {std::string(kH200InductorSource)})
                          : std::string(tr(Text::AblMeasuredNone, L));
  for (const bool decode : {false, true}) {
    const MeasuredAblationRow* m = measured_ablation_row(c, decode, entries[0].id);
    if (!m) continue;
    const double ratio = m->eager_ms / m->eager_cuda_graph_ms;
    r.measured_notes.push_back(tr(
        Text::AblEagerNote, L,
        {phase_name(decode, L), fmt_time(m->eager_ms * 1e-3), fmt_time(m->eager_cuda_graph_ms * 1e-3), fmt_ratio(ratio),
         std::string(tr(ratio >= kLaunchBoundRatio ? Text::AblEagerCpuBound : Text::AblEagerGpuBound, L)),
         fmt_time(decode ? entries[0].decode_eager_s : entries[0].prefill_eager_s), fmt_time(c.hw.launch)}));
  }
}

}  // namespace

}  // namespace fl::demos

namespace fl {

using namespace demos;

OurAblationReport our_ablation_report(const AnalysisConfig& c) {
  Lang L = c.lang;
  OurAblationReport r;
  r.cost = cost_model_of(c.hw);
  const std::vector<AblationEntry> entries = run_ablation(c);
  for (const AblationEntry& e : entries) {
    std::string name = e.setting == Text::OurNoCudaGraphs ? tr(e.setting, L, {fmt_time(c.hw.launch), fmt_time(c.hw.graph_launch)})
                                                          : std::string(tr(e.setting, L));
    OurAblationRow& row = r.rows.emplace_back();
    row.id = e.id;
    row.setting = std::move(name);
    if (e.not_modelled) row.not_modelled = tr(*e.not_modelled, L);
    row.prefill = e.prefill_speedup, row.decode = e.decode_speedup;
    row.prefill_kernels = e.prefill_kernels, row.decode_kernels = e.decode_kernels;
    row.prefill_bytes = e.prefill_bytes, row.decode_bytes = e.decode_bytes;
  }
  const bool inductor = c.shown_compiler() == Compiler::Inductor;
  if (inductor) add_measured(c, entries, r);
  r.title = tr(inductor ? Text::InductorAblationTitle : Text::OurAblationTitle, L,
               {workload_name(c, L), token_count(c.tokens, L), fmt_count(static_cast<double>(c.kv_len)),
                std::string(attention_form_key(c.traced_attention())), hardware_name(c, L)});
  r.columns = {std::string(tr(inductor ? Text::ColSetting : Text::ColOurSetting, L)), std::string(tr(Text::ColPrefill, L)),
               std::string(tr(Text::ColDecode, L))};
  return r;
}

AblationReport ablation_report(const AnalysisConfig& c) {
  Lang L = c.lang;
  AblationReport r;
  r.title = tr(Text::Demo4Title, L);
  r.source = tr(Text::AblationSource, L);
  r.columns = {std::string(tr(Text::ColSetting, L)), std::string(tr(Text::ColInference, L)), std::string(tr(Text::ColTraining, L))};
  for (const PaperRow& p : kPaperTable4) r.rows.push_back({std::string(p.id), std::string(tr(p.setting, L)), p.inference, p.training});
  const PaperRow &all = kPaperTable4[0], &no_graphs = kPaperTable4[5], &no_fusion = kPaperTable4[6],
                    &no_inline = kPaperTable4[7], &neither = kPaperTable4[8];

  // Demo 2's decomposed speed-up and demo 3's FlashAttention overhead share,
  // from the same partitions, without their JSON (a whole model's is large);
  // one phase's partitions at a time, let go once read.
  const double dec_speedup = [&] {
    const std::vector<Partition> prefill = phase_partitions(c, false);
    return prefill[0].cost.t_total / prefill[1].cost.t_total;
  }();
  const double decode_share = [&] {
    const std::vector<Partition> decode = phase_partitions(c, true);
    return decode[3].cost.overhead / decode[3].cost.t_total;
  }();

  std::vector<Observation>& obs = r.observations;
  const std::string dec_speed = fmt_ratio(dec_speedup);
  if (dec_speedup < 1)
    obs.push_back({"ablation_unfused_slower_than_eager",
                   tr(Text::Demo4Obs1, L, {fmt_ratio(neither.inference), fmt_ratio(neither.training), dec_speed})});
  else
    obs.push_back({"ablation_unfused_not_slower_here",
                   tr(Text::Demo4Obs1NotHere, L, {fmt_ratio(neither.inference), fmt_ratio(neither.training), dec_speed})});
  obs.push_back({"ablation_fusion_inlining_overlap",
                 tr(Text::Demo4Obs2, L, {fmt_ratio(no_fusion.inference), fmt_ratio(no_inline.inference)})});
  obs.push_back({"ablation_cuda_graphs",
                 tr(Text::Demo4Obs3, L, {fmt_ratio(all.inference - no_graphs.inference), fmt_percent(decode_share)})});
  obs.push_back({"ablation_freezing_patterns", std::string(tr(Text::Demo4Obs4, L))});
  r.ours = our_ablation_report(c);
  obs.push_back(ours_observation(c, r.ours.rows));
  // torch.compile's own rows under the Inductor model, for one layer written as
  // PyTorch users write it (the lecture's attention becomes math: what was measured).
  if (!c.whole_model) {
    AnalysisConfig layer = c;
    layer.demo = 2;
    layer.compiler = Compiler::Inductor;
    if (layer.attention == AttentionForm::Lecture) layer.attention = AttentionForm::Math;
    r.torch_compile = our_ablation_report(layer);
  }
  return r;
}

}  // namespace fl

namespace fl {

AblationTable ablation_table(const OurAblationReport& r, Lang lang) {
  const bool measured = std::any_of(r.rows.begin(), r.rows.end(), [](const OurAblationRow& row) {
    return row.measured_prefill || row.measured_decode;
  });
  const std::string none(tr(Text::LineupNone, lang));
  auto measured_cell = [&](const std::optional<MeasuredAblationCell>& m) {
    return m ? fmt_ratio(m->speedup) + " (" + std::to_string(m->launches) + ")" : none;
  };
  AblationTable t{r.columns, {}};
  if (measured) {
    t.columns.emplace_back(tr(Text::ColMeasuredPrefill, lang));
    t.columns.emplace_back(tr(Text::ColMeasuredDecode, lang));
  }
  for (const OurAblationRow& row : r.rows) {
    const bool computed = row.not_modelled.empty();
    std::vector<std::string>& cells = t.rows.emplace_back(std::vector<std::string>{
        row.setting, computed ? fmt_ratio(row.prefill) : none, computed ? fmt_ratio(row.decode) : none});
    if (measured) {
      cells.push_back(measured_cell(row.measured_prefill));
      cells.push_back(measured_cell(row.measured_decode));
    }
  }
  return t;
}

}  // namespace fl
