// Everything the page's drawing code keeps from one call to the next, in one
// place: the application State (page/state.h) and, beside it, what the widgets
// are in the middle of (a drag, a draft being typed, the Tab ring, a finger's
// gesture, the keys waiting for a frame), what an embed's layout fell short of,
// a PNG waiting to be saved, the chart renderer, and what tests read back.
// One instance, the app's (web/main.cpp); the drawing code and the JS API reach
// it through Page(), as ImGui's widgets reach ImGui's context.
#pragma once

#include <memory>

#include "page/frame_record.h"
#include "page/state.h"
#include "web/chart_renderer.h"
#include "web/embed_layout.h"
#include "web/export.h"
#include "web/keyboard_focus.h"
#include "web/number_field.h"
#include "web/platform.h"
#include "web/touch_scroll.h"

namespace fl::web {

struct PageContext {
  State state;
  Theme theme = Theme::Light;  // the one ImGui's style and Colors() were last set to (ApplyTheme)
  FrameRecord record;
  EmbedLayoutState embed;
  ExportState exports;
  FocusState focus;
  NumberFieldState number_field;
  TouchState touch;
  InputState input;
  std::unique_ptr<ChartRenderer> charts;  // made on first use, dropped with a lost WebGL context
  // The JS API's analyze(): its own, so that a script's calls for another
  // model leave the page's compiled graphs (state.compiler) in place.
  PhaseCompiler api_compiler;
};

// Makes `page` the one Page() returns: before anything draws or the JS API is called.
void BindPage(PageContext& page);
PageContext* BoundPage();  // null before BindPage (a JS call made too early)
PageContext& Page();       // the bound one; only once bound

}  // namespace fl::web
