// A layered layout of a dataflow DAG (Sugiyama-style, without crossing
// minimisation beyond barycenters): small, deterministic, O(V + E) per sweep.
#pragma once

#include <vector>

#include "core/report.h"

namespace fl::web {

struct LayoutPos {
  int layer = 0;  // longest path from a source (sources are layer 0)
  int order = 0;  // position within the layer, 0..
};

struct GraphLayout {
  std::vector<LayoutPos> pos;  // one per node, same index as the input
  int layers = 0;              // number of layers
  int widest = 0;              // most nodes in one layer
};

// `inputs[i]` lists the indices of node i's inputs; nodes are given in a
// topological order (inputs before users), as the core's stages are. Layer =
// longest path from a source; within a layer, nodes are ordered by the
// barycenter of their inputs' orders (a downward sweep, then an upward sweep
// for the sources by their users' orders).
GraphLayout LayoutDag(const std::vector<std::vector<int>>& inputs);

// A stage's graph laid out: the layout of its nodes, and each node id's index in it.
struct StageLayout {
  GraphLayout g;
  std::vector<int> index_of;  // node id -> index in the stage's nodes, -1 for none
};
StageLayout LayoutStage(const StageReport& stage);

}  // namespace fl::web
