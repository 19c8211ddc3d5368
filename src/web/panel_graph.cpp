// [SECTION] The graph view: a stage's dataflow graph as a layered DAG, drawn
// by the chart renderer (instanced quads for nodes, segments for edges), with
// pan (drag), zoom (wheel), hover and one selection shared with every view.
#include <algorithm>
#include <cmath>

#include <imgui_internal.h>  // SetItemUsingMouseWheel, IsMouseDragPastThreshold

#include "core/units.h"
#include "web/explain.h"
#include "web/export.h"
#include "page/graph_layout.h"
#include "web/panels.h"
#include "web/theme.h"
#include "web/touch_scroll.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

constexpr float kLayerGap = 92, kRowGap = 34, kNodeW = 74, kNodeH = 24;

}  // namespace

// A colour per fused kernel: distinct hues, light enough for dark text.
ImU32 GraphKernelColor(int k) {
  static const ImU32 kPalette[] = {
      IM_COL32(141, 182, 226, 255), IM_COL32(246, 178, 107, 255), IM_COL32(147, 204, 147, 255),
      IM_COL32(230, 145, 150, 255), IM_COL32(190, 165, 220, 255), IM_COL32(206, 178, 140, 255),
      IM_COL32(240, 170, 210, 255), IM_COL32(180, 180, 180, 255), IM_COL32(215, 215, 110, 255),
      IM_COL32(120, 205, 210, 255), IM_COL32(250, 205, 120, 255), IM_COL32(165, 200, 110, 255)};
  if (k < 0) return IM_COL32(225, 228, 234, 255);
  return kPalette[static_cast<size_t>(k) % (sizeof kPalette / sizeof kPalette[0])];
}

namespace {

const StageLayout& layout_for(State& state, int stage, const StageReport& st) {
  GraphViewCache& cache = state.caches.graph;
  if (cache.generation != state.results_generation || cache.stage != stage) {
    cache.generation = state.results_generation;
    cache.stage = stage;
    cache.layout = LayoutStage(st);
  }
  return cache.layout;
}

// The kernel whose output a node's value is: a view is its input's.
int effective_kernel(const StageReport& st, const StageLayout& L, int index) {
  for (int guard = 0; guard < 64 && index >= 0; ++guard) {
    const GraphNodeReport& n = st.nodes[static_cast<size_t>(index)];
    if (!n.view()) return n.kernel;
    if (n.inputs.empty()) return -1;
    int in = n.inputs[0];
    index = in >= 0 && in < static_cast<int>(L.index_of.size()) ? L.index_of[static_cast<size_t>(in)] : -1;
  }
  return -1;
}

float segment_distance(ImVec2 p, ImVec2 a, ImVec2 b) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
  t = std::clamp(t, 0.0f, 1.0f);
  const float ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return std::sqrt(ex * ex + ey * ey);
}

}  // namespace

constexpr ImGuiID kGraphChart = 0x6A7A0001u;

void DrawGraphPanel(State& state, ImVec2 size) {
  const KernelsReport& r = state.results.kernels;
  const Lang lang = state.settings.lang;
  ExplainState& e = state.explain;
  if (r.stages.empty()) return;
  const bool fused = e.stage == kFusedStage;
  const int stage = std::min<int>(e.stage, static_cast<int>(r.stages.size()) - 1);
  const StageReport& st = r.stages[static_cast<size_t>(stage)];
  const StageLayout& L = layout_for(state, stage, st);
  const int selected_kernel = state.settings.kernel;

  size.x = std::max(size.x, 100.0f);
  size.y = std::max(size.y, 120.0f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("graph", size);
  ImGui::SetItemAllowOverlap();  // the Fit and 1:1 buttons lie over its corner
  RecordFigure("graph");
  ImGui::SetItemUsingMouseWheel();
  const bool hovered = ImGui::IsItemHovered();
  ImGuiIO& io = ImGui::GetIO();

  // Camera: the whole graph when it opens, when asked (zoom 0, the Fit
  // button) or when the stage changed; "1:1" shows labels at full size from
  // the inputs on (zoom -1), to pan along the layer.
  int& fitted_stage = state.caches.graph.fitted_stage;
  const float gw = static_cast<float>(L.g.layers) * kLayerGap, gh = static_cast<float>(L.g.widest) * kRowGap;
  if (e.zoom == 0 || fitted_stage != e.stage) {
    e.zoom = std::clamp(std::min({size.x / gw, size.y / gh, 1.0f}), 0.05f, 1.0f);
    e.pan_x = (size.x - gw * e.zoom) / 2;
    e.pan_y = (size.y - gh * e.zoom) / 2;
    fitted_stage = e.stage;
  } else if (e.zoom < 0) {
    e.zoom = 1;
    e.pan_x = 4;
    e.pan_y = std::max(4.0f, (size.y - gh) / 2);
  }
  if (hovered && io.MouseWheel != 0) {
    const float factor = std::pow(1.15f, io.MouseWheel);
    const float nz = std::clamp(e.zoom * factor, 0.05f, 6.0f);
    const float mx = io.MousePos.x - origin.x, my = io.MousePos.y - origin.y;
    e.pan_x = mx - (mx - e.pan_x) * nz / e.zoom;
    e.pan_y = my - (my - e.pan_y) * nz / e.zoom;
    e.zoom = nz;
  }
  if (ImGui::IsItemActive()) ClaimTouchDrag(true, true);  // a finger pans the graph, not the page
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
    e.pan_x += io.MouseDelta.x;
    e.pan_y += io.MouseDelta.y;
  }

  auto node_rect = [&](size_t i, ImVec2& a, ImVec2& b) {  // CSS pixels, relative to origin
    const LayoutPos& p = L.g.pos[i];
    const float cx = e.pan_x + (static_cast<float>(p.layer) * kLayerGap + kLayerGap / 2) * e.zoom;
    const float cy = e.pan_y + (static_cast<float>(p.order) * kRowGap + kRowGap / 2) * e.zoom;
    a = ImVec2(cx - kNodeW / 2 * e.zoom, cy - kNodeH / 2 * e.zoom);
    b = ImVec2(cx + kNodeW / 2 * e.zoom, cy + kNodeH / 2 * e.zoom);
  };

  // An edge from node j's right side to node i's left side, in CSS pixels
  // relative to origin; false (and nothing to draw or hover) if its bounding
  // box misses `area` grown by `pad`. A whole model has ~10k edges, a screen
  // shows a few hundred.
  auto edge_in = [&](size_t j, size_t i, ImVec2 area_min, ImVec2 area_max, float pad, ImVec2& from, ImVec2& to) {
    ImVec2 a0, a1, b0, b1;
    node_rect(j, a0, a1);
    node_rect(i, b0, b1);
    from = ImVec2(a1.x, (a0.y + a1.y) / 2);
    to = ImVec2(b0.x, (b0.y + b1.y) / 2);
    return std::max(from.x, to.x) >= area_min.x - pad && std::min(from.x, to.x) <= area_max.x + pad &&
           std::max(from.y, to.y) >= area_min.y - pad && std::min(from.y, to.y) <= area_max.y + pad;
  };

  // Hover: a node, else an edge.
  const ImVec2 mouse(io.MousePos.x - origin.x, io.MousePos.y - origin.y);
  int hover_node = -1, hover_edge_from = -1, hover_edge_to = -1;
  if (hovered) {
    for (size_t i = 0; i < st.nodes.size(); ++i) {
      ImVec2 a, b;
      node_rect(i, a, b);
      if (mouse.x >= a.x && mouse.x <= b.x && mouse.y >= a.y && mouse.y <= b.y) hover_node = static_cast<int>(i);
    }
    if (hover_node < 0) {
      float best = 5;
      for (size_t i = 0; i < st.nodes.size(); ++i)
        for (int in : st.nodes[i].inputs) {
          int j = in >= 0 && in < static_cast<int>(L.index_of.size()) ? L.index_of[static_cast<size_t>(in)] : -1;
          ImVec2 from, to;
          if (j < 0 || !edge_in(static_cast<size_t>(j), i, mouse, mouse, best, from, to)) continue;
          float d = segment_distance(mouse, from, to);
          if (d < best) best = d, hover_edge_from = j, hover_edge_to = static_cast<int>(i);
        }
    }
  }
  if (ImGui::IsItemDeactivated() && !ImGui::IsMouseDragPastThreshold(ImGuiMouseButton_Left, 2.0f) && hovered) {
    if (hover_node >= 0) {
      const GraphNodeReport& n = st.nodes[static_cast<size_t>(hover_node)];
      e.node = e.node == n.id ? -1 : n.id;
      if (fused && e.node >= 0) state.settings.kernel = effective_kernel(st, L, hover_node);
    } else {
      e.node = -1;
    }
  }

  // Geometry in device pixels.
  const float scale = io.DisplayFramebufferScale.x;
  std::vector<Quad> quads;
  std::vector<Segment> segments;
  quads.reserve(st.nodes.size() * 2);
  for (size_t i = 0; i < st.nodes.size(); ++i)
    for (int in : st.nodes[i].inputs) {
      int j = in >= 0 && in < static_cast<int>(L.index_of.size()) ? L.index_of[static_cast<size_t>(in)] : -1;
      ImVec2 from, to;
      if (j < 0 || !edge_in(static_cast<size_t>(j), i, ImVec2(0, 0), size, 4, from, to)) continue;
      const GraphNodeReport& c = st.nodes[i];
      const int pk = effective_kernel(st, L, j);
      const bool hbm = fused && !c.view() && c.kernel >= 0 && pk >= 0 && pk != c.kernel;
      const bool hot = j == hover_edge_from && static_cast<int>(i) == hover_edge_to;
      ImU32 color = hbm ? IM_COL32(176, 52, 52, 230) : IM_COL32(150, 156, 168, 200);
      if (hot) color = Colors().ink;
      const float w = (hbm ? 3.0f : 1.2f) * std::clamp(e.zoom, 0.6f, 1.6f) + (hot ? 1.0f : 0.0f);
      segments.push_back({from.x * scale, from.y * scale, to.x * scale, to.y * scale, color, w * scale});
    }
  bool recorded = false;
  for (size_t i = 0; i < st.nodes.size(); ++i) {
    const GraphNodeReport& n = st.nodes[i];
    ImVec2 a, b;
    node_rect(i, a, b);
    if (b.x < 0 || a.x > size.x || b.y < 0 || a.y > size.y) continue;
    ImU32 fill = IM_COL32(214, 224, 238, 255);
    if (n.source()) fill = IM_COL32(236, 237, 240, 255);
    if (fused) fill = n.kernel >= 0 ? GraphKernelColor(n.kernel) : fill;
    else if (n.change == NodeChange::Added) fill = IM_COL32(120, 196, 120, 255);
    else if (n.change == NodeChange::Rewritten) fill = IM_COL32(245, 170, 80, 255);
    ImU32 border = IM_COL32(120, 126, 138, 255);
    float bw = 1;
    if (n.view()) fill = IM_COL32(255, 255, 255, 255), border = IM_COL32(160, 160, 160, 255), bw = 1.5f;
    const bool in_selected_kernel = fused && selected_kernel >= 0 && effective_kernel(st, L, static_cast<int>(i)) == selected_kernel && !n.source();
    if (in_selected_kernel) border = Colors().ink, bw = 2.5f;
    if (n.id == e.node) border = IM_COL32(200, 30, 30, 255), bw = 3;
    if (static_cast<int>(i) == hover_node) bw += 1;
    if (!n.source() && !n.view() && a.x >= 0 && b.x <= size.x && a.y >= 0 && b.y <= size.y && !recorded) {
      // The first fully visible compute node, for tests that click one.
      recorded = true;
      RecordRect("graph.node", ImVec2(origin.x + a.x, origin.y + a.y), ImVec2(b.x - a.x, b.y - a.y));
    }
    const float rad = 4 * std::min(e.zoom, 1.5f);
    quads.push_back({a.x * scale, a.y * scale, b.x * scale, b.y * scale, border, rad * scale});
    quads.push_back({(a.x + bw) * scale, (a.y + bw) * scale, (b.x - bw) * scale, (b.y - bw) * scale, fill,
                     std::max(0.0f, rad - bw) * scale});
  }
  const ImTextureID tex = Charts().Render(kGraphChart, static_cast<int>(std::lround(size.x * scale)),
                                                   static_cast<int>(std::lround(size.y * scale)), Colors().chart_background,
                                                   quads, segments);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddImage(tex, origin, ImVec2(origin.x + size.x, origin.y + size.y));

  // Labels: the op's name, when the boxes are tall enough for text.
  draw->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  const float line = ImGui::GetTextLineHeight();
  if (kNodeH * e.zoom >= line * 0.9f) {
    for (size_t i = 0; i < st.nodes.size(); ++i) {
      const GraphNodeReport& n = st.nodes[i];
      ImVec2 a, b;
      node_rect(i, a, b);
      if (b.x < 0 || a.x > size.x || b.y < 0 || a.y > size.y) continue;
      std::string label = "%" + std::to_string(n.id) + " " + std::string(op_name(n.op));
      ImVec4 clip(origin.x + a.x + 3, origin.y + a.y, origin.x + b.x - 3, origin.y + b.y);
      const ImU32 color = n.view() ? IM_COL32(110, 110, 110, 255) : IM_COL32(20, 24, 32, 255);
      draw->AddText(nullptr, 0, ImVec2(origin.x + a.x + 4, origin.y + (a.y + b.y) / 2 - line / 2), color,
                    label.c_str(), nullptr, 0, &clip);
    }
  }
  draw->PopClipRect();

  // Over the graph's corner: fit the whole graph, or full-size labels.
  ImGui::SetCursorScreenPos(ImVec2(origin.x + 6, origin.y + 6));
  if (ImGui::SmallButton(Tx(Ui::GraphFit, lang))) e.zoom = 0;
  RecordWidget("graph.fit");
  ImGui::SameLine();
  if (ImGui::SmallButton(Tx(Ui::GraphFullSize, lang))) e.zoom = -1;
  RecordWidget("graph.full_size");
  const bool over_buttons = ImGui::IsItemHovered();
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(size);  // the graph's rectangle is again the last item, for what follows on its line
  RecordShown("graph_zoom", e.zoom);
  if (over_buttons) return;

  if (hover_node >= 0) {
    const GraphNodeReport& n = st.nodes[static_cast<size_t>(hover_node)];
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(n.text.c_str());
    if (n.view()) TextMuted(Tx(Ui::GraphViewNode, lang));
    if (fused && n.kernel >= 0) ImGui::TextUnformatted(tr(Ui::GraphInKernel, lang, {std::to_string(n.kernel)}).c_str());
    if (n.change != NodeChange::None) TextMuted(n.change == NodeChange::Added ? Tx(Ui::GraphAdded, lang) : Tx(Ui::GraphRewritten, lang));
    ImGui::EndTooltip();
  } else if (hover_edge_from >= 0) {
    const GraphNodeReport& p = st.nodes[static_cast<size_t>(hover_edge_from)];
    const GraphNodeReport& c = st.nodes[static_cast<size_t>(hover_edge_to)];
    const int pk = effective_kernel(st, L, hover_edge_from);
    ImGui::BeginTooltip();
    ImGui::Text("%%%d %s -> %%%d %s", p.id, std::string(op_name(p.op)).c_str(), c.id, std::string(op_name(c.op)).c_str());
    ImGui::TextUnformatted(fmt_bytes(static_cast<double>(p.bytes)).c_str());
    if (fused && !c.view() && c.kernel >= 0 && pk >= 0 && pk != c.kernel)
      ImGui::TextUnformatted(tr(Ui::GraphEdgeHbm, lang, {std::to_string(pk), std::to_string(c.kernel)}).c_str());
    else if (fused)
      TextMuted(Tx(Ui::GraphEdgeOnChip, lang));
    ImGui::EndTooltip();
  }
}

}  // namespace fl::web
