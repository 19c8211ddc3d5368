// Demos 1 and 4 as the page shows them, parsed once from fl::analyze's JSON
// (demos 2 and 3 reach the page as typed reports, core/report.h).
//
// Parsing in one place means a schema mismatch is caught (and reported) when
// the results are computed, never in the middle of drawing a frame.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/report.h"

namespace fl::web {

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
  std::vector<KernelReport> kernels;  // in detail: node list, ends, code
  std::vector<std::string> observations;
  std::vector<StageRow> stages;  // traced .. fold_norm_weight
  nlohmann::json raw;            // the whole analysis, for export
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
AblationResult ParseAblation(nlohmann::json j);

}  // namespace fl::web
