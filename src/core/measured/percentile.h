// The q-quantile of measured figures (q = 0.5: the median), interpolated
// between the two nearest values; 0 for none.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace fl {

inline double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(at)), hi = static_cast<size_t>(std::ceil(at));
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

}  // namespace fl
