#include "core/fusion/ordering.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace fl::fusion {

std::vector<int> launch_order(const Graph& g, const Grouping& grouping) {
  const std::vector<Group>& groups = grouping.groups;
  const size_t ng = groups.size();
  // Per group the groups it reads, each once, in one flat list (no list per group to allocate).
  std::vector<int> deps;
  std::vector<size_t> deps_start(ng + 1, 0);
  for (size_t gi = 0; gi < ng; ++gi) {
    const auto first = static_cast<std::ptrdiff_t>(deps.size());
    for (NodeId id : groups[gi].nodes)
      for (NodeId in : g.node(id).inputs) {
        NodeId s = grouping.storage[static_cast<size_t>(in)];
        int src = grouping.group_of[static_cast<size_t>(s)];
        if (src >= 0 && src != static_cast<int>(gi)) deps.push_back(src);
      }
    std::sort(deps.begin() + first, deps.end());
    deps.erase(std::unique(deps.begin() + first, deps.end()), deps.end());
    deps_start[gi + 1] = deps.size();
  }
  // Per group the groups that read it, the same way: counted, then filled.
  std::vector<int> pending(ng);
  std::vector<size_t> dependents_start(ng + 1, 0);
  for (int d : deps) ++dependents_start[static_cast<size_t>(d) + 1];
  for (size_t gi = 0; gi < ng; ++gi) dependents_start[gi + 1] += dependents_start[gi];
  std::vector<int> dependents(deps.size());
  std::vector<size_t> next(dependents_start.begin(), dependents_start.end() - 1);
  for (size_t gi = 0; gi < ng; ++gi) {
    pending[gi] = static_cast<int>(deps_start[gi + 1] - deps_start[gi]);
    for (size_t i = deps_start[gi]; i < deps_start[gi + 1]; ++i)
      dependents[next[static_cast<size_t>(deps[i])]++] = static_cast<int>(gi);
  }
  std::vector<std::pair<NodeId, int>> heap;
  heap.reserve(ng);
  std::priority_queue ready(std::greater<>(), std::move(heap));
  for (size_t gi = 0; gi < ng; ++gi)
    if (!pending[gi]) ready.push({groups[gi].nodes.front(), static_cast<int>(gi)});
  std::vector<int> order;
  order.reserve(ng);
  while (!ready.empty()) {
    int gi = ready.top().second;
    ready.pop();
    order.push_back(gi);
    for (size_t i = dependents_start[static_cast<size_t>(gi)]; i < dependents_start[static_cast<size_t>(gi) + 1]; ++i) {
      const int d = dependents[i];
      if (--pending[static_cast<size_t>(d)] == 0) ready.push({groups[static_cast<size_t>(d)].nodes.front(), d});
    }
  }
  return order;
}

}  // namespace fl::fusion
