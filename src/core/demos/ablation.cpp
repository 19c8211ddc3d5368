// Demo 4: the PyTorch 2 paper's ablation (published figures, quoted), with
// our own figures for the same effects beside them in the observations.
#include "core/ablation.h"
#include "core/demos/demos.h"
#include "core/demos/observations.h"
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

}  // namespace

}  // namespace fl::demos

namespace fl {

using namespace demos;

OurAblationReport our_ablation_report(const AnalysisConfig& c) {
  Lang L = c.lang;
  OurAblationReport r;
  r.cost = cost_model_of(c.hw);
  for (const AblationEntry& e : run_ablation(c)) {
    std::string name = e.setting == Text::OurNoCudaGraphs ? tr(e.setting, L, {fmt_time(c.hw.launch), fmt_time(c.hw.graph_launch)})
                                                          : std::string(tr(e.setting, L));
    r.rows.push_back({std::string(e.id), std::move(name), e.not_modelled ? std::string(tr(*e.not_modelled, L)) : "",
                      e.prefill_speedup, e.decode_speedup, e.prefill_kernels, e.decode_kernels, e.prefill_bytes,
                      e.decode_bytes});
  }
  const bool inductor = c.shown_compiler() == Compiler::Inductor;
  r.title = tr(inductor ? Text::InductorAblationTitle : Text::OurAblationTitle, L, {workload_name(c, L), fmt_count(static_cast<double>(c.tokens)), fmt_count(static_cast<double>(c.kv_len))});
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
  return r;
}

}  // namespace fl
