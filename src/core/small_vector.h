// A vector that keeps up to N elements inside the object.
//
// A node's inputs (at most three) and a tensor's shape (rank four or less in
// practice) are copied every time a pass rebuilds a graph: with std::vector
// each copy is a heap allocation, and for a whole 126-layer model those
// allocations were most of the compile time. Larger sizes still work: they
// move to the heap.
//
// Only plain values (trivially copyable: ids, dimensions, pairs of them) are
// kept, so a copy is one memcpy of the elements in use, and the object is the
// elements' room plus two 32-bit counts (a node holds three of these).
//
// Invariant: capacity_ == N means the elements live in inline_, otherwise all
// of them live in heap_.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>  // placement new
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace fl {

template <class T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "SmallVector keeps plain values: its copies are memcpy");
  static_assert(N > 0);

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
  SmallVector(const SmallVector& o) { copy_from(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) {
      size_ = 0;
      copy_from(o);
    }
    return *this;
  }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return on_heap() ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* data() const { return on_heap() ? heap_ : reinterpret_cast<const T*>(inline_); }

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

  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }

  void push_back(const T& value) {
    if (size_ == capacity_) {
      const T copy = value;  // `value` may be one of ours, which growing moves
      grow(2 * size_t{capacity_});
      ::new (data() + size_) T(copy);
    } else {
      ::new (data() + size_) T(value);
    }
    ++size_;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --size_; }
  void resize(size_t n, const T& value = T()) {
    const T fill = value;  // `value` may be one of ours, which growing moves
    reserve(n);
    for (size_t i = size_; i < n; ++i) ::new (data() + i) T(fill);
    size_ = static_cast<uint32_t>(n);
  }
  void clear() { size_ = 0; }

  iterator insert(const_iterator pos, const T& value) {
    const auto i = pos - begin();
    push_back(value);
    std::rotate(begin() + i, end() - 1, end());
    return begin() + i;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto i = first - begin(), n = last - first;
    std::copy(begin() + i + n, end(), begin() + i);
    size_ -= static_cast<uint32_t>(n);
    return begin() + i;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator<(const SmallVector& a, const SmallVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool on_heap() const { return capacity_ != N; }

  void grow(size_t capacity) {
    T* bigger = std::allocator<T>().allocate(capacity);
    if (size_ != 0) std::memcpy(static_cast<void*>(bigger), data(), size_ * sizeof(T));
    release();
    heap_ = bigger;
    capacity_ = static_cast<uint32_t>(capacity);
  }
  void release() {
    if (on_heap()) std::allocator<T>().deallocate(heap_, capacity_);
    capacity_ = N;
  }
  // Into an empty vector (size_ 0).
  void copy_from(const SmallVector& o) {
    if (!on_heap() && !o.on_heap())
      std::memcpy(inline_, o.inline_, sizeof inline_);  // a fixed size: a few moves, no call
    else {
      reserve(o.size_);
      if (o.size_ != 0) std::memcpy(static_cast<void*>(data()), o.data(), o.size_ * sizeof(T));
    }
    size_ = o.size_;
  }
  // Into an empty vector with no heap room; leaves `o` empty.
  void take(SmallVector& o) {
    if (o.on_heap()) {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      o.capacity_ = N;
    } else {
      std::memcpy(inline_, o.inline_, sizeof inline_);
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = N;
  union {
    alignas(T) unsigned char inline_[N * sizeof(T)];
    T* heap_;
  };
};

}  // namespace fl
