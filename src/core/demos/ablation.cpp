// Demo 4: the PyTorch 2 paper's ablation (published figures, quoted), with
// our own figures for the same effects beside them in the observations.
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

json ablation_demo(const AnalysisConfig& c) {
  Lang L = c.lang;
  json rows = json::array();
  for (const AblationRow& r : kPaperTable4)
    rows.push_back({{"setting", tr(r.setting, L)}, {"inference", r.inference}, {"training", r.training}});
  const AblationRow &all = kPaperTable4[0], &no_graphs = kPaperTable4[5], &no_fusion = kPaperTable4[6],
                    &no_inline = kPaperTable4[7], &neither = kPaperTable4[8];

  AnalysisConfig prefill = c, decode = c;
  prefill.demo = 2;
  decode.demo = 3;
  json d2 = prefill_demo(prefill), d3 = decode_demo(decode);
  double dec_speedup = d2["partitions"][1]["speedup"];
  double decode_share = d3["partitions"][3]["overhead_share"];

  json obs = json::array();
  obs.push_back(tr(Text::Demo4Obs1, L, {fmt_ratio(neither.inference), fmt_ratio(neither.training), fmt_ratio(dec_speedup)}));
  obs.push_back(tr(Text::Demo4Obs2, L, {fmt_ratio(no_fusion.inference), fmt_ratio(no_inline.inference)}));
  obs.push_back(tr(Text::Demo4Obs3, L, {fmt_ratio(all.inference - no_graphs.inference), fmt_percent(decode_share)}));
  obs.push_back(tr(Text::Demo4Obs4, L));

  return {{"demo", 4},
          {"title", tr(Text::Demo4Title, L)},
          {"source", tr(Text::AblationSource, L)},
          {"columns", {tr(Text::ColSetting, L), tr(Text::ColInference, L), tr(Text::ColTraining, L)}},
          {"rows", rows},
          {"observations", obs}};
}

}  // namespace fl::demos
