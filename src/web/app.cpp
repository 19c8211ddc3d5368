#include "web/app.h"

#include <imgui_internal.h>

#include <algorithm>
#include <string>

#include "web/a11y.h"
#include "web/caption.h"
#include "web/embed_layout.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

namespace {

void draw_view(State& state) {
  switch (state.settings.view) {
    case View::Kernels: DrawKernelsPanel(state); break;
    case View::Prefill:
    case View::Decode: DrawPhasePanel(state); break;
    case View::Ablation: DrawAblationPanel(state); break;
    case View::Passes: DrawPassesPanel(state); break;
    case View::Roofline: DrawRooflinePanel(state); break;
    case View::Timeline: DrawTimelinePanel(state); break;
    case View::Sweep: DrawSweepPanel(state); break;
    case View::Reality: DrawRealityPanel(state); break;
    case View::Compilers: DrawCompilersPanel(state); break;
    case View::Source: DrawSourcePanel(state); break;
  }
}

// A change of inputs is computed before the views draw: the frame that shows
// the new value also shows its results.
void recompute_if_needed(State& state) {
  if (!state.has_results || NeedsRecompute(state.settings, state.computed)) Recompute(state);
}

void draw_tabs(State& state, AppUi& ui) {
  if (!ImGui::BeginTabBar("views")) return;
  // The view may change outside the tab bar (URL, setState): select its tab.
  const bool external = state.settings.view != ui.tab_shown || ui.first_frame;
  for (View v : kViews) {
    ImGuiTabItemFlags flags = external && v == state.settings.view ? ImGuiTabItemFlags_SetSelected : 0;
    // The tab's ID is the view's key, not its title: a language switch keeps the tab.
    const std::string label = std::string(Tx(ViewTitle(v), state.settings.lang)) + "###" + std::string(ViewKey(v));
    if (!ImGui::BeginTabItem(label.c_str(), nullptr, flags)) continue;
    if (!external) state.settings.view = v;
    ui.tab_shown = v;
    ImGui::EndTabItem();
  }
  ImGui::EndTabBar();
}

// Narrow layout: the settings button and the views as a dropdown, on one line.
void draw_narrow_bar(State& state, AppUi& ui) {
  const Lang lang = state.settings.lang;
  if (ImGui::Button(Tx(ui.drawer_open ? Ui::CloseSettings : Ui::OpenSettings, lang))) ui.drawer_open = !ui.drawer_open;
  RecordWidget("drawer.toggle");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  View& view = state.settings.view;
  if (ImGui::BeginCombo("##view", Tx(ViewTitle(view), lang))) {
    for (View v : kViews)
      if (ImGui::Selectable(Tx(ViewTitle(v), lang), v == view)) view = v;
    ImGui::EndCombo();
  }
  RecordWidget("view.choose");
}

// Narrow layout: the sidebar over the view, from the left edge.
void draw_drawer(State& state) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->Pos.x, viewport->Pos.y + ImGui::GetFrameHeightWithSpacing() + 8));
  ImGui::SetNextWindowSize(ImVec2(std::min(viewport->Size.x, 360.0f), viewport->Size.y - ImGui::GetFrameHeightWithSpacing() - 8));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings;
  ImGui::Begin("drawer", nullptr, flags & ~ImGuiWindowFlags_NoScrollbar);
  RecordRect("drawer", ImGui::GetWindowPos(), ImGui::GetWindowSize());
  DrawConfigPanel(state);
  RecordShown("drawer_scroll_y", ImGui::GetScrollY());
  ImGui::End();
}

}  // namespace

Ui ViewTitle(View v) {
  switch (v) {
    case View::Kernels: return Ui::TabKernels;
    case View::Prefill: return Ui::TabPrefill;
    case View::Decode: return Ui::TabDecode;
    case View::Ablation: return Ui::TabAblation;
    case View::Passes: return Ui::TabPasses;
    case View::Roofline: return Ui::TabRoofline;
    case View::Timeline: return Ui::TabTimeline;
    case View::Sweep: return Ui::TabSweep;
    case View::Reality: return Ui::TabReality;
    case View::Compilers: return Ui::TabCompilers;
    case View::Source: return Ui::TabSource;
  }
  return Ui::TabKernels;
}

namespace {

// The view's content this frame against its frame (ImGui's own scroll
// limits lag a frame behind, and an embed's fit must not act twice on one
// overflow). A wide table that would scroll sideways counts as running over.
void measure_overflow(AppUi& ui) {
  const ImGuiWindow* view = ImGui::GetCurrentWindow();
  const ImVec2 content(view->DC.CursorMaxPos.x - view->DC.CursorStartPos.x,
                       view->DC.CursorMaxPos.y - view->DC.CursorStartPos.y);
  const ImVec2 frame = view->InnerRect.GetSize();
  const float pad_x = view->WindowPadding.x * 2, pad_y = view->WindowPadding.y * 2;
  constexpr float kSlack = 0.5f;  // sub-pixel rounding is not an overflow
  ui.view_overflow_x = std::max(content.x + pad_x - frame.x - kSlack, TakeWidthShortfall());
  ui.view_overflow_y = content.y + pad_y - frame.y - kSlack;
}

}  // namespace

void DrawApp(State& state, AppUi& ui) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->Pos);
  ImGui::SetNextWindowSize(viewport->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  const bool narrow = !state.settings.embed && viewport->Size.x < kDrawerWidth;
  if (!narrow) ui.drawer_open = false;
  ImGui::Begin("Fusion Lab", nullptr, flags);
  HideExportButtons(state.settings.hide_buttons);
  SetEmbedLayout(state.settings.embed);
  SetFigureTitle(ViewCaption(state));
  if (state.settings.embed) {
    DrawEmbedStrip(state);
    recompute_if_needed(state);
  } else if (narrow) {
    draw_narrow_bar(state, ui);
    recompute_if_needed(state);
    ImGui::BeginGroup();
  } else {
    const float sidebar_w = std::clamp(viewport->Size.x * 0.25f, 230.0f, 300.0f);
    ImGui::BeginChild("sidebar", ImVec2(sidebar_w, 0), true);
    DrawConfigPanel(state);
    ImGui::EndChild();
    ImGui::SameLine();
    recompute_if_needed(state);
    ImGui::BeginGroup();
    draw_tabs(state, ui);
  }
  ImGui::BeginChild("view", ImVec2(0, 0), false);
  if (state.has_results) draw_view(state);
  RecordShown("view_overflow_px", ImGui::GetScrollMaxY());  // what an inner scrollbar would hide
  measure_overflow(ui);
  RecordShown("layout_scale", state.layout_scale);
  RecordShown("view_scroll_y", ImGui::GetScrollY());
  ImGui::EndChild();
  if (!state.settings.embed) ImGui::EndGroup();
  ImGui::End();
  // Drawn after the view, so it lies over it; its edits recompute on the next frame.
  if (ui.drawer_open) draw_drawer(state);
  else ForgetWidget("drawer");
  if (state.has_results) SyncAccessibility(state);
  ui.first_frame = false;
}

}  // namespace fl::web
