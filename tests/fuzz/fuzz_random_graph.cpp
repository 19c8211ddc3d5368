// fuzz_random_graph: bytes drive a small graph builder (pointwise ops,
// reductions, composites, matmuls, views, masks, attention, kv_write,
// embedding, scalars and constants with values), then every pass and fusion.
//
// FL_FUZZ_DUMP=1 prints the graph an input builds.
//
// An op the graph rejects (GraphError: shapes that do not broadcast, a bad
// permutation, ...) is skipped and the builder goes on. On the graph built:
//   - verify() holds, and holds after every pass, alone or in pipeline order;
//   - no pass throws on a graph that verifies;
//   - the interpreter's outputs are unchanged by every pass (when every
//     source has a value and the reference values stay finite and moderate,
//     so that float rounding cannot explain a difference);
//   - fusion on and off: every compute node in exactly one kernel, views and
//     sources in none, fused bytes ≤ unfused, fused kernels ≤ unfused, the
//     same FLOPs, kernels in an executable order, costs that add up.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "core/trace.h"
#include "fuzz_common.h"

using namespace fl;

namespace {

constexpr size_t kMaxSteps = 24;
constexpr int64_t kMaxNumel = 4096;
constexpr double kTame = 1e3;        // reference values beyond this: rounding may explain a difference
constexpr double kTolerance = 1e-3;  // relative to the largest reference value

class Builder {
 public:
  explicit Builder(FuzzedDataProvider& in) : in_(in), rng_(in.ConsumeIntegral<uint32_t>()) {
    const DType types[] = {DType::BF16, DType::FP32, DType::FP16};
    dt_ = types[in_.ConsumeIntegralInRange<size_t>(0, 2)];
  }

  Graph g;
  bool values = true;  // every Param and Const carries a value: the interpreter can run

  void build() {
    for (size_t step = 0; step < kMaxSteps && in_.remaining_bytes() > 0; ++step) {
      try {
        add_step();
      } catch (const GraphError&) {
        // an invalid combination: skip it
      }
      if (!g.size() || too_big()) break;
    }
    if (!g.size()) input(random_shape());
    std::vector<NodeId> outs{static_cast<NodeId>(g.size() - 1)};
    for (int extra = in_.ConsumeIntegralInRange(0, 2); extra > 0; --extra) outs.push_back(pick());
    g.set_outputs(outs);
  }

 private:
  FuzzedDataProvider& in_;
  std::mt19937 rng_;
  DType dt_;
  int names_ = 0;

  bool too_big() const {
    for (const Node& n : g.nodes())
      if (numel(n.shape).constant() > kMaxNumel) return true;
    return false;
  }

  int64_t dim() { return in_.ConsumeIntegralInRange<int64_t>(1, 4); }
  Shape random_shape(size_t max_rank = 3) {
    Shape s(in_.ConsumeIntegralInRange<size_t>(0, max_rank));
    for (Dim& d : s) d = dim();
    return s;
  }
  std::vector<int64_t> dims_of(NodeId id) const { return eval_shape(g.node(id).shape, {}); }

  Values random_values(int64_t n, float lo = -1, float hi = 1) {
    std::uniform_real_distribution<float> u(lo, hi);
    auto v = std::make_shared<std::vector<float>>(static_cast<size_t>(n));
    for (float& x : *v) x = u(rng_);
    return v;
  }
  std::string name(const char* prefix) { return prefix + std::to_string(names_++); }

  // An existing node, the latest by default (when the bytes run out).
  NodeId pick() {
    if (!g.size()) return input(random_shape());
    return static_cast<NodeId>(g.size() - 1 - in_.ConsumeIntegralInRange<size_t>(0, g.size() - 1));
  }
  // An existing node of rank `rank`, or a new input of that rank.
  NodeId pick_rank(size_t rank) {
    NodeId id = pick();
    if (g.node(id).shape.size() == rank) return id;
    Shape s(rank);
    for (Dim& d : s) d = dim();
    return input(s);
  }

  NodeId input(Shape s) { return g.input(name("in"), std::move(s), dt_); }
  NodeId param(Shape s) {
    int64_t n = numel(s).constant();
    return g.param(name("w"), std::move(s), random_values(n), dt_);
  }
  NodeId constant(Shape s) {
    Values v;
    if (in_.ConsumeIntegralInRange(0, 15)) v = random_values(numel(s).constant(), -2, 2);
    else values = false;  // a shape-only constant: precomputed ahead of time, no value here
    return g.constant(std::move(s), std::move(v), dt_);
  }
  NodeId scalar() {
    static constexpr double kScalars[] = {0, 1, -1, 2, 0.5, -0.0, 3, 0.125, 1e-3, 10, -2, 0.25};
    if (in_.ConsumeBool()) return g.scalar(std::uniform_real_distribution<double>(-4, 4)(rng_));
    return g.scalar(kScalars[in_.ConsumeIntegralInRange<size_t>(0, std::size(kScalars) - 1)]);
  }
  NodeId op(Op o, NodeInputs ins, Attrs a = {}, Shape declared = {}) {
    return g.add(o, std::move(ins), std::move(a), std::move(declared));
  }

  // A shape with the same number of elements as `id`'s.
  Shape reshaped(NodeId id) {
    int64_t n = numel(g.node(id).shape).constant();
    Shape s;
    size_t rank = in_.ConsumeIntegralInRange<size_t>(0, 4);
    for (size_t i = 0; i + 1 < rank; ++i) {
      std::vector<int64_t> divisors;
      for (int64_t d = 1; d <= n; ++d)
        if (n % d == 0) divisors.push_back(d);
      int64_t d = divisors[in_.ConsumeIntegralInRange<size_t>(0, divisors.size() - 1)];
      s.push_back(d);
      n /= d;
    }
    if (rank > 0 || n != 1) s.push_back(n);
    if (in_.ConsumeIntegralInRange(0, 7) == 0) s.push_back(2);  // sometimes wrong: the graph must refuse it
    return s;
  }

  Perm permutation(size_t rank) {
    Perm p(rank);
    for (size_t i = 0; i < rank; ++i) p[i] = static_cast<int>(i);
    for (size_t i = rank; i > 1; --i) std::swap(p[i - 1], p[in_.ConsumeIntegralInRange<size_t>(0, i - 1)]);
    if (in_.ConsumeIntegralInRange(0, 15) == 0 && rank > 0) p[0] = static_cast<int>(rank);  // not a permutation
    return p;
  }

  Attrs with_mask_offset(int64_t offset, double scale = 0) {
    Attrs a;
    a.mask_offset = offset;
    a.scale = scale;
    return a;
  }

  // matmul(q, kᵀ) · c → causal_mask → softmax → matmul(·, v): what match_attention looks for.
  void attention_chain() {
    NodeId q, k, v;
    if (in_.ConsumeBool()) {
      q = pick_rank(3), k = pick_rank(3), v = pick_rank(3);
    } else {  // shapes that agree, with the query or value heads sometimes broadcast
      int64_t H = dim(), Tq = dim(), Tk = dim(), dh = dim(), dv = dim();
      q = input({in_.ConsumeIntegralInRange(0, 3) ? H : 1, Tq, dh});
      k = input({H, Tk, dh});
      v = input({in_.ConsumeIntegralInRange(0, 3) ? H : 1, Tk, dv});
    }
    Attrs t;
    t.perm = {0, 2, 1};
    NodeId s = op(Op::MatMul, {q, op(Op::Transpose, {k}, t)});
    NodeId scaled = op(in_.ConsumeBool() ? Op::Mul : Op::Div, {s, scalar()});
    NodeId m = op(Op::CausalMask, {scaled}, with_mask_offset(in_.ConsumeIntegralInRange<int64_t>(-1, 3)));
    op(Op::MatMul, {op(Op::Softmax, {m}), v});
  }

  void add_step() {
    enum Kind {
      kInput, kParam, kConst, kScalar, kBinary, kUnary, kReduce, kSoftmax, kRmsNorm, kMask, kMatMul, kMatMulParam,
      kReshape, kTranspose, kRepeat, kAttentionChain, kAttention, kKVWrite, kEmbedding, kNormWeight, kScalarChain,
      kKinds
    };
    switch (in_.ConsumeIntegralInRange<int>(0, kKinds - 1)) {
      case kInput: input(random_shape(4)); break;
      case kParam: param(random_shape()); break;
      case kConst: constant(random_shape()); break;
      case kScalar: scalar(); break;
      case kBinary: {
        const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div};
        Op o = ops[in_.ConsumeIntegralInRange<size_t>(0, 3)];
        NodeId a = pick(), b = in_.ConsumeIntegralInRange(0, 3) ? pick() : scalar();
        op(o, in_.ConsumeBool() ? NodeInputs{a, b} : NodeInputs{b, a});
        break;
      }
      case kUnary: {
        const Op ops[] = {Op::Neg, Op::Exp, Op::Rsqrt, Op::Cos, Op::Sin, Op::SiLU, Op::RotPairs, Op::Tanh, Op::Gelu};
        Op o = ops[in_.ConsumeIntegralInRange<size_t>(0, std::size(ops) - 1)];
        NodeId x = pick();
        if (o == Op::Neg && in_.ConsumeBool()) x = op(Op::Neg, {x});  // -(-x)
        op(o, {x});
        break;
      }
      case kReduce: {
        const Op ops[] = {Op::Sum, Op::Mean, Op::Max};
        op(ops[in_.ConsumeIntegralInRange<size_t>(0, 2)], {pick()});
        break;
      }
      case kSoftmax: op(Op::Softmax, {pick()}); break;
      case kRmsNorm: {
        NodeId x = pick();
        NodeId w = !g.node(x).shape.empty() && in_.ConsumeIntegralInRange(0, 3) ? param({g.node(x).shape.back()}) : pick();
        Attrs a;
        a.eps = in_.ConsumeBool() ? 1e-5 : 0.1;
        if (!g.node(x).shape.empty() && in_.ConsumeBool()) op(Op::LayerNorm, {x, w, param({g.node(x).shape.back()})}, a);
        else op(Op::RMSNorm, {x, w}, a);
        break;
      }
      case kMask: op(Op::CausalMask, {pick()}, with_mask_offset(in_.ConsumeIntegralInRange<int64_t>(-2, 4))); break;
      case kMatMul: op(Op::MatMul, {pick(), pick()}); break;
      case kMatMulParam: {
        NodeId a = pick();
        if (g.node(a).shape.empty()) break;
        op(Op::MatMul, {a, param({g.node(a).shape.back(), dim()})});
        break;
      }
      case kReshape: {
        NodeId x = pick();
        op(Op::Reshape, {x}, {}, reshaped(x));
        break;
      }
      case kTranspose: {
        NodeId x = pick();
        Attrs a;
        a.perm = permutation(g.node(x).shape.size());
        op(Op::Transpose, {x}, a);
        break;
      }
      case kRepeat: {
        Attrs a;
        a.n_rep = in_.ConsumeIntegralInRange<int64_t>(1, 3);
        op(Op::RepeatKV, {pick()}, a);
        break;
      }
      case kAttentionChain: attention_chain(); break;
      case kAttention: {
        int64_t H = dim(), Tk = dim(), dh = dim();
        NodeId q = in_.ConsumeBool() ? pick_rank(3) : input({H, dim(), dh});
        NodeId k = input({H, Tk, dh}), v = input({H, Tk, dim()});
        op(Op::Attention, {q, k, v}, with_mask_offset(in_.ConsumeIntegralInRange<int64_t>(-1, 3), in_.ConsumeBool() ? 0.5 : 1));
        break;
      }
      case kKVWrite: {
        NodeId cache = in_.ConsumeBool() ? pick_rank(3) : input({dim(), dim(), dim()});
        std::vector<int64_t> c = dims_of(cache);
        NodeId fresh = in_.ConsumeBool() ? pick_rank(3) : input({c[0], 1, c[2]});
        Attrs row;
        row.row = in_.ConsumeIntegralInRange<int64_t>(0, c[1] - 1);
        op(Op::KVWrite, {cache, fresh}, row);
        break;
      }
      case kEmbedding: {
        int64_t vocab = dim() + 2, d = dim(), n = dim();
        NodeId table = param({vocab, d});
        auto ids = std::make_shared<std::vector<float>>(static_cast<size_t>(n));
        for (float& id : *ids) id = static_cast<float>(in_.ConsumeIntegralInRange<int64_t>(0, vocab - 1));
        NodeId id_node = g.constant({n}, ids, dt_);
        g.add(Op::Embedding, {table, id_node}, {}, {}, dt_);
        break;
      }
      case kNormWeight: {  // y = x̂ * w, then matmul(y, W): what fold_norm_weight looks for
        NodeId x = pick();
        if (g.node(x).shape.empty()) break;
        NodeId w = param({g.node(x).shape.back()});
        NodeId y = in_.ConsumeBool() ? op(Op::Mul, {x, w}) : op(Op::Mul, {w, x});
        for (int users = in_.ConsumeIntegralInRange(1, 2); users > 0; --users)
          op(Op::MatMul, {y, param({g.node(x).shape.back(), dim()})});
        break;
      }
      case kScalarChain: {  // (x * a) * b, x / c, x + 0: what simplify looks for
        NodeId x = pick();
        NodeId y = op(in_.ConsumeBool() ? Op::Mul : Op::Div, {x, scalar()});
        op(in_.ConsumeBool() ? Op::Mul : Op::Add, {y, scalar()});
        break;
      }
    }
  }
};

using PassFn = PassResult (*)(const Graph&);
PassResult remove_dead_copy(const Graph& g) { return remove_dead(g); }
constexpr std::pair<const char*, PassFn> kPasses[] = {
    {"match_attention", match_attention}, {"decompose", decompose}, {"cse", cse},
    {"constant_fold", constant_fold},     {"simplify", simplify},   {"fold_norm_weight", fold_norm_weight},
    {"remove_dead", remove_dead_copy},
};

// What the graph computes, and whether those values are tame enough that
// float rounding cannot explain a difference after a pass.
struct Reference {
  bool ok = false;
  Feeds feeds;
  std::vector<TensorValue> outputs;
  double scale = 1;
};

Reference reference_values(const Graph& g, uint32_t seed) {
  Reference r;
  r.feeds = fl::fuzz::random_feeds(g, {}, seed);
  Graph all = g;  // every node an output, to see the intermediate values
  std::vector<NodeId> ids(g.size());
  for (size_t i = 0; i < g.size(); ++i) ids[i] = static_cast<NodeId>(i);
  all.set_outputs(ids);
  std::vector<TensorValue> vals;
  try {
    vals = run(all, r.feeds);
  } catch (const std::runtime_error&) {
    return r;  // e.g. an op the interpreter refuses on these values
  }
  for (size_t i = 0; i < vals.size(); ++i)
    for (float x : vals[i].data) {
      if (g.nodes()[i].op == Op::CausalMask && x == -INFINITY) continue;  // masked by design
      if (!std::isfinite(x) || std::fabs(x) > kTame) return r;
      r.scale = std::max(r.scale, static_cast<double>(std::fabs(x)));
    }
  for (NodeId o : g.outputs()) r.outputs.push_back(vals[static_cast<size_t>(o)]);
  r.ok = true;
  return r;
}

void check_graph(const Graph& g, const Reference& ref, const std::string& what, const Graph& original,
                 bool ablations = false) {
  try {
    verify(g);
  } catch (const GraphError& e) {
    fl::fuzz::fail(what + ": verify fails: " + e.what() + "\n" + dump(g) + "\nfrom\n" + dump(original));
  }
  if (ref.ok) {
    std::vector<TensorValue> out;
    try {
      out = run(g, ref.feeds);
    } catch (const std::exception& e) {
      fl::fuzz::fail(what + ": the interpreter threw: " + e.what() + "\n" + dump(g) + "\nfrom\n" + dump(original));
    }
    const std::string diff = fl::fuzz::compare(ref.outputs, out, kTolerance, ref.scale);
    FL_FUZZ_CHECK(diff.empty(), what << ": outputs changed: " << diff << "\n" << dump(g) << "\nfrom\n" << dump(original));
  }
  fl::fuzz::check_fusion(g, {}, kH100, what, ablations);
}

template <class F>
auto must_not_throw(const std::string& what, const Graph& g, F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    fl::fuzz::fail(what + " threw on a graph that verifies: " + e.what() + "\n" + dump(g));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Builder b(in);
  b.build();
  const Graph& g = b.g;
  if (std::getenv("FL_FUZZ_DUMP")) std::fprintf(stderr, "%s", dump(g).c_str());  // what an input builds
  try {
    verify(g);
  } catch (const GraphError& e) {
    fl::fuzz::fail(std::string("Graph::add built a graph that verify() refuses: ") + e.what() + "\n" + dump(g));
  }
  Reference ref;
  if (b.values) ref = reference_values(g, static_cast<uint32_t>(size));
  check_graph(g, ref, "built", g, /*ablations=*/true);

  // Every pass alone on the graph as built.
  for (const auto& entry : kPasses) {
    const PassFn pass = entry.second;  // (clang 14 cannot capture a structured binding)
    PassResult r = must_not_throw(entry.first, g, [&] { return pass(g); });
    check_graph(r.graph, ref, entry.first, g);
  }
  // The standard pipeline, with and without attention matching.
  for (bool attention : {true, false}) {
    std::vector<StageResult> stages =
        must_not_throw("run_pipeline", g, [&] { return run_pipeline(g, {attention, kLastStage, true}); });
    for (size_t i = 1; i < stages.size(); ++i)  // (stage 0 is the graph as built)
      check_graph(stages[i].graph, ref, std::string("pipeline ") + std::string(stage_name(stages[i].stage)), g,
                  /*ablations=*/i + 1 == stages.size());
  }
  return 0;
}
