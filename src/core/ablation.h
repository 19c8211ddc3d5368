// Our compiler's own ablation: each switch turned off alone, then fusion and
// inlining together, as the PyTorch 2 paper's Table 4 does for Inductor.
// Speed-ups are over eager (the traced graph, one kernel per op, launched one
// by one), for the current model in prefill and in decode.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/analysis.h"

namespace fl {

struct AblationSwitches {
  bool fusion = true, inlining = true, matmul_epilogues = true, attention_matching = true, weight_folding = true,
       cuda_graphs = true;
  bool freezing = true;  // the Inductor model's (inductor::Options::freezing)
  bool pattern_matching = true;  // the Inductor model's (inductor::Options::pattern_matching)
};

struct AblationEntry {
  std::string_view id;  // stable, for JSON and CSV readers: "no_fusion"
  Text setting;
  std::optional<Text> not_modelled;  // why the model cannot compute this row (the speed-ups stay 0)
  AblationSwitches switches;
  double prefill_speedup = 0, decode_speedup = 0;
  int prefill_kernels = 0, decode_kernels = 0;
  int64_t prefill_bytes = 0, decode_bytes = 0;
  // What each speed-up divides: eager's time by the setting's (seconds).
  double prefill_eager_s = 0, decode_eager_s = 0, prefill_s = 0, decode_s = 0;
};

// The settings in the paper's order: all, one switch off at a time, fusion and inlining off.
// Under the Inductor model (c.shown_compiler(): `--ablation --compiler
// inductor`), the paper's own rows for torch.compile: all (its default mode
// replayed as a CUDA graph), each of its switches off, those the model has
// computed (CUDA graphs; fusion: max_fusion_size = 1), the others listed with why not.
std::vector<AblationEntry> run_ablation(const AnalysisConfig& c);

}  // namespace fl
