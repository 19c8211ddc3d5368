// Bar charts drawn by ChartRenderer, with ImGui text over them.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace fl::web {

struct BarSegment {
  double value;
  ImU32 color;
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

struct BarChartInput {
  int hovered = -1;  // bar under the mouse
  bool clicked = false;
};

class ChartRenderer;
// The renderer every bar chart draws with (created on first use).
ChartRenderer& SharedChartRenderer();
// After a lost WebGL context was restored: drops the renderer (its GL names
// belong to the lost context) so the next chart creates a new one.
void ResetSharedChartRenderer();

// Draws the chart as one widget of `size` (CSS pixels) at the cursor.
BarChartInput DrawBarChart(const char* id, const BarChart& chart, ImVec2 size);

}  // namespace fl::web
