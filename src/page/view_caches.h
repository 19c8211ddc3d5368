// What the views keep between frames, each rebuilt when the results it was
// built from change (State::results_generation) or its choice does. One set
// per page, in its State: no view keeps a cache of its own.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fusion.h"
#include "core/lineup.h"
#include "core/measured/reality.h"
#include "page/bar_chart_data.h"
#include "page/graph_layout.h"
#include "page/sweep_job.h"

namespace fl::web {

// Demos 2 and 3: one bar per kernel of the charted partition (a whole model
// has thousands), built once per result.
struct KernelChartCache {
  int generation = -1;
  bool decode = false;
  int partition = -1;
  BarChart chart;
  std::vector<KernelKind> kinds;  // the legend's
};

// Demo 1's graph view: the shown stage laid out, and the stage the camera last fitted.
struct GraphViewCache {
  int generation = -1;
  int stage = -1;
  StageLayout layout;
  int fitted_stage = -1;
};

// The roofline's arrows: for a fused partition, every op run alone and the
// fused kernel that absorbed it.
struct ArrowSource {
  KernelKind kind;  // the op's kernel kind, alone
  double flops = 0, bytes = 0, t = 0;
  size_t fused = 0;  // index of the fused kernel that absorbed it
};
struct RooflineArrows {
  std::vector<ArrowSource> sources;  // empty for a partition that is not fused
  std::string error;                 // what the core refused, if anything
};
struct RooflineArrowsCache {
  int generation = -1;
  bool decode = false;
  int partition = -1;
  RooflineArrows arrows;
};

// The compilers view's lineup, for the results and phase it was computed from.
struct LineupCache {
  int generation = -1;
  bool decode = false;
  Lang lang = Lang::Zh;
  std::optional<LineupReport> report;
  std::string error;  // what the core refused, if anything
};

struct ViewCaches {
  SweepJob sweep;
  std::optional<RealityReport> reality;  // the reality check, computed when first shown
  Lang reality_lang = Lang::Zh;
  KernelChartCache kernel_chart;
  GraphViewCache graph;
  RooflineArrowsCache arrows;
  LineupCache lineup;
  std::string accessible_view;  // the key of the text alternative last handed to the DOM
};

}  // namespace fl::web
