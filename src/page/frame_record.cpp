#include "page/frame_record.h"

#include <algorithm>
#include <iterator>

namespace fl::web {

void TimeRing::Add(double ms) {
  if (ms_.size() < kFrames) ms_.push_back(ms);
  else ms_[next_] = ms;
  next_ = (next_ + 1) % kFrames;
}

double TimeRing::Median() const {
  if (ms_.empty()) return 0;
  std::vector<double> sorted = ms_;
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  return *middle;
}

}  // namespace fl::web
