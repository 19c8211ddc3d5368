// Symbolic tensor dimensions.
//
// A dimension is a polynomial over named symbols with integer coefficients,
// e.g. `S`, `S + 1` or `32 * S`. Decode traces the KV length as S and the
// position as P; costs are computed under a binding such as {S: 4096}.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/small_vector.h"

namespace fl {

using Binding = std::map<std::string, int64_t>;

// Raised when a symbolic dimension is evaluated without a value for a symbol.
struct UnboundSymbol : std::runtime_error {
  std::string symbol;
  explicit UnboundSymbol(const std::string& s)
      : std::runtime_error("symbol '" + s + "' has no value: bind it (e.g. {" + s + ": 4096})"), symbol(s) {}
};

class Dim {
 public:
  Dim(int64_t constant = 0);  // NOLINT: implicit, so shapes read like {T, d}
  static Dim symbol(const std::string& name);

  Dim operator+(const Dim& o) const;
  Dim operator*(const Dim& o) const;
  Dim scaled(int64_t k) const;  // this * k, without multiplying polynomials
  bool operator==(const Dim& o) const;
  bool operator!=(const Dim& o) const { return !(*this == o); }
  bool operator<(const Dim& o) const;

  bool is_constant() const { return !poly_; }
  // The value of a constant dimension; throws UnboundSymbol on a symbolic one.
  int64_t constant() const { return poly_ ? eval_symbolic({}) : constant_; }
  int64_t eval(const Binding& b) const { return poly_ ? eval_symbolic(b) : constant_; }
  std::vector<std::string> symbols() const;
  // f(symbols, coefficient) for each of the polynomial's terms: its symbols
  // repeated for powers, the constant term (first) with no symbols.
  template <class F>
  void for_each_term(F&& f) const {
    static const std::vector<std::string> kNoSymbols;
    if (constant_ != 0 || !poly_) f(kNoSymbols, constant_);
    if (poly_)
      for (const auto& [mono, c] : *poly_) f(mono, scale_ * c);
  }
  std::string str() const;

 private:
  // monomial (sorted symbol names, repeated for powers) -> coefficient
  using Terms = std::map<std::vector<std::string>, int64_t>;
  Terms terms() const;
  static Dim from_terms(Terms t);
  static const Terms* intern(Terms t);
  int64_t eval_symbolic(const Binding& b) const;

  // constant_ + scale_ * (*poly_). A dimension is a plain value, copied
  // without allocating or counting references: the symbolic part is interned
  // once for the process, with its coefficients' common factor (and sign)
  // moved into scale_, so that the polynomials are the few shapes a layer
  // has (T, B*T, S, P, ...) whatever the model's numbers, and two dimensions
  // are equal when their three fields are.
  int64_t constant_ = 0;
  int64_t scale_ = 0;  // 0 when constant
  const Terms* poly_ = nullptr;  // gcd of coefficients 1, first coefficient > 0
};

// Ranks above four spill to the heap.
using Shape = SmallVector<Dim, 4>;

Dim numel(const Shape& s);
std::string shape_str(const Shape& s);
std::vector<int64_t> eval_shape(const Shape& s, const Binding& b);
// numel(s).eval(b) without building the product's polynomial: what costing
// under a binding does for every node.
int64_t eval_numel(const Shape& s, const Binding& b);

// The element counts of many shapes, compiled for evaluation under many
// bindings: each binding's symbols are looked up once, then every count is a
// number times a product of the shape's symbolic dimensions, each a sum of
// products of numbers (costing a compiled graph evaluates every node's count).
// The dimensions are not multiplied out: adding a shape allocates nothing.
class NumelTable {
 public:
  size_t add(const Shape& s);  // its index
  void append(const NumelTable& from, size_t begin, size_t end);  // `from`'s counts [begin, end)
  size_t size() const { return counts_.size(); }
  bool operator==(const NumelTable&) const = default;
  // Every count under `b`; throws UnboundSymbol for a symbol `b` lacks.
  std::vector<int64_t> eval(const Binding& b) const;

 private:
  struct Range {  // [first, first + count) of a list
    uint32_t first, count;
    bool operator==(const Range&) const = default;
  };
  struct Term {
    int64_t coef;
    Range symbols;  // in symbol_list_
    bool operator==(const Term&) const = default;
  };
  struct Count {
    int64_t scale;  // the product of the constant dimensions
    Range factors;  // the symbolic dimensions, in factors_
    bool operator==(const Count&) const = default;
  };
  uint32_t symbol_index(const std::string& s);  // added if new
  std::vector<std::string> symbols_;
  std::vector<uint32_t> symbol_list_;
  std::vector<Term> terms_;
  std::vector<Range> factors_;  // each a sum of terms
  std::vector<Count> counts_;
};

}  // namespace fl
