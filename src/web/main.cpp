// Fusion Lab in the browser: the compiler core (WebAssembly) driven by a Dear
// ImGui front end on GLFW and WebGL2.
//
// One frame: size the canvas to the window at the screen's pixel density,
// start an ImGui frame in CSS pixels, draw the sidebar and the views (inputs
// recompute the analysis within the frame), mirror the settings into the URL,
// render. The JS API (bindings.cpp) reads and edits the same State.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <cstdio>

#include "web/app.h"
#include "web/bindings.h"
#include "web/fonts.h"
#include "web/platform.h"
#include "web/settings.h"
#include "web/theme.h"

namespace {

using namespace fl::web;

struct App {
  GLFWwindow* window = nullptr;
  State state;
  AppUi ui;
  Fonts fonts{TakeFontBytes()};
  Settings url_settings;  // what the URL shows
  int frame = 0;
};

// GLFW's mouse is in canvas pixels; ImGui works in CSS pixels and renders at
// DisplayFramebufferScale.
void begin_frame(App& app) {
  const CanvasSize canvas = SyncCanvasSize();
  if (app.fonts.Update(canvas.pixel_ratio)) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(canvas.css_width), static_cast<float>(canvas.css_height));
  io.DisplayFramebufferScale = ImVec2(canvas.pixel_ratio, canvas.pixel_ratio);
  if (io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(io.MousePos.x / canvas.pixel_ratio, io.MousePos.y / canvas.pixel_ratio);
  ImGui::NewFrame();
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
}

void frame(void* arg) {
  App& app = *static_cast<App*>(arg);
  begin_frame(app);
  DrawApp(app.state, app.ui);
  end_frame();
  if (app.state.settings != app.url_settings) {
    app.url_settings = app.state.settings;
    ReplaceUrlQuery(FormatQuery(SettingsPairs(app.url_settings)));
  }
  // ImGui sizes tables and windows on their first frame and shows them on
  // the next: the second frame is the first complete one.
  if (++app.frame == 2) SignalReady();
}

}  // namespace

int main() {
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
  app.window = glfwCreateWindow(1280, 720, "Fusion Lab", nullptr, nullptr);
  if (!app.window) {
    std::fprintf(stderr, "WebGL2 is not available\n");
    return 1;
  }
  glfwMakeContextCurrent(app.window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the URL holds the state, not a file
  ApplyTheme(1.0f);
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  InstallWheelFix(app.window);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  InitState(app.state, UrlQuery(), BrowserLanguage());
  app.url_settings = app.state.settings;
  ReplaceUrlQuery(FormatQuery(SettingsPairs(app.url_settings)));
  BindApi(app.state);
  RunMainLoop(frame, &app);
}
