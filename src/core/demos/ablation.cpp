// Demo 4: the PyTorch 2 paper's ablation (published figures, quoted), with
// our own figures for the same effects beside them in the observations.
#include "core/ablation.h"
#include "core/demos/demos.h"
#include "core/units.h"

namespace fl::demos {

namespace {

struct AblationRow {
  Text setting;
  double inference, training;
};

// Ansel et al., ASPLOS 2024, Table 4.
constexpr AblationRow kPaperTable4[] = {
    {Text::AblAll, 1.91, 1.45},        {Text::AblNoReorder, 1.91, 1.28},  {Text::AblNoTemplates, 1.85, 1.41},
    {Text::AblNoFreezing, 1.85, 1.45}, {Text::AblNoPatterns, 1.83, 1.45}, {Text::AblNoCudaGraphs, 1.81, 1.37},
    {Text::AblNoFusion, 1.68, 1.27},   {Text::AblNoInlining, 1.58, 1.31}, {Text::AblNoFusionInlining, 0.80, 0.59},
};

}  // namespace

json our_ablation(const AnalysisConfig& c) {
  Lang L = c.lang;
  json rows = json::array();
  for (const AblationEntry& e : run_ablation(c)) {
    std::string name = e.setting == Text::OurNoCudaGraphs ? tr(e.setting, L, {fmt_time(c.hw.launch), fmt_time(c.hw.graph_launch)})
                                                          : std::string(tr(e.setting, L));
    rows.push_back({{"setting", name},
                    {"prefill", e.prefill_speedup},
                    {"decode", e.decode_speedup},
                    {"prefill_kernels", e.prefill_kernels},
                    {"decode_kernels", e.decode_kernels},
                    {"prefill_bytes", e.prefill_bytes},
                    {"decode_bytes", e.decode_bytes}});
  }
  return {{"title", tr(Text::OurAblationTitle, L, {workload_name(c, L), std::to_string(c.tokens), std::to_string(c.kv_len)})},
          {"columns", {tr(Text::ColOurSetting, L), tr(Text::ColPrefill, L), tr(Text::ColDecode, L)}},
          {"rows", rows}};
}

json ablation_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  json rows = json::array();
  for (const AblationRow& r : kPaperTable4)
    rows.push_back({{"setting", tr(r.setting, L)}, {"inference", r.inference}, {"training", r.training}});
  const AblationRow &all = kPaperTable4[0], &no_graphs = kPaperTable4[5], &no_fusion = kPaperTable4[6],
                    &no_inline = kPaperTable4[7], &neither = kPaperTable4[8];

  // Demo 2's decomposed speed-up and demo 3's FlashAttention overhead share,
  // from the same partitions, without their JSON (a whole model's is large).
  const std::vector<Partition> prefill = phase_partitions(c, false), decode = phase_partitions(c, true);
  const double dec_speedup = prefill[0].cost.t_total / prefill[1].cost.t_total;
  const double decode_share = decode[3].cost.overhead / decode[3].cost.t_total;

  json obs = json::array();
  obs.push_back(tr(Text::Demo4Obs1, L, {fmt_ratio(neither.inference), fmt_ratio(neither.training), fmt_ratio(dec_speedup)}));
  obs.push_back(tr(Text::Demo4Obs2, L, {fmt_ratio(no_fusion.inference), fmt_ratio(no_inline.inference)}));
  obs.push_back(tr(Text::Demo4Obs3, L, {fmt_ratio(all.inference - no_graphs.inference), fmt_percent(decode_share)}));
  obs.push_back(tr(Text::Demo4Obs4, L));
  json ours = our_ablation(c);
  const json& r = ours["rows"];  // all, no fusion, no inlining, ..., no fusion and no inlining
  auto x = [&](size_t i, const char* col) { return fmt_ratio(r[i][col].get<double>()); };
  obs.push_back(tr(Text::Demo4Obs5, L, {workload_name(c, L), x(0, "prefill"), x(0, "decode"), x(7, "prefill"), x(7, "decode"),
                                        x(1, "prefill"), x(1, "decode"), x(2, "prefill"), x(2, "decode")}));

  return {{"demo", 4},
          {"title", tr(Text::Demo4Title, L)},
          {"source", tr(Text::AblationSource, L)},
          {"columns", {tr(Text::ColSetting, L), tr(Text::ColInference, L), tr(Text::ColTraining, L)}},
          {"rows", rows},
          {"ours", ours},
          {"observations", obs}};
}

}  // namespace fl::demos
