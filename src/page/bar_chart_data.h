// What a bar chart shows: bars of stacked segments. The views build it (and
// keep it between frames); web/bar_chart.h draws it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fl::web {

struct BarSegment {
  double value;
  uint32_t color;  // 0xAABBGGRR, as ImGui packs colours
};

struct Bar {
  std::string label;                 // axis label; may be empty
  std::vector<BarSegment> segments;  // stacked outward from the baseline
  bool selected = false;             // drawn with a highlighted slot
};

struct BarChart {
  std::vector<Bar> bars;
  bool horizontal = false;                  // bars grow rightwards, labels on the left
  std::string (*format_value)(double) = nullptr;  // axis ticks
  std::string (*value_label)(double) = nullptr;   // if set, each bar's total at its end (horizontal)
  std::optional<double> reference;          // a marked value, e.g. 1.0× eager
  std::string reference_label;
  float label_width = -1;                   // horizontal: label column width; -1 fits the labels
  double axis_max = 0;                      // the value axis reaches at least this (shared scales)
};

}  // namespace fl::web
