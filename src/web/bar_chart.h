// Bar charts drawn by ChartRenderer, with ImGui text over them.
#pragma once

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "page/bar_chart_data.h"

namespace fl::web {

struct BarChartInput {
  int hovered = -1;  // bar under the mouse
  bool clicked = false;
};


// Draws the chart as one widget of `size` (CSS pixels) at the cursor.
BarChartInput DrawBarChart(const char* id, const BarChart& chart, ImVec2 size);

}  // namespace fl::web
