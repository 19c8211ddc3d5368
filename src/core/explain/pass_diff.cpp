// diff_graphs: match the new graph's nodes to the old graph's, in order.
//
// 1. A node's local signature: op, dtype, shape and attributes.
// 2. Walk the new graph forward (inputs first). A node is unchanged when an
//    unmatched old node has its signature and the old counterparts of its
//    inputs; rewritten when an unmatched old node has its signature but other
//    inputs; added otherwise.
// 3. Old nodes left unmatched were removed.
#include "core/explain/pass_diff.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace fl {

namespace {

std::string signature(const Node& n) {
  std::string s = std::string(op_name(n.op)) + "|" + std::string(dtype_name(n.dtype)) + "|" + shape_str(n.shape) + "|" +
                  n.attrs.name + "|" + std::to_string(n.attrs.value) + "|" + std::to_string(n.attrs.eps) + "|" +
                  std::to_string(n.attrs.scale) + "|" + std::to_string(n.attrs.n_rep) + "|" + n.attrs.mask_offset.str() +
                  "|" + n.attrs.row.str() + "|";
  for (int p : n.attrs.perm) s += std::to_string(p) + ",";
  return s;
}

}  // namespace

StageDiff diff_graphs(const Graph& before, const Graph& after) {
  // Old nodes by (signature, old inputs) and by signature alone, each in
  // graph order; `take` hands out the first one not matched yet.
  struct Queue {
    std::vector<NodeId> ids;
    size_t head = 0;
  };
  auto with_inputs = [](std::string sig, const NodeInputs& inputs) {
    sig += '#';
    for (NodeId in : inputs) sig += std::to_string(in) + ",";
    return sig;
  };
  std::unordered_map<std::string, Queue> exact, by_signature;
  exact.reserve(before.size());
  by_signature.reserve(before.size());
  for (size_t i = 0; i < before.size(); ++i) {
    const Node& n = before.nodes()[i];
    std::string sig = signature(n);
    exact[with_inputs(sig, n.inputs)].ids.push_back(static_cast<NodeId>(i));
    by_signature[std::move(sig)].ids.push_back(static_cast<NodeId>(i));
  }
  std::vector<char> used(before.size(), 0);
  std::vector<NodeId> old_of(after.size(), -1);
  auto take = [&](Queue& q) -> NodeId {
    while (q.head < q.ids.size() && used[static_cast<size_t>(q.ids[q.head])]) ++q.head;
    if (q.head == q.ids.size()) return -1;
    NodeId id = q.ids[q.head++];
    used[static_cast<size_t>(id)] = 1;
    return id;
  };

  StageDiff d;
  for (size_t i = 0; i < after.size(); ++i) {
    const Node& n = after.nodes()[i];
    std::string sig = signature(n);
    NodeInputs old_inputs;
    for (NodeId in : n.inputs) old_inputs.push_back(old_of[static_cast<size_t>(in)]);
    NodeId match = -1;
    if (auto it = exact.find(with_inputs(sig, old_inputs)); it != exact.end()) match = take(it->second);
    if (match < 0) {
      if (auto it = by_signature.find(sig); it != by_signature.end() && (match = take(it->second)) >= 0)
        d.rewritten.push_back(static_cast<NodeId>(i));
      else
        d.added.push_back(static_cast<NodeId>(i));
    }
    old_of[i] = match;
  }
  for (size_t i = 0; i < before.size(); ++i)
    if (!used[i]) d.removed.push_back(static_cast<NodeId>(i));
  return d;
}

}  // namespace fl
