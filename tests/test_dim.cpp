#include <catch2/catch.hpp>

#include "core/dim.h"

using namespace fl;

TEST_CASE("constant dims behave like integers") {
  Dim a = 6, b = 7;
  CHECK((a * b).constant() == 42);
  CHECK((a + b).constant() == 13);
  CHECK((a * b).is_constant());
  CHECK((a + Dim(-6)) == Dim(0));
}

TEST_CASE("symbolic dims are polynomials evaluated under a binding") {
  Dim S = Dim::symbol("S"), P = Dim::symbol("P");
  Dim e = Dim(32) * S + Dim(1);
  CHECK_FALSE(e.is_constant());
  CHECK(e.eval({{"S", 4096}}) == 32 * 4096 + 1);
  CHECK(e.str() == "32*S + 1");
  CHECK(S * P == P * S);
  CHECK(S + S == Dim(2) * S);
  CHECK((S + Dim(1)) * (S + Dim(1)) == S * S + Dim(2) * S + Dim(1));
  CHECK(S != P);
  CHECK(e.symbols() == std::vector<std::string>{"S"});
}

TEST_CASE("products with a number scale the polynomial, products of polynomials expand it") {
  const Dim S = Dim::symbol("S"), B = Dim::symbol("B"), T = Dim::symbol("T");
  const Dim p = B * T + S * 3 + 2;
  CHECK(p * Dim(0) == Dim(0));
  CHECK((p * Dim(0)).is_constant());
  CHECK(p * Dim(1) == p);
  CHECK(Dim(5) * p == p * Dim(5));
  CHECK((p * Dim(5)).str() == "5*B*T + 15*S + 10");
  CHECK(p * (S + 1) == B * T * S + B * T + S * S * 3 + S * 5 + 2);
  CHECK(((S + 1) * (S + Dim(-1))).str() == "S*S - 1");  // the S terms cancel and go
  const Binding b{{"S", 7}, {"B", 3}, {"T", 11}};
  CHECK((p * (S + 1)).eval(b) == p.eval(b) * 8);
  CHECK(numel(Shape{B, 4, T, 2}) == B * T * 8);
  CHECK(numel(Shape{4, 0, S}) == Dim(0));
}

TEST_CASE("a dimension equals the same polynomial however it was built") {
  // The symbolic part is kept as a common factor times an interned polynomial:
  // equal values must compare equal whatever the factor, its sign or the path.
  const Dim S = Dim::symbol("S"), T = Dim::symbol("T");
  const Dim p = S * 3 + T * Dim(-2);
  CHECK(S * 6 + T * Dim(-4) == p.scaled(2));
  CHECK(p * Dim(-2) == S * Dim(-6) + T * 4);
  CHECK((p * Dim(-2)).str() == "-6*S + 4*T");
  CHECK((S * 4 + S * Dim(-4)).is_constant());
  CHECK(S * 2 + 1 + S * Dim(-2) == Dim(1));
  CHECK((S * 2 + 1 + S * Dim(-2)).is_constant());
  CHECK(S * 4 + T * 4 == (S + T) * 4);
  CHECK(S * 4 + T * 4 != (S + T) * 2);
  CHECK(S * 2 < S * 3);
  CHECK_FALSE(S * 3 < S * 2);
  std::vector<std::pair<std::vector<std::string>, int64_t>> terms;
  (p * Dim(-2) + 5).for_each_term([&](const std::vector<std::string>& mono, int64_t c) { terms.emplace_back(mono, c); });
  CHECK(terms == decltype(terms){{{}, 5}, {{"S"}, -6}, {{"T"}, 4}});
  CHECK((p * (S + 1)).eval({{"S", 5}, {"T", 7}}) == (15 - 14) * 6);
}

TEST_CASE("evaluating an unbound symbol is a clear error") {
  Dim S = Dim::symbol("S");
  CHECK_THROWS_AS(S.eval({}), UnboundSymbol);
  CHECK_THROWS_WITH(S.eval({{"P", 1}}), Catch::Contains("'S'"));
  CHECK_THROWS_AS(S.constant(), UnboundSymbol);
}

TEST_CASE("numel and shape strings") {
  Shape s{8, Dim::symbol("S"), 128};
  CHECK(numel(s).eval({{"S", 4096}}) == 8 * 4096 * 128);
  CHECK(shape_str(s) == "(8, S, 128)");
  CHECK(eval_shape(s, {{"S", 2}}) == std::vector<int64_t>{8, 2, 128});
}

TEST_CASE("a table of element counts evaluates each shape as eval_numel does") {
  const Dim S = Dim::symbol("S"), B = Dim::symbol("B"), T = Dim::symbol("T");
  const std::vector<Shape> shapes{{},           {7},         {0, S},       {S, 128},          {S + 1, 4, B},
                                  {B * S * 8},  {B * T * T + T * 3 + 2, T}, {S * S, 2, 3}, {Dim(-4) + B, B}};
  NumelTable table;
  for (size_t i = 0; i < shapes.size(); ++i) CHECK(table.add(shapes[i]) == i);
  NumelTable tail;  // the last five copied from the first
  tail.add({T, T});
  tail.append(table, 4, shapes.size());
  for (const Binding& b : {Binding{{"S", 1}, {"B", 1}, {"T", 1}}, Binding{{"S", 4096}, {"B", 8}, {"T", 3}, {"P", 5}}}) {
    const std::vector<int64_t> values = table.eval(b);
    REQUIRE(values.size() == shapes.size());
    for (size_t i = 0; i < shapes.size(); ++i) CHECK(values[i] == eval_numel(shapes[i], b));
    const std::vector<int64_t> copied = tail.eval(b);
    REQUIRE(copied.size() == 6);
    CHECK(copied[0] == b.at("T") * b.at("T"));
    for (size_t i = 4; i < shapes.size(); ++i) CHECK(copied[i - 3] == values[i]);
  }
  CHECK_THROWS_AS(table.eval({{"S", 1}, {"B", 2}}), UnboundSymbol);  // T is missing
}
