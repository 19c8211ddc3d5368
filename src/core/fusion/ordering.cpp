#include "core/fusion/ordering.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace fl::fusion {

std::vector<int> launch_order(const Graph& g, const Grouping& grouping) {
  const std::vector<Group>& groups = grouping.groups;
  const size_t ng = groups.size();
  std::vector<std::vector<int>> deps(ng);  // per group: the groups it reads, each once
  for (size_t gi = 0; gi < ng; ++gi) {
    for (NodeId id : groups[gi].nodes)
      for (NodeId in : g.node(id).inputs) {
        NodeId s = grouping.storage[static_cast<size_t>(in)];
        int src = grouping.group_of[static_cast<size_t>(s)];
        if (src >= 0 && src != static_cast<int>(gi)) deps[gi].push_back(src);
      }
    std::sort(deps[gi].begin(), deps[gi].end());
    deps[gi].erase(std::unique(deps[gi].begin(), deps[gi].end()), deps[gi].end());
  }
  std::vector<int> pending(ng);
  std::vector<std::vector<int>> dependents(ng);
  for (size_t gi = 0; gi < ng; ++gi) {
    pending[gi] = static_cast<int>(deps[gi].size());
    for (int d : deps[gi]) dependents[static_cast<size_t>(d)].push_back(static_cast<int>(gi));
  }
  std::priority_queue<std::pair<NodeId, int>, std::vector<std::pair<NodeId, int>>, std::greater<>> ready;
  for (size_t gi = 0; gi < ng; ++gi)
    if (!pending[gi]) ready.push({groups[gi].nodes.front(), static_cast<int>(gi)});
  std::vector<int> order;
  order.reserve(ng);
  while (!ready.empty()) {
    int gi = ready.top().second;
    ready.pop();
    order.push_back(gi);
    for (int d : dependents[static_cast<size_t>(gi)])
      if (--pending[static_cast<size_t>(d)] == 0) ready.push({groups[static_cast<size_t>(d)].nodes.front(), d});
  }
  return order;
}

}  // namespace fl::fusion
