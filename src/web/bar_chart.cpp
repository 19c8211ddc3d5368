#include "web/bar_chart.h"

#include <algorithm>
#include <cmath>

#include "web/chart_renderer.h"
#include "web/theme.h"

namespace fl::web {

namespace {

double total(const Bar& b) {
  double sum = 0;
  for (const BarSegment& s : b.segments) sum += s.value;
  return sum;
}

// A round tick step (1, 2 or 5 × 10^k) giving about `target` intervals.
double nice_step(double range, int target) {
  double raw = range / target;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
}

// The smallest round count (1, 2 or 5 × 10^k) at least `n`: labelling every
// such bar makes the labels read as an axis (0, 100, 200, not 0, 79, 158).
size_t round_count_up(size_t n) {
  for (size_t mag = 1;; mag *= 10)
    for (size_t m : {1, 2, 5})
      if (m * mag >= n) return m * mag;
}

struct Axis {
  double max = 1, step = 1;
};

Axis value_axis(const BarChart& c, int target_ticks) {
  double vmax = std::max(c.reference.value_or(0), c.axis_max);
  for (const Bar& b : c.bars) vmax = std::max(vmax, total(b));
  if (!(vmax > 0)) vmax = 1;
  Axis a;
  a.step = nice_step(vmax, target_ticks);
  a.max = std::ceil(vmax * 1.02 / a.step) * a.step;
  return a;
}

std::string format(const BarChart& c, double v) {
  if (v == 0) return "0";
  return c.format_value ? c.format_value(v) : std::to_string(v);
}

// Geometry in CSS pixels relative to the chart's top-left corner; quads are
// scaled to device pixels when emitted.
struct Canvas {
  float scale;
  std::vector<Quad> quads;
  void rect(float x0, float y0, float x1, float y1, ImU32 color, float radius = 0) {
    quads.push_back({x0 * scale, y0 * scale, x1 * scale, y1 * scale, color, radius * scale});
  }
};

}  // namespace

BarChartInput DrawBarChart(const char* id, const BarChart& c, ImVec2 size) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  BarChartInput input;
  input.clicked = ImGui::InvisibleButton(id, size);
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const size_t n = std::max<size_t>(c.bars.size(), 1);

  // Plot area: room for the value axis labels and the bar labels. A short
  // chart (a scaled embed) gets fewer ticks, so that their labels do not touch.
  const int intervals = c.horizontal ? 4 : std::clamp(static_cast<int>((size.y - 2 * line - 6) / (line * 1.6f)), 1, 4);
  const Axis axis = value_axis(c, intervals);
  float max_tick_w = 0;
  for (double v = 0; v <= axis.max + axis.step * 0.5; v += axis.step)
    max_tick_w = std::max(max_tick_w, ImGui::CalcTextSize(format(c, v).c_str()).x);
  float label_w = 0;
  if (c.horizontal) {
    if (c.label_width >= 0) {
      label_w = c.label_width;
    } else {
      for (const Bar& b : c.bars) label_w = std::max(label_w, ImGui::CalcTextSize(b.label.c_str()).x);
      label_w = std::min(label_w + 8, size.x * 0.45f);
    }
  }
  float value_label_w = 0;
  if (c.value_label)
    for (const Bar& b : c.bars) value_label_w = std::max(value_label_w, ImGui::CalcTextSize(c.value_label(total(b)).c_str()).x + 6);
  const float top = !c.reference ? line * 0.4f : c.horizontal ? line + 2 : line * 0.5f;
  const float left = c.horizontal ? label_w : max_tick_w + 8;
  const float right = c.horizontal ? std::max(value_label_w, max_tick_w * 0.5f) + 4 : 6;
  const float bottom = line + 6;
  const ImVec2 p0(left, top), p1(std::max(left + 10, size.x - right), std::max(top + 10, size.y - bottom));
  const float plot_w = p1.x - p0.x, plot_h = p1.y - p0.y;
  const float slot = (c.horizontal ? plot_h : plot_w) / static_cast<float>(n);

  auto value_pos = [&](double v) {  // distance from the baseline along the value axis
    return static_cast<float>(v / axis.max) * (c.horizontal ? plot_w : plot_h);
  };
  if (hovered) {
    float along = c.horizontal ? mouse.y - origin.y - p0.y : mouse.x - origin.x - p0.x;
    int i = static_cast<int>(std::floor(along / slot));
    if (along >= 0 && i >= 0 && i < static_cast<int>(c.bars.size())) input.hovered = i;
  }
  if (input.hovered < 0) input.clicked = false;

  Canvas canvas{ImGui::GetIO().DisplayFramebufferScale.x, {}};
  const float px = 1.0f / canvas.scale;  // one device pixel
  for (double v = 0; v <= axis.max + axis.step * 0.5; v += axis.step) {
    float d = value_pos(v);
    if (c.horizontal) canvas.rect(p0.x + d, p0.y, p0.x + d + px, p1.y, Colors().chart_grid);
    else canvas.rect(p0.x, p1.y - d - px, p1.x, p1.y - d, Colors().chart_grid);
  }
  // More bars than device pixels (a whole model's thousands of kernels): per
  // pixel column only the tallest bar is drawn, which is what the eye sees
  // anyway; hover still resolves to the single bar under the mouse.
  std::vector<size_t> drawn;
  const bool dense = slot * canvas.scale < 1.0f;
  if (dense) {
    long column = -1;
    for (size_t i = 0; i < c.bars.size(); ++i) {
      const long col = static_cast<long>(std::floor(slot * static_cast<float>(i) * canvas.scale));
      if (col != column) drawn.push_back(i), column = col;
      else if (total(c.bars[i]) > total(c.bars[drawn.back()])) drawn.back() = i;
    }
    if (input.hovered >= 0) drawn.push_back(static_cast<size_t>(input.hovered));
  }
  for (size_t n_drawn = dense ? drawn.size() : c.bars.size(), j = 0; j < n_drawn; ++j) {
    const size_t i = dense ? drawn[j] : j;
    const Bar& b = c.bars[i];
    const float s0 = slot * static_cast<float>(i);
    if (b.selected || static_cast<int>(i) == input.hovered) {
      ImU32 slot_color = b.selected ? IM_COL32(255, 224, 130, 140) : Colors().slot;
      if (c.horizontal) canvas.rect(p0.x, p0.y + s0, p1.x, p0.y + s0 + slot, slot_color);
      else canvas.rect(p0.x + s0, p0.y, p0.x + s0 + slot, p1.y, slot_color);
    }
    const float thickness = std::max(slot * 0.72f, px);
    const float a0 = s0 + (slot - thickness) / 2, a1 = a0 + thickness;
    const float radius = std::min(2.0f, thickness / 4);
    // The whole bar in its outermost colour with rounded ends, then the inner
    // segments over it with square ends: the stack shows no seams.
    double end = total(b);
    for (size_t k = b.segments.size(); k-- > 0;) {
      float d = value_pos(end);
      ImU32 color = b.segments[k].color;
      float r = k + 1 == b.segments.size() ? radius : 0;
      if (c.horizontal) canvas.rect(p0.x, p0.y + a0, p0.x + d, p0.y + a1, color, r);
      else canvas.rect(p0.x + a0, p1.y - d, p0.x + a1, p1.y, color, r);
      end -= b.segments[k].value;
    }
  }
  if (c.horizontal) canvas.rect(p0.x, p0.y, p0.x + px, p1.y, Colors().chart_axis);
  else canvas.rect(p0.x, p1.y, p1.x, p1.y + px, Colors().chart_axis);
  if (c.reference) {
    float d = value_pos(*c.reference);
    if (c.horizontal) canvas.rect(p0.x + d - px, p0.y - line * 0.3f, p0.x + d + px, p1.y, kChartReference);
    else canvas.rect(p0.x, p1.y - d - px, p1.x, p1.y - d + px, kChartReference);
  }

  const ImTextureID texture =
      Charts().Render(ImGui::GetID(id), static_cast<int>(std::lround(size.x * canvas.scale)),
                        static_cast<int>(std::lround(size.y * canvas.scale)), Colors().chart_background, canvas.quads);
  draw->AddImage(texture, origin, ImVec2(origin.x + size.x, origin.y + size.y));

  // Text over the image: value axis, bar labels, value labels, the reference.
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 muted = ImGui::ColorConvertFloat4ToU32(Colors().muted_text);
  auto at = [&](float x, float y) { return ImVec2(origin.x + x, origin.y + y); };
  for (double v = 0; v <= axis.max + axis.step * 0.5; v += axis.step) {
    std::string s = format(c, v);
    ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    float d = value_pos(v);
    if (c.horizontal) draw->AddText(at(std::clamp(p0.x + d - ts.x / 2, 0.0f, size.x - ts.x), p1.y + 3), muted, s.c_str());
    else draw->AddText(at(p0.x - ts.x - 5, p1.y - d - ts.y / 2), muted, s.c_str());
  }
  // The longest label measures the widest (thousands of bars: one measurement).
  const Bar* longest = nullptr;
  for (const Bar& b : c.bars)
    if (!longest || b.label.size() > longest->label.size()) longest = &b;
  const float widest = longest ? ImGui::CalcTextSize(longest->label.c_str()).x : 0;
  const size_t every = c.horizontal ? 1 : round_count_up(static_cast<size_t>(std::ceil((widest + 6) / slot)));
  for (size_t i = 0; i < c.bars.size(); i += every) {
    const Bar& b = c.bars[i];
    ImVec2 ts = ImGui::CalcTextSize(b.label.c_str());
    float mid = slot * (static_cast<float>(i) + 0.5f);
    if (c.horizontal) {
      ImVec4 clip(origin.x, origin.y, origin.x + p0.x - 6, origin.y + size.y);
      draw->AddText(nullptr, 0, at(std::max(0.0f, p0.x - ts.x - 6), p0.y + mid - ts.y / 2), text, b.label.c_str(),
                    nullptr, 0, &clip);
    } else {
      draw->AddText(at(p0.x + mid - ts.x / 2, p1.y + 4), muted, b.label.c_str());
    }
  }
  if (c.value_label && c.horizontal)
    for (size_t i = 0; i < c.bars.size(); ++i) {
      std::string s = c.value_label(total(c.bars[i]));
      float mid = slot * (static_cast<float>(i) + 0.5f);
      draw->AddText(at(p0.x + value_pos(total(c.bars[i])) + 4, p0.y + mid - line / 2), text, s.c_str());
    }
  if (c.reference && !c.reference_label.empty()) {
    ImVec2 ts = ImGui::CalcTextSize(c.reference_label.c_str());
    float d = value_pos(*c.reference);
    ImU32 red = kChartReference;
    if (c.horizontal) draw->AddText(at(std::min(p0.x + d + 4, size.x - ts.x), 0), red, c.reference_label.c_str());
    else draw->AddText(at(p1.x - ts.x, p1.y - d - ts.y - 1), red, c.reference_label.c_str());
  }
  return input;
}

}  // namespace fl::web
