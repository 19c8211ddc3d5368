// The analysis results the page shows, parsed once from fl::analyze's JSON.
//
// Parsing in one place means a schema mismatch is caught (and reported) when
// the results are computed, never in the middle of drawing a frame.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fl::web {

struct KernelRow {
  int index = 0;
  std::string kind, label;
  int nodes = 0;
  std::vector<std::string> node_list;
  double reads = 0, writes = 0, flops = 0, t = 0;  // bytes, bytes, FLOPs, seconds
  std::vector<std::string> ends;                    // why each tensor it writes leaves the chip
  std::vector<int> end_consumers;                   // the consumer kernel of each entry of `ends`
  std::string code;                                 // demo 1: the Triton-like pseudo-kernel
};

// Demo 1: one node of the graph after a pipeline stage.
struct GraphNode {
  int id = 0;
  std::string op, text;
  std::vector<int> inputs;
  bool view = false, source = false;
  std::string change;  // "", "added", "rewritten"
  int kernel = -1;     // last stage only: the kernel that runs it
  double bytes = 0;    // the tensor's size in HBM (shape in `text` × activation dtype)
};

struct StageRow {
  std::string name;
  int node_count = 0, rewrites = 0, added = 0, rewritten = 0;
  std::vector<std::string> removed;
  std::vector<GraphNode> nodes;
};

// Demo 1: one small layer's partition.
struct KernelsResult {
  std::string title;
  std::string summary;  // unfused vs fused: kernels and bytes
  std::vector<KernelRow> kernels;
  std::vector<std::string> observations;
  std::vector<StageRow> stages;  // traced .. fold_norm_weight
  nlohmann::json raw;            // the whole analysis, for export
};

// The hardware of a phase's roofline (config.hw).
struct HardwareRow {
  double matmul_flops = 0, other_flops = 0, bandwidth = 0, launch = 0, graph_launch = 0;
};

struct PartitionRow {
  std::string name;
  int64_t kernels = 0;
  double bytes = 0, flops = 0, t = 0, overhead = 0, t_total = 0;  // seconds for times
  double overhead_share = 0, speedup = 0, tokens_per_s = 0;
  std::vector<KernelRow> kernel_list;
};

// Demos 2 and 3: four partitions of one layer, prefill or decode.
struct PhaseResult {
  std::string title;
  std::vector<PartitionRow> partitions;
  std::vector<KernelRow> slowest;  // prefill only
  std::vector<std::string> observations;
  HardwareRow hw;
  nlohmann::json raw;  // the whole analysis, for export
};

struct AblationRow {
  std::string id, setting;  // stable id, localized label
  double inference = 0, training = 0;  // geometric-mean speed-up over eager
};

// Demo 4's `ours`: our compiler's switches, speed-up over eager per phase.
struct OurAblationRow {
  std::string id, setting;
  double prefill = 0, decode = 0;
};

// Demo 4: the PyTorch 2 paper's Table 4 (published figures, with their source).
struct AblationResult {
  std::string title, source;
  std::vector<std::string> columns;
  std::vector<AblationRow> rows;
  std::vector<std::string> observations;
  std::string ours_title;
  std::vector<std::string> ours_columns;
  std::vector<OurAblationRow> ours;
  nlohmann::json raw;  // the whole analysis, for export
};

KernelsResult ParseKernels(nlohmann::json j);
PhaseResult ParsePhase(nlohmann::json j);
AblationResult ParseAblation(nlohmann::json j);

}  // namespace fl::web
