// What each pass changed between two stages of the pipeline: nodes added,
// rewritten (the same op, now reading other inputs) and removed.
#pragma once

#include <vector>

#include "core/pipeline.h"

namespace fl {

struct StageDiff {
  std::vector<NodeId> added;      // ids in the stage's graph
  std::vector<NodeId> rewritten;  // ids in the stage's graph
  std::vector<NodeId> removed;    // ids in the previous stage's graph
};

StageDiff diff_graphs(const Graph& before, const Graph& after);

}  // namespace fl
