#include "core/measured/comparison.h"

#include <algorithm>

#include "core/cost.h"
#include "core/measured/percentile.h"
#include "core/partitions.h"

namespace fl {

RunComparison compare_run(const MeasuredRun& run, const AnalysisConfig& c, const Partition& p) {
  const GraphCost& cost = p.cost;
  RunComparison r;
  r.run = &run;
  r.compiler = std::string(compiler_key(c.compiler));
  r.kernels = cost.kernels;
  r.measured_kernels = static_cast<int>(run.launches.size());
  r.roofline_s = cost.t;
  r.predicted_s = cost.t + cost.kernels * c.hw.launch;
  r.predicted_graph_s = cost.t + cost.kernels * c.hw.graph_launch;
  r.measured_s = run.compiled_ms * 1e-3;
  r.measured_graph_s = run.compiled_cuda_graph_ms * 1e-3;
  if (p.kernels.size() != run.launches.size()) return r;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const Kernel& k = p.kernels[i];
    KernelComparison row{run.launches[i], k.name, k.label, kernel_time(k, c.hw) * 1e6, run.launch_us(run.launches[i]), k.ends};
    if (row.measured_us) {
      r.triton_predicted_us += row.predicted_us;
      r.triton_measured_us += *row.measured_us;
    } else {
      r.extern_predicted_us += row.predicted_us;
    }
    r.kernel_rows.push_back(std::move(row));
  }
  r.extern_measured_us = run.extern_us();
  return r;
}

CompilerComparison compare_with_measured() {
  CompilerComparison out;
  std::vector<double> ratios, graph_ratios, calibrated_ratios, fixed, graph_fixed;
  std::vector<double> calibrated_by_phase[2];  // prefill, decode
  // The runs' GPU's calibrated model (all were measured on one), for the
  // calibrated column; the page's observation (compare_run alone) does not show it.
  std::optional<FittedCalibration> fitted;
  for (const MeasuredRun& run : h200_inductor_runs()) {
    const std::optional<AnalysisConfig> c = config_of(run);
    if (!c) {
      out.not_modelled.push_back(run.id);
      continue;
    }
    out.launch_s = c->hw.launch;
    out.hardware_key = c->hardware_key;
    if (!fitted) fitted = calibration_for(c->hardware_key);
    out.graph_launch_s = c->hw.graph_launch;
    const Partition p = make_partition(*compiler_partition(c->compiler), c->traced_graph(run.decode), c->binding(), c->hw);
    RunComparison& r = out.runs.emplace_back(compare_run(run, *c, p));
    if (fitted) {
      double t = 0;
      for (const Kernel& k : p.kernels) t += fitted->calibration.seconds(kernel_sides(k, c->hw));
      r.calibrated_s = t;
    }
    ratios.push_back(r.ratio());
    graph_ratios.push_back(r.graph_ratio());
    if (r.calibrated_s) {
      calibrated_ratios.push_back(*r.calibrated_ratio());
      calibrated_by_phase[run.decode].push_back(*r.calibrated_ratio());
    }
    if (run.decode) {
      fixed.push_back(r.measured_fixed_per_kernel());
      graph_fixed.push_back(r.measured_graph_fixed_per_kernel());
    }
  }
  out.median_ratio = percentile(ratios, 0.5);
  out.median_graph_ratio = percentile(graph_ratios, 0.5);
  auto median = [](const std::vector<double>& v) { return v.empty() ? std::nullopt : std::optional<double>(percentile(v, 0.5)); };
  out.median_calibrated_ratio = median(calibrated_ratios);
  out.median_calibrated_prefill = median(calibrated_by_phase[0]);
  out.median_calibrated_decode = median(calibrated_by_phase[1]);
  out.decode_fixed_per_kernel = percentile(fixed, 0.5);
  out.decode_graph_fixed_per_kernel = percentile(graph_fixed, 0.5);
  return out;
}

}  // namespace fl
