#include "core/fusion/measuring.h"

#include <algorithm>
#include <string>

namespace fl::fusion {

namespace {

double node_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind, bool* on_tensor_cores) {
  *on_tensor_cores = false;
  auto in_numel = [&](size_t i) { return static_cast<double>(eval_numel(g.node(n.inputs[i]).shape, bind)); };
  switch (n.op) {
    case Op::MatMul:
      *on_tensor_cores = n.dtype != DType::FP32;  // fp32 matmuls run on the vector units
      return 2.0 * static_cast<double>(out) * static_cast<double>(g.node(n.inputs[0]).shape.back().eval(bind));
    case Op::Attention: {  // QKᵀ and PV on tensor cores; the softmax's 5 ops per score are counted below
      *on_tensor_cores = n.dtype != DType::FP32;  // fp32 matmuls run on the vector units
      double scores = static_cast<double>(out) / static_cast<double>(n.shape.back().eval(bind)) *
                      static_cast<double>(g.node(n.inputs[1]).shape[1].eval(bind));
      return 2.0 * scores * static_cast<double>(n.shape.back().eval(bind) + g.node(n.inputs[0]).shape.back().eval(bind));
    }
    case Op::KVWrite: case Op::Embedding: return 0;
    case Op::Reshape: case Op::Transpose: case Op::RepeatKV: case Op::Slice: return 0;  // realized views only copy
    case Op::Sum: case Op::Mean: case Op::Max: return in_numel(0);
    case Op::RMSNorm: return 4 * in_numel(0) + 2 * in_numel(0) / static_cast<double>(n.shape.back().eval(bind));
    case Op::Softmax: case Op::SiLU: return 5 * in_numel(0);  // as many as their decompositions
    case Op::LayerNorm: return 7 * in_numel(0) + 2 * in_numel(0) / static_cast<double>(n.shape.back().eval(bind));
    case Op::Gelu: return 9 * in_numel(0);
    default: return static_cast<double>(out);
  }
}

double attention_softmax_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind) {
  return 5.0 * static_cast<double>(out) / static_cast<double>(n.shape.back().eval(bind)) *
         static_cast<double>(g.node(n.inputs[1]).shape[1].eval(bind));
}

}  // namespace

std::string_view node_label(const Node& n) {
  if (n.op == Op::Mul && n.inputs[0] == n.inputs[1]) return "square";
  return op_name(n.op);
}

void add_node_flops(const Graph& g, const Node& n, int64_t out, const Binding& bind, Kernel& k) {
  bool tc = false;
  const double f = node_flops(g, n, out, bind, &tc);
  (tc ? k.matmul_flops : k.other_flops) += f;
  if (n.op == Op::Attention) k.other_flops += attention_softmax_flops(g, n, out, bind);
}

KernelLayout lay_out_kernels(const Graph& g, const Grouping& grouping, const std::vector<int>& order) {
  std::vector<int> index_of(grouping.groups.size(), -1);  // group -> its kernel's place in the order
  for (size_t i = 0; i < order.size(); ++i) index_of[static_cast<size_t>(order[i])] = static_cast<int>(i);

  std::vector<char> is_output(g.size(), 0);
  for (NodeId o : g.outputs()) is_output[static_cast<size_t>(grouping.storage[static_cast<size_t>(o)])] = 1;

  KernelLayout layout;
  layout.kernels.reserve(order.size());
  layout.reads.start.reserve(order.size() + 1);
  layout.writes.start.reserve(order.size() + 1);
  std::vector<NodeId> read;    // per kernel: the tensors it reads from HBM, each once (a few)
  std::vector<int> consumers;  // per node: the other groups that read it
  std::string label;           // per kernel, built here and copied once at its length
  std::vector<KernelEdge> ends;
  for (int gi : order) {
    const Group& gr = grouping.groups[static_cast<size_t>(gi)];
    Kernel& k = layout.kernels.emplace_back();
    std::vector<Traffic>& reads = layout.reads.list;
    std::vector<Traffic>& writes = layout.writes.list;
    k.kind = gr.kind;
    k.nodes.assign(gr.nodes.begin(), gr.nodes.end());
    read.clear();
    label.clear();
    ends.clear();
    for (NodeId id : gr.nodes) {
      const Node& n = g.node(id);
      label.append(label.empty() ? "" : "+").append(node_label(n));
      for (size_t i = 0; i < n.inputs.size(); ++i) {
        if (n.op == Op::KVWrite && i == 0) continue;  // the cache is only written, one row
        NodeId s = grouping.storage[static_cast<size_t>(n.inputs[i])];
        if (grouping.group_of[static_cast<size_t>(s)] == gi || std::find(read.begin(), read.end(), s) != read.end()) continue;
        read.push_back(s);
        // An embedding reads only the rows it gathers, not the table.
        reads.push_back({n.op == Op::Embedding && i == 0 ? id : s, s});
      }
    }
    // Writes: values some other kernel reads, and the graph's outputs.
    for (NodeId id : gr.nodes) {
      consumers.clear();
      for (NodeId u : grouping.users.of(id)) {  // includes readers through views
        int cg = grouping.group_of[static_cast<size_t>(u)];
        if (cg >= 0 && cg != gi) consumers.push_back(cg);
      }
      std::sort(consumers.begin(), consumers.end());  // each consumer once, in group order
      consumers.erase(std::unique(consumers.begin(), consumers.end()), consumers.end());
      bool is_out = is_output[static_cast<size_t>(id)];
      if (consumers.empty() && !is_out) continue;
      const NodeId written = g.node(id).op == Op::KVWrite ? g.node(id).inputs[1] : id;  // a cache write: its new rows
      writes.push_back({written, written});
      for (int cg : consumers) {
        ends.push_back({id, index_of[static_cast<size_t>(cg)], grouping.why_crossing(id, cg)});
      }
      if (is_out) ends.push_back({id, -1, Boundary::GraphOutput});
    }
    k.label = label;
    k.ends.assign(ends.begin(), ends.end());
    layout.reads.start.push_back(reads.size());
    layout.writes.start.push_back(writes.size());
  }
  return layout;
}

namespace {
// Adds each kernel's FLOPs and bytes under `numel` to `kernels` (the layout's, sizes zero).
void measure(const Graph& g, const KernelLayout& layout, const std::vector<int64_t>& numel, const Binding& bind,
             std::vector<Kernel>& kernels) {
  auto bytes = [&](const Traffic& t) -> int64_t {
    const Node& n = g.node(t.tensor);
    if (n.shape.empty()) return 0;  // scalars are immediates in the kernel's code
    return numel[static_cast<size_t>(t.elements)] * dtype_bytes(n.dtype);
  };
  for (size_t i = 0; i < kernels.size(); ++i) {
    Kernel& k = kernels[i];
    for (NodeId id : k.nodes) add_node_flops(g, g.node(id), numel[static_cast<size_t>(id)], bind, k);
    for (const Traffic& t : layout.reads.of(i)) k.reads += bytes(t);
    for (const Traffic& t : layout.writes.of(i)) k.writes += bytes(t);
  }
}
}  // namespace

std::vector<Kernel> measure_layout(const Graph& g, const KernelLayout& layout, const std::vector<int64_t>& numel,
                                   const Binding& bind) {
  std::vector<Kernel> kernels = layout.kernels;
  measure(g, layout, numel, bind, kernels);
  return kernels;
}

std::vector<Kernel> measure_kernels(const Graph& g, const Grouping& grouping, const std::vector<int>& order,
                                    const std::vector<int64_t>& numel, const Binding& bind) {
  KernelLayout layout = lay_out_kernels(g, grouping, order);
  std::vector<Kernel> kernels = std::move(layout.kernels);  // laid out for this one measure: no copy
  measure(g, layout, numel, bind, kernels);
  return kernels;
}

}  // namespace fl::fusion
