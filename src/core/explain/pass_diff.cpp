// diff_graphs: match the new graph's nodes to the old graph's, in order.
//
// 1. A node's local signature: op, dtype, shape and attributes.
// 2. Walk the new graph forward (inputs first). A node is unchanged when an
//    unmatched old node has its signature and the old counterparts of its
//    inputs; rewritten when an unmatched old node has its signature but other
//    inputs; added otherwise.
// 3. Old nodes left unmatched were removed.
#include "core/explain/pass_diff.h"

#include <deque>
#include <map>
#include <string>

namespace fl {

namespace {

std::string signature(const Node& n) {
  std::string s = std::string(op_name(n.op)) + "|" + std::string(dtype_name(n.dtype)) + "|" + shape_str(n.shape) + "|" +
                  n.attrs.name + "|" + std::to_string(n.attrs.scalar) + "|" + std::to_string(n.attrs.n_rep) + "|" +
                  n.attrs.offset.str() + "|";
  for (int p : n.attrs.perm) s += std::to_string(p) + ",";
  return s;
}

}  // namespace

StageDiff diff_graphs(const Graph& before, const Graph& after) {
  std::map<std::pair<std::string, NodeInputs>, std::deque<NodeId>> exact;  // (signature, old inputs)
  std::map<std::string, std::deque<NodeId>> by_signature;
  for (size_t i = 0; i < before.size(); ++i) {
    const Node& n = before.nodes()[i];
    std::string sig = signature(n);
    exact[{sig, n.inputs}].push_back(static_cast<NodeId>(i));
    by_signature[sig].push_back(static_cast<NodeId>(i));
  }
  std::vector<char> used(before.size(), 0);
  std::vector<NodeId> old_of(after.size(), -1);
  auto take = [&](std::deque<NodeId>& q) -> NodeId {
    while (!q.empty() && used[static_cast<size_t>(q.front())]) q.pop_front();
    if (q.empty()) return -1;
    NodeId id = q.front();
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
    if (auto it = exact.find({sig, old_inputs}); it != exact.end()) match = take(it->second);
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
