// Each measured torch.compile run beside the lab's model of its compiler:
// kernels, and the time of one call predicted (our kernels' roofline time plus
// a fixed cost per kernel) and measured, launched kernel by kernel from Python
// and replayed as one CUDA graph.
#pragma once

#include <string>
#include <vector>

#include "core/measured/h200_inductor.h"

namespace fl {

struct RunComparison {
  const MeasuredRun* run = nullptr;
  std::string compiler;          // inductor, gpt-fast: the key of the model that reproduces the run
  int kernels = 0;               // our model's
  int measured_kernels = 0;      // the run's launches
  double roofline_s = 0;         // our kernels' summed roofline time
  double predicted_s = 0;        // + hw.launch per kernel
  double predicted_graph_s = 0;  // + hw.graph_launch per kernel
  double measured_s = 0, measured_graph_s = 0;
  double ratio() const { return predicted_s / measured_s; }
  double graph_ratio() const { return predicted_graph_s / measured_graph_s; }
  // What the call costs beyond our roofline time, per kernel it launched.
  double measured_fixed_per_kernel() const { return (measured_s - roofline_s) / measured_kernels; }
  double measured_graph_fixed_per_kernel() const { return (measured_graph_s - roofline_s) / measured_kernels; }
};

struct CompilerComparison {
  std::vector<RunComparison> runs;
  std::vector<std::string> not_modelled;  // ids of the runs of a mode the lab does not model
  double median_ratio = 0, median_graph_ratio = 0;
  // Medians over the decode runs, where the fixed costs weigh most.
  double decode_fixed_per_kernel = 0, decode_graph_fixed_per_kernel = 0;
  double launch_s = 0, graph_launch_s = 0;  // what the model assumes (the H200 preset)
};

// Every run of h200_inductor_runs() that the lab models.
CompilerComparison compare_with_measured();

}  // namespace fl
