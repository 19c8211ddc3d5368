// The PyTorch 2 paper's Table 4 rows measured for one Llama-3.1-8B layer on an
// NVIDIA H200: torch.compile with one optimisation switched off at a time,
// speed-up over eager, prefill T = 2048 and decode S = 4096, math attention
// (data/measured/h200-inductor/ablation.jsonl, compiled into the core;
// scripts/measure/inductor_ablation.py made it).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/analysis.h"

namespace fl {

struct MeasuredAblationRow {
  std::string id;  // Table 4's row: all, no_freezing, no_cudagraphs, no_fusion, ...
  bool decode = false;
  bool cuda_graph = true;  // the compiled call replayed as a CUDA graph
  int launches = 0;        // kernels of one compiled call
  double compiled_ms = 0, eager_ms = 0;
  double eager_cuda_graph_ms = 0;  // eager's kernels replayed as one CUDA graph: its GPU time
  double speedup = 0;              // eager_ms / compiled_ms
};

// Every row, in the file's order (parsed once).
std::span<const MeasuredAblationRow> h200_ablation_rows();

// The configuration the rows were measured in, for a phase: the 8B layer on
// the H200 preset, math attention, batch 1, T = 2048 or S = 4096, under the
// Inductor model.
AnalysisConfig h200_ablation_config(bool decode);

// The measured row `id` for `c`'s phase, if `c` is that phase's measured setup.
const MeasuredAblationRow* measured_ablation_row(const AnalysisConfig& c, bool decode, std::string_view id);

}  // namespace fl
