// Ordering, the second step of fuse(): the groups as kernels in an order a
// GPU stream can run them.
#pragma once

#include <vector>

#include "core/fusion/grouping.h"

namespace fl::fusion {

// Group indices in launch order: topological, and among the kernels ready
// at once the one whose first node comes first in the graph.
std::vector<int> launch_order(const Graph& g, const Grouping& grouping);

}  // namespace fl::fusion
