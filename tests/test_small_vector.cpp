#include <catch2/catch.hpp>

#include <vector>

#include "core/dim.h"
#include "core/small_vector.h"

using namespace fl;

namespace {
template <class V>
std::vector<int> items(const V& v) {
  return {v.begin(), v.end()};
}
}  // namespace

TEST_CASE("a small vector keeps its elements inline and spills past N") {
  SmallVector<int, 3> v{1, 2};
  CHECK(items(v) == std::vector<int>{1, 2});
  for (int i = 3; i <= 9; ++i) v.push_back(i);  // spills at the fourth
  CHECK(items(v) == std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  v.push_back(v[0]);  // an element of its own, while the heap grows
  CHECK(v.size() == 10);
  CHECK(v.back() == 1);
  v.erase(v.begin() + 1, v.begin() + 8);
  CHECK(items(v) == std::vector<int>{1, 9, 1});
  v.insert(v.begin() + 1, 5);
  CHECK(items(v) == std::vector<int>{1, 5, 9, 1});
  v.pop_back();
  v.resize(5, 7);
  CHECK(items(v) == std::vector<int>{1, 5, 9, 7, 7});
  CHECK_THROWS_AS(v.at(5), std::out_of_range);
  v.resize(30, v[1]);  // filled with one of its own, while the heap grows
  CHECK(v.size() == 30);
  CHECK(v.back() == 5);
}

TEST_CASE("small vectors copy and move inline and heap elements alike") {
  SmallVector<int, 3> small{1, 2}, big{1, 2, 3, 4, 5};
  SmallVector<int, 3> a = small, b = big;
  CHECK(a == small);
  CHECK(b == big);
  a = big;  // inline -> heap
  CHECK(items(a) == items(big));
  b = small;  // heap room kept, two elements
  CHECK(items(b) == std::vector<int>{1, 2});
  SmallVector<int, 3> moved_big = std::move(a), moved_small = std::move(b);
  CHECK(items(moved_big) == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(items(moved_small) == std::vector<int>{1, 2});
  CHECK(a.empty());  // NOLINT: moved-from is empty by design
  CHECK(b.empty());  // NOLINT
  a.push_back(8);    // and usable
  CHECK(items(a) == std::vector<int>{8});
  moved_small = std::move(moved_big);  // heap into a vector with heap room
  CHECK(items(moved_small) == std::vector<int>{1, 2, 3, 4, 5});
  CHECK(small < big);
  CHECK_FALSE(big < small);
}

TEST_CASE("shapes of symbolic dimensions copy as values") {
  const Dim S = Dim::symbol("S");
  Shape s{8, S * 4, 128, S + 1, 2};  // rank five: on the heap
  Shape t = s;
  t[1] = 3;
  CHECK(s[1] == S * 4);
  CHECK(shape_str(t) == "(8, 3, 128, S + 1, 2)");
  CHECK(numel(s).eval({{"S", 2}}) == 8 * 8 * 128 * 3 * 2);
}
