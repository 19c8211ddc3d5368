#include "page/graph_layout.h"

#include <algorithm>
#include <numeric>

namespace fl::web {

GraphLayout LayoutDag(const std::vector<std::vector<int>>& inputs) {
  const int n = static_cast<int>(inputs.size());
  GraphLayout g;
  g.pos.assign(static_cast<size_t>(n), {});
  if (n == 0) return g;
  for (int i = 0; i < n; ++i)
    for (int in : inputs[static_cast<size_t>(i)])
      if (in >= 0 && in < i) g.pos[static_cast<size_t>(i)].layer = std::max(g.pos[static_cast<size_t>(i)].layer, g.pos[static_cast<size_t>(in)].layer + 1);
  std::vector<std::vector<int>> users(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int in : inputs[static_cast<size_t>(i)])
      if (in >= 0 && in < i) users[static_cast<size_t>(in)].push_back(i);
  // A source (weight, constant) sits one layer before its first user, not
  // all in layer 0: the drawing stays narrow and its edges short.
  for (int i = 0; i < n; ++i) {
    if (!inputs[static_cast<size_t>(i)].empty() || users[static_cast<size_t>(i)].empty()) continue;
    int first = 1 << 30;
    for (int u : users[static_cast<size_t>(i)]) first = std::min(first, g.pos[static_cast<size_t>(u)].layer);
    g.pos[static_cast<size_t>(i)].layer = std::max(0, first - 1);
  }
  for (const LayoutPos& p : g.pos) g.layers = std::max(g.layers, p.layer + 1);

  std::vector<std::vector<int>> by_layer(static_cast<size_t>(g.layers));
  for (int i = 0; i < n; ++i) by_layer[static_cast<size_t>(g.pos[static_cast<size_t>(i)].layer)].push_back(i);

  std::vector<double> key(static_cast<size_t>(n), 0);
  auto order_layer = [&](std::vector<int>& layer) {
    std::stable_sort(layer.begin(), layer.end(), [&](int a, int b) { return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)]; });
    for (size_t k = 0; k < layer.size(); ++k) g.pos[static_cast<size_t>(layer[k])].order = static_cast<int>(k);
  };
  auto barycenter = [&](const std::vector<int>& nbrs, double fallback) {
    if (nbrs.empty()) return fallback;
    double sum = 0;
    for (int m : nbrs) sum += g.pos[static_cast<size_t>(m)].order;
    return sum / static_cast<double>(nbrs.size());
  };
  // Every layer in node order first; then each layer by its inputs' barycenter.
  for (auto& layer : by_layer)
    for (size_t k = 0; k < layer.size(); ++k) g.pos[static_cast<size_t>(layer[k])].order = static_cast<int>(k);
  for (int sweep = 0; sweep < 2; ++sweep) {
    for (int l = 1; l < g.layers; ++l) {
      for (int i : by_layer[static_cast<size_t>(l)])
        key[static_cast<size_t>(i)] = barycenter(inputs[static_cast<size_t>(i)], g.pos[static_cast<size_t>(i)].order);
      order_layer(by_layer[static_cast<size_t>(l)]);
    }
    // Sources (and any layer) by their users: parameters sit beside the op that reads them.
    for (int l = g.layers - 2; l >= 0; --l) {
      for (int i : by_layer[static_cast<size_t>(l)])
        key[static_cast<size_t>(i)] = barycenter(users[static_cast<size_t>(i)], g.pos[static_cast<size_t>(i)].order);
      order_layer(by_layer[static_cast<size_t>(l)]);
    }
  }
  for (const auto& layer : by_layer) g.widest = std::max(g.widest, static_cast<int>(layer.size()));
  return g;
}

StageLayout LayoutStage(const StageReport& st) {
  StageLayout out;
  int max_id = 0;
  for (const GraphNodeReport& n : st.nodes) max_id = std::max(max_id, n.id);
  out.index_of.assign(static_cast<size_t>(max_id) + 1, -1);
  for (size_t i = 0; i < st.nodes.size(); ++i) out.index_of[static_cast<size_t>(st.nodes[i].id)] = static_cast<int>(i);
  std::vector<std::vector<int>> inputs(st.nodes.size());
  for (size_t i = 0; i < st.nodes.size(); ++i)
    for (int in : st.nodes[i].inputs)
      if (in >= 0 && in <= max_id && out.index_of[static_cast<size_t>(in)] >= 0)
        inputs[i].push_back(out.index_of[static_cast<size_t>(in)]);
  out.g = LayoutDag(inputs);
  return out;
}

}  // namespace fl::web
