// Each pass: what it rewrites, what it leaves alone, that a second run finds
// nothing more, and that the verifier holds after it.
#include <catch2/catch.hpp>

#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "core/trace.h"
#include "helpers.h"

using namespace fl;
using fl::test::count_ops;

namespace {

Graph small_prefill() { return prefill_layer(kSmallCfg, 8, 0, ParamMode::random()); }

void check_idempotent(PassResult (*pass)(const Graph&), const Graph& g) {
  PassResult once = pass(g);
  verify(once.graph);
  PassResult twice = pass(once.graph);
  CHECK(twice.rewrites == 0);
  CHECK(twice.graph.size() == once.graph.size());
}

}  // namespace

TEST_CASE("match_attention replaces the attention chain by one op") {
  for (const Graph& g : {small_prefill(), decode_layer(kSmallCfg, ParamMode::random())}) {
    PassResult r = match_attention(g);
    CHECK(r.rewrites == 1);
    CHECK(count_ops(r.graph, Op::Attention) == 1);
    CHECK(count_ops(r.graph, Op::Softmax) == 0);
    CHECK(count_ops(r.graph, Op::CausalMask) == 0);
    CHECK(count_ops(r.graph, Op::MatMul) == count_ops(g, Op::MatMul) - 2);
    check_idempotent(match_attention, g);
  }
}

TEST_CASE("match_attention leaves a chain alone when an intermediate is used elsewhere") {
  Graph g;
  Tensor q(&g, g.input("q", {2, 4, 8})), k(&g, g.input("k", {2, 4, 8})), v(&g, g.input("v", {2, 4, 8}));
  Tensor s = matmul(q, transpose(k, {0, 2, 1})) * 0.5;
  Tensor p = softmax(causal_mask(s, 0));
  Tensor o = matmul(p, v);
  g.set_outputs({o.id(), s.id()});  // the scaled scores are needed too
  CHECK(match_attention(g).rewrites == 0);
  g.set_outputs({o.id()});
  CHECK(match_attention(g).rewrites == 1);
}

TEST_CASE("decompose turns every composite into primitives") {
  Graph g = small_prefill();
  PassResult r = decompose(g);
  CHECK(r.rewrites == 4);  // two RMSNorms, softmax, SiLU
  for (Op op : {Op::RMSNorm, Op::Softmax, Op::SiLU}) CHECK(count_ops(r.graph, op) == 0);
  CHECK(count_ops(r.graph, Op::Mean) == 2);
  CHECK(count_ops(r.graph, Op::Max) == 1);
  CHECK(count_ops(r.graph, Op::Rsqrt) == 2);
  check_idempotent(decompose, g);
}

TEST_CASE("every composite op of the op table has a decomposition") {
  // One graph per composite, on a (4, 8) input (and an (8) weight, and bias, where it takes them).
  for (size_t i = 0; i < kOpCount; ++i) {
    const Op op = static_cast<Op>(i);
    if (!is_composite(op)) continue;
    INFO(op_name(op));
    Graph g;
    NodeInputs in{g.input("x", {4, 8})};
    if (arity(op) >= 2) in.push_back(g.param("w", {8}));
    if (arity(op) >= 3) in.push_back(g.param("b", {8}));
    REQUIRE(arity(op) == in.size());
    g.set_outputs({g.add(op, in)});
    const PassResult r = decompose(g);
    CHECK(r.rewrites == 1);
    for (const Node& n : r.graph.nodes()) CHECK_FALSE(is_composite(n.op));
  }
}

TEST_CASE("cse merges equal nodes and only those") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor a = exp(x), b = exp(x);
  Tensor w1(&g, g.param("w1", {8})), w2(&g, g.param("w2", {8}));  // equal shapes, different tensors
  Tensor c1(&g, g.constant({8}, nullptr)), c2(&g, g.constant({8}, nullptr));  // shape-only: could differ
  g.set_outputs({(a + b).id(), (x * w1 + x * w2).id(), (x + c1 + x + c2).id()});
  PassResult r = cse(g);
  CHECK(r.rewrites == 1);
  CHECK(count_ops(r.graph, Op::Exp) == 1);
  CHECK(count_ops(r.graph, Op::Param) == 2);
  CHECK(count_ops(r.graph, Op::Const) == 2);
  check_idempotent(cse, g);
}

TEST_CASE("cse merges the duplicates that decomposition creates") {
  Graph d = decompose(small_prefill()).graph;
  PassResult r = cse(d);
  CHECK(r.rewrites > 0);  // the scalar constants 1 and eps repeat
  CHECK(r.graph.size() < d.size());
}

TEST_CASE("constant_fold computes what depends only on constants") {
  Graph g = small_prefill();
  int cos_before = count_ops(g, Op::Cos);
  REQUIRE(cos_before == 1);
  PassResult r = constant_fold(g);
  CHECK(r.rewrites >= 3);  // angle, cos, sin (and the table reshapes)
  CHECK(count_ops(r.graph, Op::Cos) == 0);
  CHECK(count_ops(r.graph, Op::Sin) == 0);
  CHECK(count_ops(r.graph, Op::Param) == count_ops(g, Op::Param));  // weights are not constants
  check_idempotent(constant_fold, g);

  SECTION("folded values are computed") {
    Graph h;
    Tensor c(&h, h.constant({2}, std::make_shared<const std::vector<float>>(std::vector<float>{0.0f, 1.0f})));
    h.set_outputs({cos(c).id()});
    Graph f = constant_fold(h).graph;
    REQUIRE(f.size() == 1);
    CHECK(f.node(0).op == Op::Const);
    CHECK((*f.node(0).value)[1] == Approx(std::cos(1.0)));
  }
  SECTION("shape-only constants fold to shape-only constants") {
    Graph s = constant_fold(prefill_layer(kSmallCfg, 8, 0, ParamMode::shapes())).graph;
    CHECK(count_ops(s, Op::Cos) == 0);
  }
}

TEST_CASE("simplify applies algebraic identities") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor a = (x + 0.0) * 1.0;                    // two identities
  Tensor b = -(-a);                              // double negation
  Tensor c = b / 4.0;                            // → b * 0.25
  Tensor d = reshape(reshape(c, {32}), {8, 4});  // view chain
  Tensor e = transpose(transpose(x, {1, 0}), {1, 0});
  g.set_outputs({d.id(), e.id()});
  PassResult r = simplify(g);
  CHECK(r.rewrites == 7);  // x+0, x*1, -(-x), x/c, reshape∘reshape, transpose∘transpose, identity transpose
  CHECK(count_ops(r.graph, Op::Neg) == 0);
  CHECK(count_ops(r.graph, Op::Div) == 0);
  CHECK(count_ops(r.graph, Op::Add) == 0);
  CHECK(count_ops(r.graph, Op::Reshape) == 1);
  CHECK(count_ops(r.graph, Op::Transpose) == 0);
  check_idempotent(simplify, g);
}

TEST_CASE("simplify leaves alone what is not an identity") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 1}));
  Tensor zeros(&g, g.constant({4, 8}, nullptr));
  Tensor y = x + zeros;  // broadcasting: x alone has the wrong shape
  Tensor z = x * 2.0;
  g.set_outputs({y.id(), z.id()});
  CHECK(simplify(g).rewrites == 0);
}

TEST_CASE("fold_norm_weight moves the norm weights into the projections") {
  Graph d = cse(decompose(small_prefill()).graph).graph;
  PassResult r = fold_norm_weight(d);
  CHECK(r.rewrites == 5);  // wq, wk, wv after the first norm; w_gate, w_up after the second
  int folded = 0;
  for (const Node& n : r.graph.nodes()) folded += n.op == Op::Param && n.attrs.name.find('*') != std::string::npos;
  CHECK(folded == 5);
  check_idempotent(fold_norm_weight, d);
}

TEST_CASE("fold_norm_weight leaves a weighted norm alone when it has another user") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor w(&g, g.param("w", {8})), W(&g, g.param("W", {8, 3}));
  Tensor y = x * w;
  g.set_outputs({matmul(y, W).id(), y.id()});
  CHECK(fold_norm_weight(g).rewrites == 0);
}

TEST_CASE("remove_dead drops what the outputs do not need") {
  Graph g;
  Tensor x(&g, g.input("x", {4}));
  Tensor unused = exp(x);
  (void)unused;
  g.set_outputs({(-x).id()});
  PassResult r = remove_dead(g);
  CHECK(r.rewrites == 1);
  CHECK(count_ops(r.graph, Op::Exp) == 0);
}

TEST_CASE("remove_dead compacts in place: the nodes after a dropped one, their inputs and the outputs are renumbered") {
  Graph g;
  Tensor x(&g, g.input("x", {4}));
  (void)exp(x);  // dead, between x and the nodes kept
  Tensor a = -x;
  Tensor b = a * x;
  (void)rsqrt(b);  // dead, after them
  g.set_outputs({b.id(), a.id()});
  PassResult r = remove_dead(g);
  CHECK(r.rewrites == 2);
  REQUIRE(r.graph.size() == 3);
  verify(r.graph);  // every input comes earlier and exists
  const Node& out = r.graph.node(r.graph.outputs()[0]);
  CHECK(out.op == Op::Mul);
  CHECK(out.inputs[0] == r.graph.outputs()[1]);  // still a
  CHECK(r.graph.node(r.graph.outputs()[1]).op == Op::Neg);
  CHECK(r.graph.node(out.inputs[1]).op == Op::Input);
}

TEST_CASE("the pipeline runs the standard order and can stop after any stage") {
  Graph g = small_prefill();
  auto all = run_pipeline(g, {true, kLastStage, true});
  REQUIRE(all.size() == 7);
  CHECK(all[1].stage == Stage::MatchAttention);
  CHECK(all.back().stage == Stage::FoldNormWeight);
  auto no_attention = run_pipeline(g, {false, kLastStage, true});
  CHECK(no_attention.size() == 6);
  auto partial = run_pipeline(g, {true, Stage::Cse, true});
  CHECK(partial.back().stage == Stage::Cse);
  CHECK(partial.size() == 4);
}
