// A vector that keeps up to N elements inside the object.
//
// A node's inputs (at most three) and a tensor's shape (rank four or less in
// practice) are copied every time a pass rebuilds a graph: with std::vector
// each copy is a heap allocation, and for a whole 126-layer model those
// allocations were most of the compile time. Larger sizes still work: they
// move to the heap.
//
// Invariant: size() <= N means the elements live in inline_, otherwise all of
// them live in heap_ (and inline_ holds nothing of interest).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace fl {

template <class T, size_t N>
class SmallVector {
 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() = default;
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(size_t n, const T& value) { resize(n, value); }
  SmallVector(std::initializer_list<T> items) : SmallVector(items.begin(), items.end()) {}
  template <std::input_iterator It>
  SmallVector(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  SmallVector(const SmallVector&) = default;
  SmallVector& operator=(const SmallVector&) = default;
  SmallVector(SmallVector&& o) noexcept : inline_(std::move(o.inline_)), heap_(std::move(o.heap_)), size_(o.size_) {
    o.heap_.clear();
    o.size_ = 0;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this == &o) return *this;
    inline_ = std::move(o.inline_);
    heap_ = std::move(o.heap_);
    size_ = o.size_;
    o.heap_.clear();
    o.size_ = 0;
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return size_ <= N ? inline_.data() : heap_.data(); }
  const T* data() const { return size_ <= N ? inline_.data() : heap_.data(); }

  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& at(size_t i) { return i < size_ ? data()[i] : throw std::out_of_range("SmallVector::at"); }
  const T& at(size_t i) const { return i < size_ ? data()[i] : throw std::out_of_range("SmallVector::at"); }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_t) {}  // kept for std::vector's interface; growth is cheap at these sizes

  void push_back(T value) {
    if (size_ < N) {
      inline_[size_++] = std::move(value);
      return;
    }
    if (size_ == N) {  // spill to the heap
      heap_.reserve(2 * N + 1);
      for (T& x : inline_) heap_.push_back(std::move(x));
      inline_ = {};
    }
    heap_.push_back(std::move(value));
    ++size_;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() {
    if (size_ <= N) {
      inline_[--size_] = T();
      return;
    }
    heap_.pop_back();
    if (--size_ == N) {  // back inside
      std::move(heap_.begin(), heap_.end(), inline_.begin());
      heap_.clear();
    }
  }
  void resize(size_t n, const T& value = T()) {
    while (size_ > n) pop_back();
    while (size_ < n) push_back(value);
  }
  void clear() { resize(0); }

  iterator insert(const_iterator pos, T value) {
    const auto i = pos - begin();
    push_back(std::move(value));
    std::rotate(begin() + i, end() - 1, end());
    return begin() + i;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto i = first - begin(), n = last - first;
    std::move(begin() + i + n, end(), begin() + i);
    for (auto k = 0; k < n; ++k) pop_back();
    return begin() + i;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator<(const SmallVector& a, const SmallVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<T, N> inline_{};
  std::vector<T> heap_;
  size_t size_ = 0;
};

}  // namespace fl
