// Each measured torch.compile run beside the lab's model of its compiler:
// kernels, and the time of one call predicted (our kernels' roofline time plus
// a fixed cost per kernel) and measured, launched kernel by kernel from Python
// and replayed as one CUDA graph.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/measured/h200_inductor.h"
#include "core/measured/op_profile.h"
#include "core/partitions.h"

namespace fl {

// One launch of the measured call beside our kernel at the same place.
struct KernelComparison {
  std::string launch;       // the measured launch, as Inductor named it
  std::string name, label;  // our kernel's name and ops
  double predicted_us = 0;  // its roofline time, without the fixed cost
  std::optional<double> measured_us;  // a Triton kernel's profiler time per call; none for an extern call
  std::vector<KernelEdge> ends;       // why each value our kernel writes leaves it (the model's reasons)
};

struct RunComparison {
  const MeasuredRun* run = nullptr;
  std::string compiler;          // inductor, gpt-fast: the key of the model that reproduces the run
  int kernels = 0;               // our model's
  int measured_kernels = 0;      // the run's launches
  double roofline_s = 0;         // our kernels' summed roofline time
  double predicted_s = 0;        // + hw.launch per kernel
  double predicted_graph_s = 0;  // + hw.graph_launch per kernel
  // Our kernels under the GPU's calibrated model (op_profile.h: its peaks
  // times fitted efficiencies, each kernel plus the fitted fixed cost), beside
  // the CUDA graph's time, the measured call with the least launch overhead;
  // set by compare_with_measured, none for a GPU without a shipped profile.
  std::optional<double> calibrated_s;
  double measured_s = 0, measured_graph_s = 0;
  // Launch by launch, where our list is as long as the measured one; and the
  // GPU time split into the Triton kernels (those with a profiler row) and
  // the rest (our extern calls: cuBLAS, attention; measured: every other row).
  std::vector<KernelComparison> kernel_rows;
  double triton_predicted_us = 0, triton_measured_us = 0;
  double extern_predicted_us = 0, extern_measured_us = 0;
  double ratio() const { return predicted_s / measured_s; }
  double graph_ratio() const { return predicted_graph_s / measured_graph_s; }
  std::optional<double> calibrated_ratio() const {
    return calibrated_s ? std::optional<double>(*calibrated_s / measured_graph_s) : std::nullopt;
  }
  // What the call costs beyond our roofline time, per kernel it launched.
  double measured_fixed_per_kernel() const { return (measured_s - roofline_s) / measured_kernels; }
  double measured_graph_fixed_per_kernel() const { return (measured_graph_s - roofline_s) / measured_kernels; }
};

struct CompilerComparison {
  std::vector<RunComparison> runs;
  std::vector<std::string> not_modelled;  // ids of the runs of a mode the lab does not model
  double median_ratio = 0, median_graph_ratio = 0;
  // Calibrated / CUDA graph, where the GPU has a calibration: all runs, prefill's, decode's.
  std::optional<double> median_calibrated_ratio, median_calibrated_prefill, median_calibrated_decode;
  // Medians over the decode runs, where the fixed costs weigh most.
  double decode_fixed_per_kernel = 0, decode_graph_fixed_per_kernel = 0;
  double launch_s = 0, graph_launch_s = 0;  // what the model assumes (the H200 preset)
  std::string hardware_key;                 // that preset's key
};

// One run beside `p`, our model's partition of it under `c` (config_of(run),
// or the page's configuration with its own fixed costs per kernel).
RunComparison compare_run(const MeasuredRun& run, const AnalysisConfig& c, const Partition& p);

// Every run of h200_inductor_runs() that the lab models.
CompilerComparison compare_with_measured();

}  // namespace fl
