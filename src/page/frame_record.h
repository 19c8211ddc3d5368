// What the page records for its tests and benchmarks: the rectangles of the
// widgets it drew (so tests can click them), the numbers it drew as text (so
// tests can read what the canvas says), the input being typed into and the
// widget with the focus ring, and the last frames' times. Read back through
// getExplain() (web/explain.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace fl::web {

// The last kFrames times, for their median.
class TimeRing {
 public:
  static constexpr size_t kFrames = 120;
  void Add(double ms);
  double Median() const;  // 0 before the first
  size_t Size() const { return ms_.size(); }

 private:
  std::vector<double> ms_;
  size_t next_ = 0;  // the slot the next time replaces once the ring is full
};

struct FrameRecord {
  std::map<std::string, std::vector<float>> widgets;  // name -> x, y, width, height (CSS px)
  std::map<std::string, double> shown;                // name -> the number last drawn
  std::string active_input;    // the sidebar key being typed into, "" for none
  std::string focused_widget;  // the recorded widget with the focus ring, "" for none
  TimeRing frame_times, ui_times;
  long frames_drawn = 0;  // idle frames are skipped: tests count the drawn ones
};

}  // namespace fl::web
