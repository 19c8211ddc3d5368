#include "core/dim.h"

#include <algorithm>
#include <iterator>
#include <mutex>
#include <numeric>
#include <set>

namespace fl {

Dim::Dim(int64_t constant) : constant_(constant) {}

Dim Dim::symbol(const std::string& name) { return from_terms({{{name}, 1}}); }

const Dim::Terms* Dim::intern(Terms t) {
  // Shared by every graph and thread; entries are immutable and never freed.
  static std::mutex mutex;
  static std::set<Terms> table;
  const std::lock_guard<std::mutex> lock(mutex);
  return &*table.insert(std::move(t)).first;
}

Dim::Terms Dim::terms() const {
  Terms t;
  if (poly_)
    for (const auto& [mono, c] : *poly_) t.emplace(mono, scale_ * c);
  if (constant_ != 0) t[{}] = constant_;
  return t;
}

Dim Dim::from_terms(Terms t) {
  Dim d;
  for (auto it = t.begin(); it != t.end();) it = it->second == 0 ? t.erase(it) : std::next(it);
  if (auto c = t.find({}); c != t.end()) {
    d.constant_ = c->second;
    t.erase(c);
  }
  if (t.empty()) return d;
  int64_t factor = 0;
  for (const auto& [mono, c] : t) factor = std::gcd(factor, c);
  if (t.begin()->second < 0) factor = -factor;
  for (auto& [mono, c] : t) c /= factor;
  d.scale_ = factor;
  d.poly_ = intern(std::move(t));
  return d;
}

bool Dim::operator==(const Dim& o) const {
  return constant_ == o.constant_ && scale_ == o.scale_ && poly_ == o.poly_;
}

bool Dim::operator<(const Dim& o) const {
  if (!poly_ && !o.poly_) return constant_ < o.constant_;
  return terms() < o.terms();
}

Dim Dim::operator+(const Dim& o) const {
  if (!o.poly_ || poly_ == o.poly_) {  // a number added, or the same polynomial scaled
    Dim d = *this;
    d.constant_ += o.constant_;
    d.scale_ += o.scale_;
    if (d.scale_ == 0) d.poly_ = nullptr;
    return d;
  }
  if (!poly_) return o + *this;
  Terms t = terms();
  for (const auto& [mono, c] : o.terms()) t[mono] += c;
  return from_terms(std::move(t));
}

Dim Dim::scaled(int64_t k) const {
  if (k == 0) return Dim(0);
  Dim d = *this;
  d.constant_ *= k;
  d.scale_ *= k;
  return d;
}

Dim Dim::operator*(const Dim& o) const {
  if (!o.poly_) return scaled(o.constant_);  // the common case: a size times a number
  if (!poly_) return o.scaled(constant_);
  // (a0 + sa Σ a) (b0 + sb Σ b): the terms read in place, no copies of either polynomial.
  Terms t;
  if (constant_ != 0)
    for (const auto& [mb, cb] : *o.poly_) t[mb] += constant_ * o.scale_ * cb;
  for (const auto& [ma, ca] : *poly_) {
    if (o.constant_ != 0) t[ma] += o.constant_ * scale_ * ca;
    for (const auto& [mb, cb] : *o.poly_) {
      std::vector<std::string> mono;
      mono.reserve(ma.size() + mb.size());
      std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(mono));  // both sorted
      t[std::move(mono)] += scale_ * ca * o.scale_ * cb;
    }
  }
  Dim d = from_terms(std::move(t));
  d.constant_ += constant_ * o.constant_;
  return d;
}

int64_t Dim::eval_symbolic(const Binding& b) const {
  int64_t sum = 0;
  for (const auto& [mono, c] : *poly_) {
    int64_t v = c;
    for (const auto& s : mono) {
      auto it = b.find(s);
      if (it == b.end()) throw UnboundSymbol(s);
      v *= it->second;
    }
    sum += v;
  }
  return constant_ + scale_ * sum;
}

std::vector<std::string> Dim::symbols() const {
  std::set<std::string> names;
  if (poly_)
    for (const auto& [mono, c] : *poly_) names.insert(mono.begin(), mono.end());
  return {names.begin(), names.end()};
}

std::string Dim::str() const {
  if (!poly_) return std::to_string(constant_);
  std::string out;
  auto append = [&](const std::vector<std::string>& mono, int64_t c) {
    if (!out.empty()) out += c < 0 ? " - " : " + ";
    else if (c < 0) out += "-";
    int64_t mag = c < 0 ? -c : c;
    std::string term;
    if (mag != 1 || mono.empty()) term = std::to_string(mag);
    for (const auto& s : mono) term += (term.empty() ? "" : "*") + s;
    out += term;
  };
  for (const auto& [mono, c] : *poly_) append(mono, scale_ * c);  // symbols first: "S + 1"
  if (constant_ != 0) append({}, constant_);
  return out;
}

Dim numel(const Shape& s) {
  // The numbers multiplied first, the polynomial scaled once.
  int64_t c = 1;
  Dim n = 1;
  for (const auto& d : s) {
    if (d.is_constant()) c *= d.constant();
    else n = n * d;
  }
  return n.scaled(c);
}

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + s[i].str();
  return out + ")";
}

int64_t eval_numel(const Shape& s, const Binding& b) {
  int64_t n = 1;
  for (const auto& d : s) n *= d.eval(b);
  return n;
}

uint32_t NumelTable::symbol_index(const std::string& s) {
  auto it = std::find(symbols_.begin(), symbols_.end(), s);
  if (it == symbols_.end()) it = symbols_.insert(symbols_.end(), s);
  return static_cast<uint32_t>(it - symbols_.begin());
}

size_t NumelTable::add(const Shape& s) {
  Count count{1, {static_cast<uint32_t>(factors_.size()), 0}};
  for (const Dim& d : s) {
    if (d.is_constant()) {
      count.scale *= d.constant();
      continue;
    }
    Range factor{static_cast<uint32_t>(terms_.size()), 0};
    d.for_each_term([&](const std::vector<std::string>& mono, int64_t coef) {
      terms_.push_back({coef, {static_cast<uint32_t>(symbol_list_.size()), static_cast<uint32_t>(mono.size())}});
      for (const std::string& name : mono) symbol_list_.push_back(symbol_index(name));
      ++factor.count;
    });
    factors_.push_back(factor);
    ++count.factors.count;
  }
  counts_.push_back(count);
  return counts_.size() - 1;
}

void NumelTable::append(const NumelTable& from, size_t begin, size_t end) {
  std::vector<uint32_t> symbol(from.symbols_.size());  // from's symbol index -> this table's
  for (size_t i = 0; i < symbol.size(); ++i) symbol[i] = symbol_index(from.symbols_[i]);
  for (size_t c = begin; c < end; ++c) {
    const Count& original = from.counts_[c];
    Count count{original.scale, {static_cast<uint32_t>(factors_.size()), original.factors.count}};
    for (uint32_t f = original.factors.first; f < original.factors.first + original.factors.count; ++f) {
      const Range& terms = from.factors_[f];
      factors_.push_back({static_cast<uint32_t>(terms_.size()), terms.count});
      for (uint32_t t = terms.first; t < terms.first + terms.count; ++t) {
        const Term& term = from.terms_[t];
        terms_.push_back({term.coef, {static_cast<uint32_t>(symbol_list_.size()), term.symbols.count}});
        for (uint32_t i = term.symbols.first; i < term.symbols.first + term.symbols.count; ++i)
          symbol_list_.push_back(symbol[from.symbol_list_[i]]);
      }
    }
    counts_.push_back(count);
  }
}

std::vector<int64_t> NumelTable::eval(const Binding& b) const {
  std::vector<int64_t> value(symbols_.size());
  for (size_t i = 0; i < symbols_.size(); ++i) {
    auto it = b.find(symbols_[i]);
    if (it == b.end()) throw UnboundSymbol(symbols_[i]);
    value[i] = it->second;
  }
  std::vector<int64_t> factor(factors_.size());
  for (size_t f = 0; f < factors_.size(); ++f) {
    int64_t sum = 0;
    for (uint32_t t = factors_[f].first; t < factors_[f].first + factors_[f].count; ++t) {
      int64_t v = terms_[t].coef;
      for (uint32_t i = terms_[t].symbols.first; i < terms_[t].symbols.first + terms_[t].symbols.count; ++i)
        v *= value[symbol_list_[i]];
      sum += v;
    }
    factor[f] = sum;
  }
  std::vector<int64_t> out(counts_.size());
  for (size_t c = 0; c < counts_.size(); ++c) {
    int64_t n = counts_[c].scale;
    for (uint32_t f = counts_[c].factors.first; f < counts_[c].factors.first + counts_[c].factors.count; ++f) n *= factor[f];
    out[c] = n;
  }
  return out;
}

std::vector<int64_t> eval_shape(const Shape& s, const Binding& b) {
  std::vector<int64_t> out;
  out.reserve(s.size());
  for (const auto& d : s) out.push_back(d.eval(b));
  return out;
}

}  // namespace fl
