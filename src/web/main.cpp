// Fusion Lab in the browser: the compiler core (WebAssembly) driven by a Dear
// ImGui front end on GLFW and WebGL2.
//
// One frame: size the canvas to the window at the screen's pixel density,
// start an ImGui frame in CSS pixels, draw the sidebar and the views (inputs
// recompute the analysis within the frame), mirror the settings into the URL,
// render. The JS API (bindings.cpp) reads and edits the same State.
#include <GLES3/gl3.h>
#include <emscripten.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // ErrorCheckEndFrameRecover

#include <cfloat>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "web/app.h"
#include "web/bar_chart.h"
#include "web/explain.h"
#include "web/export.h"
#include "web/fonts.h"
#include "web/keyboard_focus.h"
#include "web/page_context.h"
#include "web/platform.h"
#include "page/settings.h"
#include "web/theme.h"
#include "web/touch_scroll.h"

namespace {

using namespace fl::web;

struct App {
  GLFWwindow* window = nullptr;
  PageContext page;  // the State and what the widgets keep between frames
  State& state = page.state;
  AppUi ui;
  Fonts fonts{TakeFontBytes()};
  Settings url_settings;  // what the URL shows
  std::string url_query;  // the query last written, explain keys included
  ExplainState url_explain;  // the explain keys the URL shows
  int frame = 0;
  int gl_generation = 0;  // the WebGL context's, see WatchGlContext
  int frames_left = 0;  // frames still to draw after the last input
};

// After input, ImGui needs a few frames to settle (hover, sizes, popups).
constexpr int kFramesAfterInput = 8;

// Whether this animation frame draws: not while idle.
bool should_draw(App& app, bool context_restored) {
  const bool input = TakeInput(), keep = TakeKeepDrawing();
  if (input || context_restored) app.frames_left = kFramesAfterInput;
  const ImGuiIO& io = ImGui::GetIO();
  // Typing (the caret, the pause that applies a number) and a held widget draw every frame.
  const bool busy = keep || io.WantTextInput || ImGui::IsAnyItemActive() || app.frame < 2;
  if (!busy && app.frames_left <= 0) return false;
  --app.frames_left;
  return true;
}

EmbedFitKey fit_key(const Settings& s, const CanvasSize& canvas) {
  return {s.view, canvas.css_width, canvas.css_height, s.scale, s.lang, s.controls};
}

// GLFW's mouse is in canvas pixels; ImGui works in CSS pixels divided by the
// page's scale (scale=, for slides) and renders at DisplayFramebufferScale,
// so that every text and widget grows with the scale and stays crisp.
// An embed is laid out at its fitted scale (embed_fit.h); its font stays
// baked at the requested one, so finding the fit rebuilds no atlas.
void begin_frame(App& app) {
  const CanvasSize canvas = SyncCanvasSize();
  const Settings& settings = app.state.settings;
  const double scale_wanted = settings.scale;
  app.state.layout_scale = settings.embed ? app.state.embed_fit.Begin(fit_key(settings, canvas)) : scale_wanted;
  const float scale = static_cast<float>(app.state.layout_scale);
  const float pixels = canvas.pixel_ratio * scale;  // framebuffer pixels per ImGui unit
  // A new atlas needs a new texture; before the first NewFrame the backend
  // has no device objects yet and makes the texture with them.
  if (app.fonts.Update(canvas.pixel_ratio * static_cast<float>(scale_wanted), settings.lang) && app.frame > 0) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  // The first frame is laid out, not drawn (draw_frame): the backend makes its
  // shaders and font texture in the next, so that the page's layout runs
  // while the GPU process is still setting the new context up, not after
  // waiting for it (a software renderer takes ~0.1 s).
  if (app.frame > 0) ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(canvas.css_width) / scale, static_cast<float>(canvas.css_height) / scale);
  io.DisplayFramebufferScale = ImVec2(pixels, pixels);
  if (io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(io.MousePos.x / pixels, io.MousePos.y / pixels);
  if (app.state.settings.theme != app.page.theme) ApplyTheme(app.state.settings.theme);
  KeyFrameBegins();
  ImGui::NewFrame();
  KeyboardFocusFrameBegun();
}

void end_frame() {
  ImGui::Render();
  const ImGuiIO& io = ImGui::GetIO();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
             static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  SavePendingFigurePng();  // reads the canvas just drawn
}

// After a lost WebGL context came back: every GL name is gone. ImGui's
// backend starts over (1.86's DestroyDeviceObjects keeps its buffer sizes, so
// a full shutdown); it recreates its objects and the font texture on the next
// NewFrame. The charts' renderer is created anew on first use.
void recreate_gl_resources() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  ChartsLostContext();
}

// A frame cut short by an exception: close what it opened, so the next frame
// starts clean.
void recover_frame() {
  ImGuiContext* g = ImGui::GetCurrentContext();
  if (g && g->WithinFrameScope) {
    ImGui::ErrorCheckEndFrameRecover(nullptr);
    ImGui::EndFrame();
  }
}

// Lays out one frame; true when an embed's fit changed its scale (or lets
// its tables settle) and the frame is to be laid out again before it is shown.
bool layout_frame(App& app) {
  begin_frame(app);
  if (!app.state.throw_next_frame.empty()) {
    std::string message = std::move(app.state.throw_next_frame);
    app.state.throw_next_frame.clear();
    throw std::runtime_error(message);
  }
  const double start = emscripten_get_now();
  DrawApp(app.state, app.ui);
  UpdateTouchScroll(PressIsTouch());
  KeyboardFocusFrameEnding();
  RecordUiTime(emscripten_get_now() - start);
  if (!app.state.settings.embed || app.frame == 0) return false;  // the first frame only sizes windows and tables
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  return app.state.embed_fit.Observe(display.x, display.y, app.ui.view_overflow_x, app.ui.view_overflow_y);
}

// Bounds the frames laid out unseen while an embed searches its fit.
constexpr int kMaxFitPasses = 16;

void draw_frame(App& app) {
  // An embed searches its fit in frames laid out but not shown, so the
  // audience never sees the text change size (embed_fit.h).
  bool again = layout_frame(app);
  for (int pass = 1; again && pass < kMaxFitPasses; ++pass) {
    ImGui::EndFrame();
    again = layout_frame(app);
  }
  if (again) KeepDrawing();  // the search goes on in the next frames
  // ImGui sizes new windows and tables in their first frame and shows them
  // from the next: the first frame is not rendered (SwiftShader takes ~0.1 s
  // to render one).
  if (app.frame == 0) ImGui::EndFrame();
  else end_frame();
  if (app.state.settings != app.url_settings || !(app.state.explain == app.url_explain)) {
    app.url_settings = app.state.settings;
    app.url_explain = app.state.explain;
    auto pairs = SettingsPairs(app.url_settings);
    for (auto& pair : ExplainPairs(app.url_settings, app.url_explain)) pairs.push_back(std::move(pair));
    std::string query = FormatQuery(pairs);
    if (query != app.url_query) ReplaceUrlQuery(app.url_query = query);
    SetDocumentLanguage(std::string(lang_key(app.url_settings.lang)));
  }
}

void frame(void* arg) {
  App& app = *static_cast<App*>(arg);
  if (GlContextLost()) return;  // nothing can be drawn until it is restored
  bool restored = false;
  if (const int generation = GlContextGeneration(); generation != app.gl_generation) {
    app.gl_generation = generation;
    recreate_gl_resources();
    restored = true;
  }
  if (!should_draw(app, restored)) return;
  // A bug in a panel must not leave a dead canvas: show its message.
  const double start = emscripten_get_now();
  try {
    draw_frame(app);
  } catch (const std::exception& e) {
    recover_frame();
    ShowErrorPanel(e.what());
  } catch (...) {
    recover_frame();
    ShowErrorPanel("unknown C++ exception");
  }
  RecordFrameTime(emscripten_get_now() - start);
  if (++app.frame == 2) SignalReady();  // the first complete frame (see draw_frame)
}

}  // namespace

int main() {
  MarkStartup("main");
  if (!glfwInit()) {
    std::fprintf(stderr, "glfwInit failed\n");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);  // 2D only: a lighter WebGL context
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  static App app;
  BindPage(app.page);
  app.window = glfwCreateWindow(1280, 720, "Fusion Lab", nullptr, nullptr);
  if (!app.window) {
    std::fprintf(stderr, "WebGL2 is not available\n");
    return 1;
  }
  glfwMakeContextCurrent(app.window);
  MarkStartup("webgl");

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the URL holds the state, not a file
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;  // the focus ring, Space, arrows, Escape
  ApplyTheme(Theme::Light);
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  InstallWheelFix(app.window);
  InstallKeyFix(app.window);
  WatchGlContext();
  WatchInput();
  ImGui_ImplOpenGL3_Init("#version 300 es");

  InitState(app.state, TakeExplainKeys(UrlQuery(), app.state.explain), BrowserLanguage());
  app.url_settings = app.state.settings;
  app.url_explain = app.state.explain;
  auto pairs = SettingsPairs(app.url_settings);
  for (auto& pair : ExplainPairs(app.url_settings, app.url_explain)) pairs.push_back(std::move(pair));
  ReplaceUrlQuery(app.url_query = FormatQuery(pairs));
  SetDocumentLanguage(std::string(lang_key(app.url_settings.lang)));
  MarkStartup("state");
  // The first two frames at once, not at the next two animation frames.
  frame(&app);
  MarkStartup("layout");  // the first frame, laid out and not shown
  frame(&app);
  RunMainLoop(frame, &app);
}
