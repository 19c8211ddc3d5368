#include <catch2/catch.hpp>

#include <set>
#include <string_view>

#include "core/graph.h"
#include "core/model.h"
#include "core/trace.h"

using namespace fl;

TEST_CASE("tracing records nodes in topological order with inferred shapes") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor w(&g, g.param("w", {8, 3}));
  Tensor y = rsqrt(mean(x * x) + 1e-5);
  Tensor z = matmul(x * y, w);
  CHECK(y.shape() == Shape{4, 1});
  CHECK(z.shape() == Shape{4, 3});
  g.set_outputs({z.id()});
  CHECK_NOTHROW(verify(g));
  for (size_t i = 0; i < g.size(); ++i)
    for (NodeId in : g.nodes()[i].inputs) CHECK(static_cast<size_t>(in) < i);
}

TEST_CASE("shape inference rejects operands that do not fit") {
  Graph g;
  Tensor a(&g, g.input("a", {4, 8}));
  Tensor b(&g, g.input("b", {5, 3}));
  CHECK_THROWS_WITH(matmul(a, b), Catch::Contains("inner dimensions"));
  CHECK_THROWS_WITH(a + b, Catch::Contains("broadcast"));
  CHECK_THROWS_AS(reshape(a, {5, 7}), GraphError);
  CHECK_THROWS_AS(transpose(a, {0, 0}), GraphError);
  Tensor odd(&g, g.input("odd", {2, 3}));
  CHECK_THROWS_WITH(rot_pairs(odd), Catch::Contains("even"));
}

TEST_CASE("broadcasting follows numpy rules") {
  Graph g;
  Tensor a(&g, g.input("a", {3, 1}));
  Tensor b(&g, g.input("b", {1, 4}));
  CHECK((a + b).shape() == Shape{3, 4});
  CHECK((a * 2.0).shape() == Shape{3, 1});
}

TEST_CASE("the verifier catches broken invariants") {
  Graph g;
  Tensor x(&g, g.input("x", {4, 8}));
  Tensor y = exp(x);
  g.set_outputs({y.id()});
  verify(g);

  SECTION("a wrong stored shape") {
    Graph h = g;
    h.mutable_node(y.id()).shape = {4, 9};
    CHECK_THROWS_WITH(verify(h), Catch::Contains("should be (4, 8)"));
  }
  SECTION("an input that comes later") {
    Graph h = g;
    h.mutable_node(y.id()).inputs = {y.id()};
    CHECK_THROWS_WITH(verify(h), Catch::Contains("does not come earlier"));
  }
  SECTION("a wrong number of inputs") {
    Graph h = g;
    h.mutable_node(y.id()).inputs = {x.id(), x.id()};
    CHECK_THROWS_WITH(verify(h), Catch::Contains("expects 1 inputs"));
  }
  SECTION("an output that does not exist") {
    Graph h = g;
    h.set_outputs({99});
    CHECK_THROWS_AS(verify(h), GraphError);
  }
  SECTION("a constant whose value does not match its shape") {
    Graph h;
    h.constant({2, 2}, std::make_shared<const std::vector<float>>(3, 1.0f));
    CHECK_THROWS_WITH(verify(h), Catch::Contains("value"));
  }
  SECTION("an input that does not exist") {
    Graph h;
    CHECK_THROWS_AS(h.add(Op::Exp, {0}), GraphError);
  }
}

TEST_CASE("the traced layers verify, in prefill and decode") {
  CHECK_NOTHROW(verify(prefill_layer(kSmallCfg, 16, 0, ParamMode::random())));
  CHECK_NOTHROW(verify(prefill_layer(kLlama8B, 2048, 0, ParamMode::shapes())));
  Graph d = decode_layer(kLlama8B, ParamMode::shapes());
  CHECK_NOTHROW(verify(d));
  CHECK(d.outputs().size() == 3);
  CHECK(d.node(d.outputs()[1]).shape == Shape{8, Dim::symbol("S"), 128});
}

TEST_CASE("invalid layer configurations name the field") {
  CHECK_THROWS_WITH(prefill_layer({128, 6, 4, 16, 344}, 16, 0, ParamMode::shapes()), Catch::Contains("multiple"));
  try {
    prefill_layer({0, 8, 2, 16, 344}, 16, 0, ParamMode::shapes());
    FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.field == "d");
    CHECK(e.message(Lang::Zh).find("d") != std::string::npos);
  }
  CHECK_THROWS_AS(prefill_layer({128, 8, 2, 15, 344}, 16, 0, ParamMode::shapes()), ConfigError);
}

TEST_CASE("a transpose without a full permutation is rejected") {
  Graph g;
  NodeId x = g.input("x", {2, 3});
  CHECK_THROWS_AS(g.add(Op::Transpose, {x}, Attrs{}), GraphError);
}

TEST_CASE("a compute node takes the dtype of its tensor operand, whatever the order") {
  Graph g;
  Tensor x(&g, g.input("x", {2}, DType::FP32));
  Tensor y = 2.0 / x;
  Tensor z = x * 2.0;
  CHECK(g.node(y.id()).dtype == DType::FP32);
  CHECK(g.node(z.id()).dtype == DType::FP32);
  g.set_outputs({y.id(), z.id()});
  CHECK_NOTHROW(verify(g));
}

TEST_CASE("a rank-0 constant keeps its value in attrs") {
  Graph g;
  NodeId c = g.constant({}, std::make_shared<const std::vector<float>>(1, 3.5f));
  CHECK(g.node(c).attrs.value == 3.5);
}

TEST_CASE("a constant expression never decides an op's dtype") {
  Graph g;
  NodeId x = g.input("x", {4}, DType::BF16);
  NodeId c = g.add(Op::Mul, {g.constant({}, nullptr, DType::FP32), g.constant({}, nullptr, DType::FP32)});
  CHECK(g.node(c).constant_expr);
  CHECK(g.node(c).dtype == DType::FP32);
  NodeId y = g.add(Op::Add, {c, x});  // the constant first: x still decides
  CHECK(g.node(y).dtype == DType::BF16);
  CHECK_FALSE(g.node(y).constant_expr);
  g.set_outputs({g.add(Op::Add, {y, c})});
  CHECK_NOTHROW(verify(g));
}

TEST_CASE("the op table: one entry per op, each with its own name, sources without inputs") {
  std::set<std::string_view> names;
  for (size_t i = 0; i < kOpCount; ++i) {
    const Op op = static_cast<Op>(i);
    INFO(op_name(op));
    CHECK(!op_name(op).empty());
    CHECK(names.insert(op_name(op)).second);
    CHECK((arity(op) == 0) == (op_kind(op) == OpKind::Source));
    if (is_binary_pointwise(op)) CHECK(arity(op) == 2);
  }
  CHECK(op_name(Op::Embedding) == "embedding");  // the last entry lines up with the enum
  CHECK(arity(Op::Attention) == 3);
}
