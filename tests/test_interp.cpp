// The reference interpreter against hand-computed values.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "core/interp.h"

using namespace fl;

namespace {

using Dims = std::vector<int64_t>;
const float kInf = std::numeric_limits<float>::infinity();

Values vals(std::vector<float> v) { return std::make_shared<const std::vector<float>>(std::move(v)); }

std::vector<float> iota(size_t n, float start = 0) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

void check_values(const TensorValue& got, const Dims& shape, const std::vector<float>& want) {
  REQUIRE(got.shape == shape);
  REQUIRE(got.data.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(got.data[i] == Approx(want[i]).margin(1e-6));
  }
}

// Runs a graph whose output is `op` applied to one input `x` of the given shape and values.
TensorValue run_unary(Op op, const Dims& shape, std::vector<float> x, Attrs a = {}) {
  Graph g;
  Shape s(shape.begin(), shape.end());
  NodeId in = g.input("x", s);
  g.set_outputs({g.add(op, {in}, a)});
  return run(g, {{"x", {shape, std::move(x)}}})[0];
}

TensorValue run_binary(Op op, const Dims& sa, std::vector<float> a, const Dims& sb, std::vector<float> b) {
  Graph g;
  NodeId x = g.input("a", Shape(sa.begin(), sa.end()));
  NodeId y = g.input("b", Shape(sb.begin(), sb.end()));
  g.set_outputs({g.add(op, {x, y})});
  return run(g, {{"a", {sa, std::move(a)}}, {"b", {sb, std::move(b)}}})[0];
}

}  // namespace

TEST_CASE("binary pointwise ops on equal shapes", "[interp]") {
  std::vector<float> a{1, 2, 3, 4}, b{2, 4, 8, 16};
  check_values(run_binary(Op::Add, {2, 2}, a, {2, 2}, b), {2, 2}, {3, 6, 11, 20});
  check_values(run_binary(Op::Sub, {2, 2}, a, {2, 2}, b), {2, 2}, {-1, -2, -5, -12});
  check_values(run_binary(Op::Mul, {2, 2}, a, {2, 2}, b), {2, 2}, {2, 8, 24, 64});
  check_values(run_binary(Op::Div, {2, 2}, a, {2, 2}, b), {2, 2}, {0.5f, 0.5f, 0.375f, 0.25f});
}

TEST_CASE("a rank-0 scalar broadcasts against any shape, on either side", "[interp]") {
  Graph g;
  NodeId x = g.input("x", {2, 2});
  NodeId two = g.scalar(2.5);
  g.set_outputs({g.add(Op::Mul, {x, two}), g.add(Op::Sub, {two, x}), g.add(Op::Add, {two, two})});
  auto out = run(g, {{"x", {{2, 2}, {1, 2, 3, 4}}}});
  check_values(out[0], {2, 2}, {2.5f, 5, 7.5f, 10});
  check_values(out[1], {2, 2}, {1.5f, 0.5f, -0.5f, -1.5f});
  check_values(out[2], {}, {5});
}

TEST_CASE("(3,1) + (1,4) broadcasts to (3,4)", "[interp]") {
  auto out = run_binary(Op::Add, {3, 1}, {0, 10, 20}, {1, 4}, {1, 2, 3, 4});
  check_values(out, {3, 4}, {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24});
}

TEST_CASE("broadcasting aligns shapes on the right", "[interp]") {
  // (2,3) - (3): the row vector is subtracted from every row.
  check_values(run_binary(Op::Sub, {2, 3}, {5, 6, 7, 8, 9, 10}, {3}, {1, 2, 3}), {2, 3}, {4, 4, 4, 7, 7, 7});
  // (2,1,3) * (4,1) -> (2,4,3): out[i][j][k] = a[i][0][k] * b[j][0].
  std::vector<float> a = iota(6, 1), b{1, -1, 2, 0.5f};
  auto out = run_binary(Op::Mul, {2, 1, 3}, a, {4, 1}, b);
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) want.push_back(a[static_cast<size_t>(i * 3 + k)] * b[static_cast<size_t>(j)]);
  check_values(out, {2, 4, 3}, want);
}

TEST_CASE("unary pointwise ops", "[interp]") {
  std::vector<float> x{0, 1, 4, -2};
  check_values(run_unary(Op::Neg, {4}, x), {4}, {0, -1, -4, 2});
  check_values(run_unary(Op::Exp, {4}, x), {4}, {1, 2.7182818f, 54.59815f, 0.13533528f});
  check_values(run_unary(Op::Rsqrt, {3}, {1, 4, 0.25f}), {3}, {1, 0.5f, 2});
  check_values(run_unary(Op::Cos, {3}, {0, 3.14159265f, 1}), {3}, {1, -1, 0.54030231f});
  check_values(run_unary(Op::Sin, {3}, {0, 1.57079633f, 1}), {3}, {0, 1, 0.84147098f});
  // silu(x) = x / (1 + e^-x)
  check_values(run_unary(Op::SiLU, {4}, x), {4}, {0, 0.73105858f, 3.92805516f, -0.23840584f});
}

TEST_CASE("rot_pairs maps (a, b) to (-b, a) on the last axis", "[interp]") {
  check_values(run_unary(Op::RotPairs, {2, 4}, iota(8, 1)), {2, 4}, {-2, 1, -4, 3, -6, 5, -8, 7});
}

TEST_CASE("causal_mask with offset 0 hides keys after the query", "[interp]") {
  // (2, 3, 3): the mask repeats over the leading (batch) axis.
  auto out = run_unary(Op::CausalMask, {2, 3, 3}, iota(18, 1));
  REQUIRE(out.shape == Dims{2, 3, 3});
  for (size_t b = 0; b < 2; ++b)
    for (size_t q = 0; q < 3; ++q)
      for (size_t k = 0; k < 3; ++k) {
        size_t i = (b * 3 + q) * 3 + k;
        INFO("b " << b << " q " << q << " k " << k);
        if (k > q) CHECK(out.data[i] == -kInf);
        else CHECK(out.data[i] == static_cast<float>(i + 1));
      }
}

TEST_CASE("causal_mask with a symbolic offset P", "[interp]") {
  Graph g;
  NodeId x = g.input("x", {2, 5});
  Attrs a;
  a.mask_offset = Dim::symbol("P");
  g.set_outputs({g.add(Op::CausalMask, {x}, a)});
  Feeds feeds{{"x", {{2, 5}, iota(10, 1)}}};
  // P = 2: query 0 sees keys 0..2, query 1 sees keys 0..3.
  check_values(run(g, feeds, {{"P", 2}})[0], {2, 5}, {1, 2, 3, -kInf, -kInf, 6, 7, 8, 9, -kInf});
  // P = -1: query 0 sees nothing, query 1 sees key 0.
  check_values(run(g, feeds, {{"P", -1}})[0], {2, 5}, {-kInf, -kInf, -kInf, -kInf, -kInf, 6, -kInf, -kInf, -kInf, -kInf});
  REQUIRE_THROWS_AS(run(g, feeds), UnboundSymbol);
}

TEST_CASE("sum, mean and max reduce the last axis to size 1", "[interp]") {
  std::vector<float> x{1, 5, 3, -4, -2, -9};
  check_values(run_unary(Op::Sum, {2, 3}, x), {2, 1}, {9, -15});
  check_values(run_unary(Op::Mean, {2, 3}, x), {2, 1}, {3, -5});
  check_values(run_unary(Op::Max, {2, 3}, x), {2, 1}, {5, -2});
  check_values(run_unary(Op::Sum, {4}, {1, 2, 3, 4}), {1}, {10});
}

TEST_CASE("reshape keeps the data, and the target shape may be symbolic", "[interp]") {
  Graph g;
  Dim s = Dim::symbol("S");
  NodeId x = g.input("x", {s, 2});
  g.set_outputs({g.add(Op::Reshape, {x}, {}, {Dim(2), s})});
  auto out = run(g, {{"x", {{3, 2}, iota(6)}}}, {{"S", 3}})[0];
  check_values(out, {2, 3}, iota(6));
}

TEST_CASE("transpose: output axis i is input axis perm[i]", "[interp]") {
  Attrs a;
  a.perm = {1, 0};
  check_values(run_unary(Op::Transpose, {2, 3}, iota(6), a), {3, 2}, {0, 3, 1, 4, 2, 5});

  // (2,3,4) with perm (2,0,1) -> (4,2,3): out[i][j][k] = in[j][k][i].
  a.perm = {2, 0, 1};
  auto out = run_unary(Op::Transpose, {2, 3, 4}, iota(24), a);
  std::vector<float> want;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) want.push_back(static_cast<float>(j * 12 + k * 4 + i));
  check_values(out, {4, 2, 3}, want);
}

TEST_CASE("repeat_kv: output head h reads input head h / n_rep", "[interp]") {
  Attrs a;
  a.n_rep = 3;
  // heads (2, 1, 2): [[1,2]], [[3,4]] -> six heads a a a b b b
  check_values(run_unary(Op::RepeatKV, {2, 1, 2}, {1, 2, 3, 4}, a), {6, 1, 2},
               {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
}

TEST_CASE("matmul of two matrices", "[interp]") {
  // [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,1]]
  check_values(run_binary(Op::MatMul, {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}, {1, 0, 0, 1, 1, 1}), {2, 2},
               {4, 5, 10, 11});
}

TEST_CASE("matmul broadcasts batch dimensions", "[interp]") {
  std::mt19937 rng(7);
  // a (2,1,2,3) @ b (3,3,2) -> (2,3,2,2): batch (2,1) with (3) broadcasts to (2,3).
  auto a = random_floats(2 * 2 * 3, rng), b = random_floats(3 * 3 * 2, rng);
  auto out = run_binary(Op::MatMul, {2, 1, 2, 3}, a, {3, 3, 2}, b);
  std::vector<float> want;
  for (size_t i = 0; i < 2; ++i)
    for (size_t j = 0; j < 3; ++j)
      for (size_t r = 0; r < 2; ++r)
        for (size_t c = 0; c < 2; ++c) {
          float s = 0;
          for (size_t p = 0; p < 3; ++p) s += a[i * 6 + r * 3 + p] * b[j * 6 + p * 2 + c];
          want.push_back(s);
        }
  check_values(out, {2, 3, 2, 2}, want);

  // A rank-2 weight is shared by every batch: (2,1,2) @ (2,3).
  check_values(run_binary(Op::MatMul, {2, 1, 2}, {1, 2, 3, 4}, {2, 3}, {1, 0, 1, 0, 1, 1}), {2, 1, 3},
               {1, 2, 3, 3, 4, 7});
}

TEST_CASE("rmsnorm", "[interp]") {
  Graph g;
  NodeId x = g.input("x", {2, 2});
  NodeId w = g.param("w", {2}, vals({1, 2}));
  Attrs a;
  a.eps = 1.0;
  g.set_outputs({g.add(Op::RMSNorm, {x, w}, a)});
  // row [3,4]: mean square 12.5, + eps 13.5; row [1,1]: 1 + 1 = 2
  const float r0 = 1 / std::sqrt(13.5f), r1 = 1 / std::sqrt(2.0f);
  check_values(run(g, {{"x", {{2, 2}, {3, 4, 1, 1}}}})[0], {2, 2}, {3 * r0, 8 * r0, r1, 2 * r1});
}

TEST_CASE("softmax over the last axis", "[interp]") {
  check_values(run_unary(Op::Softmax, {2, 3}, {1, 2, 3, 0, 0, 0}), {2, 3},
               {0.09003057f, 0.24472847f, 0.66524096f, 1 / 3.f, 1 / 3.f, 1 / 3.f});
  // large logits would overflow exp() without subtracting the row max
  check_values(run_unary(Op::Softmax, {2}, {1000, 1000}), {2}, {0.5f, 0.5f});
  check_values(run_unary(Op::Softmax, {3}, {0, -kInf, 0}), {3}, {0.5f, 0, 0.5f});
  // a fully masked row gives zeros, not NaN
  check_values(run_unary(Op::Softmax, {2}, {-kInf, -kInf}), {2}, {0, 0});
}

TEST_CASE("attention on a hand-computed case", "[interp]") {
  Graph g;
  NodeId q = g.input("q", {1, 2, 1}), k = g.input("k", {1, 2, 1}), v = g.input("v", {1, 2, 1});
  Attrs a;
  a.scale = 1.0;
  g.set_outputs({g.add(Op::Attention, {q, k, v}, a)});
  // query 0 sees key 0 only -> v0 = 4; query 1 scores (0, ln 3) -> weights (1/4, 3/4) -> 1 + 6 = 7
  auto out = run(g, {{"q", {{1, 2, 1}, {5, 1}}}, {"k", {{1, 2, 1}, {0, std::log(3.0f)}}}, {"v", {{1, 2, 1}, {4, 8}}}});
  check_values(out[0], {1, 2, 1}, {4, 7});
}

TEST_CASE("attention equals matmul, scale, mask, softmax, matmul", "[interp]") {
  std::mt19937 rng(42);
  const int64_t heads = 2, tq = 3, tk = 5, dh = 4, dv = 3;
  Dim p = Dim::symbol("P");
  Graph g;
  NodeId q = g.input("q", {heads, tq, dh}), k = g.input("k", {heads, tk, dh}), v = g.input("v", {heads, tk, dv});
  Attrs fused;
  fused.scale = 0.5;
  fused.mask_offset = p;
  NodeId att = g.add(Op::Attention, {q, k, v}, fused);

  Attrs t;
  t.perm = {0, 2, 1};
  NodeId scores = g.add(Op::MatMul, {q, g.add(Op::Transpose, {k}, t)});
  NodeId scaled = g.add(Op::Mul, {scores, g.scalar(0.5)});
  Attrs mask;
  mask.mask_offset = p;
  NodeId probs = g.add(Op::Softmax, {g.add(Op::CausalMask, {scaled}, mask)});
  g.set_outputs({att, g.add(Op::MatMul, {probs, v})});

  Feeds feeds{{"q", {{heads, tq, dh}, random_floats(heads * tq * dh, rng)}},
              {"k", {{heads, tk, dh}, random_floats(heads * tk * dh, rng)}},
              {"v", {{heads, tk, dv}, random_floats(heads * tk * dv, rng)}}};
  for (int64_t past : {0, 2}) {  // P = 2: three new queries after two cached keys
    INFO("P = " << past);
    auto out = run(g, feeds, {{"P", past}});
    check_values(out[0], {heads, tq, dv}, out[1].data);
  }
}

TEST_CASE("kv_write replaces one row of every head", "[interp]") {
  Graph g;
  NodeId cache = g.input("cache", {2, 3, 2}), fresh = g.input("new", {2, 1, 2});
  Attrs a;
  a.row = Dim::symbol("P");
  g.set_outputs({g.add(Op::KVWrite, {cache, fresh}, a)});
  Feeds feeds{{"cache", {{2, 3, 2}, iota(12)}}, {"new", {{2, 1, 2}, {-1, -2, -3, -4}}}};
  check_values(run(g, feeds, {{"P", 1}})[0], {2, 3, 2}, {0, 1, -1, -2, 4, 5, 6, 7, -3, -4, 10, 11});
  check_values(run(g, feeds, {{"P", 2}})[0], {2, 3, 2}, {0, 1, 2, 3, -1, -2, 6, 7, 8, 9, -3, -4});
  REQUIRE_THROWS_WITH(run(g, feeds, {{"P", 3}}), Catch::Contains("outside [0, 3)"));
  REQUIRE_THROWS_AS(run(g, feeds, {{"P", -1}}), std::runtime_error);
}

TEST_CASE("params and constants supply their bound values", "[interp]") {
  Graph g;
  NodeId w = g.param("w", {3}, vals({1, 2, 3}));
  NodeId c = g.constant({3}, vals({10, 20, 30}));
  g.set_outputs({g.add(Op::Add, {w, c}), w});
  auto out = run(g, {});
  REQUIRE(out.size() == 2);
  check_values(out[0], {3}, {11, 22, 33});
  check_values(out[1], {3}, {1, 2, 3});
}

TEST_CASE("eval_node evaluates one node from given values", "[interp]") {
  Graph g;
  NodeId x = g.input("x", {2}), y = g.input("y", {2});
  NodeId sum = g.add(Op::Add, {x, y});
  TensorValue a{{2}, {1, 2}}, b{{2}, {30, 40}};
  check_values(eval_node(g.node(sum), {&a, &b}, {}), {2}, {31, 42});
  REQUIRE_THROWS_AS(eval_node(g.node(sum), {&a}, {}), std::runtime_error);
  REQUIRE_THROWS_AS(eval_node(g.node(x), {}, {}), std::runtime_error);  // inputs come from run()'s feeds
}

TEST_CASE("run reports bad feeds, unbound symbols and missing values", "[interp]") {
  Graph g;
  Dim s = Dim::symbol("S");
  NodeId x = g.input("tokens", {s, 2});
  g.set_outputs({g.add(Op::Neg, {x})});
  Binding bind{{"S", 2}};

  SECTION("missing feed names the input") {
    REQUIRE_THROWS_WITH(run(g, {}, bind), Catch::Contains("tokens"));
  }
  SECTION("mis-shaped feed names the input") {
    REQUIRE_THROWS_WITH(run(g, {{"tokens", {{2, 3}, iota(6)}}}, bind), Catch::Contains("tokens"));
    REQUIRE_THROWS_WITH(run(g, {{"tokens", {{2, 2}, iota(3)}}}, bind), Catch::Contains("tokens"));
  }
  SECTION("unbound symbol") {
    REQUIRE_THROWS_AS(run(g, {{"tokens", {{2, 2}, iota(4)}}}), UnboundSymbol);
  }
  SECTION("a param without a value names the param") {
    Graph h;
    h.set_outputs({h.add(Op::Exp, {h.param("wq", {2})})});
    REQUIRE_THROWS_WITH(run(h, {}), Catch::Contains("wq"));
  }
  SECTION("the feed is accepted under the binding") {
    check_values(run(g, {{"tokens", {{2, 2}, {1, -2, 3, 0}}}}, bind)[0], {2, 2}, {-1, 2, -3, 0});
  }
}

TEST_CASE("tanh, gelu (tanh approximation) and layernorm", "[interp]") {
  check_values(run_unary(Op::Tanh, {3}, {0, 1, -2}), {3}, {0, 0.7615942f, -0.9640276f});
  check_values(run_unary(Op::Gelu, {4}, {0, 1, -1, 3}), {4}, {0, 0.841192f, -0.158808f, 2.9963626f});
  Graph g;
  NodeId x = g.input("x", {1, 4});
  NodeId w = g.param("w", {4}, vals({1, 1, 1, 1}));
  NodeId b = g.param("b", {4}, vals({0, 0, 0, 1}));
  Attrs a;
  a.eps = 1e-5;
  g.set_outputs({g.add(Op::LayerNorm, {x, w, b}, a)});
  // [1, 2, 3, 4]: mean 2.5, variance 1.25
  check_values(run(g, {{"x", {{1, 4}, {1, 2, 3, 4}}}})[0], {1, 4}, {-1.341635f, -0.447212f, 0.447212f, 2.341635f});
}
