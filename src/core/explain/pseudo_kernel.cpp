// pseudo_kernel: one kernel's nodes printed as a loop nest.
//
// 1. Name every value: tensors from HBM by their source (a weight's name, an
//    input's name, or buf<N> for another kernel's output); values made here
//    t<N>.
// 2. Open the loop of the kernel's kind: tiles of a matmul's output, rows of
//    a rowwise kernel, blocks of elements otherwise.
// 3. Print one line per node: loads on first use, the op, and a store for
//    every value some other kernel (or the caller) reads.
#include "core/explain/pseudo_kernel.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace fl {

namespace {

class Writer {
 public:
  Writer(const Graph& g, const Kernel& k) : g_(g), k_(k), mine_(k.nodes.begin(), k.nodes.end()) {
    for (const KernelEdge& e : k.ends) stored_.insert(e.tensor);
  }

  std::string body(const std::string& indent) {
    std::string out;
    for (NodeId id : k_.nodes) {
      const Node& n = g_.node(id);
      std::vector<std::string> args;
      for (NodeId in : n.inputs) args.push_back(value(in, indent, out));
      out += indent + "t" + std::to_string(id) + " = " + expression(n, args) + "\n";
      if (stored_.count(id)) out += indent + "store(buf" + std::to_string(id) + ", t" + std::to_string(id) + ")\n";
    }
    return out;
  }

 private:
  // The name of an operand, loading it first when it comes from HBM.
  std::string value(NodeId id, const std::string& indent, std::string& out) {
    const Node& n = g_.node(id);
    if (mine_.count(id)) return std::string(1, 't').append(std::to_string(id));
    if (op_kind(n.op) == OpKind::View) return value(n.inputs[0], indent, out) + view_suffix(n);
    if (n.op == Op::Const && n.shape.empty()) return format_scalar(n.attrs.value);
    std::string name = n.attrs.name.empty() ? (n.op == Op::Const ? "const" : "buf") + std::to_string(id) : identifier(n.attrs.name);
    if (loaded_.insert(id).second) out += indent + name + "_tile = load(" + name + ")\n";
    return name + "_tile";
  }

  static std::string view_suffix(const Node& n) {
    switch (n.op) {
      case Op::Transpose: return ".permute(...)";
      case Op::Slice: {
        const std::string begin = std::to_string(n.attrs.slice_begin);
        return "[..., " + begin + ":" + begin + " + " + n.shape.back().str() + "]";
      }
      case Op::RepeatKV: return "[head // " + std::to_string(n.attrs.n_rep) + "]";
      default: return ".view" + shape_str(n.shape);
    }
  }

  // "attn_norm*wq" (a folded weight) → "attn_norm_wq"; "l3.wq" → "l3_wq".
  static std::string identifier(std::string s) {
    for (char& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
  }

  static std::string format_scalar(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
  }

  static std::string expression(const Node& n, const std::vector<std::string>& a) {
    auto call = [&](std::string_view f) {
      std::string out(f);
      out += "(";
      for (size_t i = 0; i < a.size(); ++i) out += (i ? ", " : "") + a[i];
      return out + ")";
    };
    switch (n.op) {
      case Op::Add: return a[0] + " + " + a[1];
      case Op::Sub: return a[0] + " - " + a[1];
      case Op::Mul: return a[0] + " * " + a[1];
      case Op::Div: return a[0] + " / " + a[1];
      case Op::Neg: return "-" + a[0];
      case Op::MatMul: return call("dot") + "   # tensor cores, accumulates in registers";
      case Op::Sum: case Op::Mean: case Op::Max: return std::string(op_name(n.op)) + "(" + a[0] + ", axis=-1)";
      case Op::Cast: return a[0] + ".to(" + std::string(dtype_name(n.dtype)) + ")";
      case Op::LogicalNot: return "~" + a[0];
      case Op::MaskedFill: return "where(" + a[1] + ", " + format_scalar(n.attrs.value) + ", " + a[0] + ")";
      case Op::CausalMask: return "where(key > query + " + n.attrs.mask_offset.str() + ", -inf, " + a[0] + ")";
      case Op::Attention: return call("flash_attention") + "   # online softmax: the scores never leave the chip";
      case Op::KVWrite: return a[0] + "[:, " + n.attrs.row.str() + ", :] = " + a[1];
      default: return call(op_name(n.op));
    }
  }

  const Graph& g_;
  const Kernel& k_;
  std::set<NodeId> mine_, stored_, loaded_;
};

}  // namespace

std::string pseudo_kernel(const Graph& g, const Kernel& k, int index, const Binding& bind) {
  const Node& last = g.node(k.nodes.back());
  std::string name = "kernel_" + std::to_string(index) + "_" + std::string(kernel_kind_name(k.kind));
  std::string head = "@jit\ndef " + name + "(...):\n";
  Writer w(g, k);
  auto dims = [&](const Shape& s) {
    std::string out;
    for (const Dim& d : s) out += (out.empty() ? "" : ", ") + std::to_string(d.eval(bind));
    return out;
  };
  switch (k.kind) {
    case KernelKind::MatMul: {
      const Node& mm = g.node(k.nodes.front());
      return head + "    for tile in tiles(" + dims(mm.shape) + "):         # one program per output tile\n" +
             w.body("        ") + "    # the epilogue ran on the tile in registers; only the stores reach HBM\n";
    }
    case KernelKind::Rowwise: {
      NodeId first_reduction = k.nodes.front();
      for (NodeId id : k.nodes)
        if (op_kind(g.node(id).op) == OpKind::Reduction) {
          first_reduction = id;
          break;
        }
      const Shape& row = g.node(g.node(first_reduction).inputs[0]).shape;
      int64_t len = row.back().eval(bind), rows = numel(row).eval(bind) / std::max<int64_t>(len, 1);
      return head + "    for row in range(" + std::to_string(rows) + "):   # one program per row; its " +
             std::to_string(len) + " values stay on chip\n" + w.body("        ");
    }
    case KernelKind::Attention:
    case KernelKind::KVWrite:
    case KernelKind::Embedding:
      return head + "    # handwritten kernel\n" + w.body("    ");
    case KernelKind::Pointwise: break;
  }
  return head + "    for block in blocks(" + dims(last.shape) + "):      # one program per block of elements\n" +
         w.body("        ");
}

}  // namespace fl
