// One layer under every compiler, side by side: each compiler's kernels,
// bytes and time, and for each step of the layer's code (core/origin.h) the
// kernels that compute it under each, so that a student sees where the
// residual add, the RoPE, the GQA repeat and the SiLU went.
#pragma once

#include <vector>

#include "core/origin.h"
#include "core/report.h"

namespace fl {

// A column's short name: eager, the lecture's rules, Inductor, gpt-fast.
Text lineup_column_text(PartitionId id);
// A step's kernels in one column as a table shows them: "13, 18", or "—" for none.
std::string lineup_cell(const std::vector<int>& kernels, Lang l);

// The steps the lineup says in words where they went under each compiler:
// the residual add after attention, RoPE on k, the GQA repeat, SiLU.
inline constexpr Origin kLineupTold[] = {Origin::AttnResidual, Origin::KRope, Origin::GqaRepeat, Origin::Silu};

// The partitions lined up: eager PyTorch, the lecture's rules (its best
// partition), and the compilers modelled (core/inductor).
inline constexpr PartitionId kLineupPartitions[] = {PartitionId::Eager, PartitionId::FusedFlash, PartitionId::Inductor,
                                                    PartitionId::GptFast};

struct LineupRow {
  Origin step;
  std::string text;  // the step in words, localized
  // Per column: the kernels that compute the step, in launch order. Empty:
  // nothing of it runs there (a view read in place, a step another op replaced).
  std::vector<std::vector<int>> kernels;
};

// A compiler's column beside what torch.compile generated and ran on an H200
// for the same configuration (core/measured/h200_inductor.h), where it was measured.
struct LineupMeasured {
  PartitionId column = PartitionId::Inductor;
  std::string run;      // the measured run's id
  int launches = 0;     // its kernels
  int same_names = 0;   // of ours, those named as the measured kernel at the same place
  double measured_graph_s = 0, predicted_graph_s = 0;  // one call replayed as a CUDA graph
  std::string text;     // says it, localized
};

struct LineupReport {
  int demo = 2;  // 2: prefill, 3: decode
  std::string title;
  AnalysisConfig config;  // one decoder layer of it
  std::vector<PartitionReport> columns;  // in kLineupPartitions' order
  std::vector<LineupRow> rows;           // the layer's steps that run anywhere, in the layer's order
  std::vector<LineupMeasured> measured;  // the compilers' columns measured for this configuration
  // Where each step of kLineupTold went under each compiler, computed from
  // the rows (id "where_<step>", e.g. "where_attn_residual").
  std::vector<Observation> observations;
};

// Demos 2 and 3 (prefill, decode) of `c`, one decoder layer (a whole model's
// layer stands for each of its layers). Throws ConfigError for other demos.
LineupReport lineup_report(const AnalysisConfig& c);

// The steps kernel `i` of a partition computes: its computed nodes' origins,
// each once, in the layer's order (a view read in place computes nothing; a
// kernel of views only copies, and does the step of the view it writes; a
// kernel of none of the graph's nodes does the step of the kernels it feeds).
std::vector<Origin> kernel_steps(const Graph& g, const std::vector<Kernel>& kernels, size_t i);

}  // namespace fl
