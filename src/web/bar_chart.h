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

class ChartRenderer;
// The renderer every bar chart draws with (created on first use).
ChartRenderer& SharedChartRenderer();
// After a lost WebGL context was restored: drops the renderer (its GL names
// belong to the lost context) so the next chart creates a new one.
void ResetSharedChartRenderer();

// Draws the chart as one widget of `size` (CSS pixels) at the cursor.
BarChartInput DrawBarChart(const char* id, const BarChart& chart, ImVec2 size);

}  // namespace fl::web
