#include "web/platform.h"

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui_impl_glfw.h>

#include "page/key_queue.h"
#include "web/page_context.h"

#include <cstdlib>

namespace {

EM_JS(char*, js_url_query, (), {
  const search = window.location.search;
  return allocateUTF8(search.startsWith("?") ? search.substring(1) : search);
});

EM_JS(void, js_replace_url_query, (const char* query), {
  const q = UTF8ToString(query);
  if (window.location.search === (q ? "?" + q : "")) return;  // unchanged: history untouched
  const url = window.location.pathname + (q ? "?" + q : "") + window.location.hash;
  try {
    window.history.replaceState(null, "", url);
  } catch (e) {
    // Sandboxed iframes may forbid history access: the state then just isn't mirrored.
  }
});

EM_JS(void, js_set_document_language, (const char* lang), {
  document.documentElement.lang = UTF8ToString(lang);
});

EM_JS(char*, js_browser_language, (), {
  return allocateUTF8(navigator.language || "");
});

// Writes [css width, css height, ratio × 1000] into out.
EM_JS(void, js_sync_canvas_size, (int* out), {
  const canvas = Module.canvas;
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(rect.width * ratio));
  const h = Math.max(1, Math.round(rect.height * ratio));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  HEAP32[out >> 2] = Math.round(rect.width);
  HEAP32[(out >> 2) + 1] = Math.round(rect.height);
  HEAP32[(out >> 2) + 2] = Math.round(ratio * 1000);
});

EM_JS(int, js_font_size, (), {
  return Module.fontBytes ? Module.fontBytes.length : 0;
});

EM_JS(void, js_take_font, (unsigned char* dst), {
  HEAPU8.set(Module.fontBytes, dst);
  Module.fontBytes = null;
});

EM_JS(void, js_mark_startup, (const char* step), {
  performance.mark("fusionlab-" + UTF8ToString(step));
});

EM_JS(void, js_signal_ready, (), {
  if (Module.onReady) Module.onReady();
});

EM_JS(void, js_watch_gl_context, (), {
  const canvas = Module.canvas;
  Module.glLost = false;
  Module.glGeneration = 0;
  canvas.addEventListener("webglcontextlost", (event) => {
    event.preventDefault();  // without this the browser never restores the context
    Module.glLost = true;
  }, false);
  canvas.addEventListener("webglcontextrestored", () => {
    Module.glLost = false;
    Module.glGeneration += 1;
  }, false);
});

EM_JS(int, js_gl_context_lost, (), { return Module.glLost ? 1 : 0; });
EM_JS(int, js_gl_context_generation, (), { return Module.glGeneration | 0; });

EM_JS(void, js_show_error_panel, (const char* message), {
  if (Module.showError) Module.showError(UTF8ToString(message));
});

// Chrome reports 100 px per wheel notch (DOM_DELTA_PIXEL).
constexpr double kPixelsPerNotch = 100.0;

void wheel_callback(GLFWwindow* window, double dx, double dy) {
  ImGui_ImplGlfw_ScrollCallback(window, -dx / kPixelsPerNotch, -dy / kPixelsPerNotch);
}

using fl::web::KeyEvent;
using fl::web::KeyEventQueue;
using fl::web::Page;

void forward_key_event(const KeyEvent& e) {
  if (e.kind == KeyEvent::Kind::Char) ImGui_ImplGlfw_CharCallback(Page().input.window, e.code);
  else ImGui_ImplGlfw_KeyCallback(Page().input.window, e.key, 0, e.action, e.mods);
}

void key_callback(GLFWwindow*, int key, int, int action, int mods) {
  if (key < 0 || key > GLFW_KEY_LAST) return;  // ImGui's backend ignores unknown keys too
  Page().input.keys.Push({KeyEvent::Kind::Key, key, action, mods, 0}, forward_key_event);
}

void char_callback(GLFWwindow*, unsigned code) {
  Page().input.keys.Push({KeyEvent::Kind::Char, 0, 0, 0, code}, forward_key_event);
}

std::string take_c_string(char* s) {
  std::string out = s ? s : "";
  std::free(s);
  return out;
}

}  // namespace

namespace fl::web {

std::string UrlQuery() { return take_c_string(js_url_query()); }
void ReplaceUrlQuery(const std::string& query) { js_replace_url_query(query.c_str()); }

void SetDocumentLanguage(const std::string& lang) { js_set_document_language(lang.c_str()); }
std::string BrowserLanguage() { return take_c_string(js_browser_language()); }

CanvasSize SyncCanvasSize() {
  int out[3] = {0, 0, 1000};
  js_sync_canvas_size(out);
  return {out[0], out[1], static_cast<float>(out[2]) / 1000.0f};
}

std::vector<unsigned char> TakeFontBytes() {
  std::vector<unsigned char> bytes(static_cast<size_t>(js_font_size()));
  if (!bytes.empty()) js_take_font(bytes.data());
  return bytes;
}

void SignalReady() { js_signal_ready(); }
void MarkStartup(const char* step) { js_mark_startup(step); }

void WatchGlContext() { js_watch_gl_context(); }
bool GlContextLost() { return js_gl_context_lost() != 0; }
int GlContextGeneration() { return js_gl_context_generation(); }
void ShowErrorPanel(const std::string& message) { js_show_error_panel(message.c_str()); }

void InstallWheelFix(GLFWwindow* window) { glfwSetScrollCallback(window, wheel_callback); }

void InstallKeyFix(GLFWwindow* window) {
  Page().input.window = window;
  glfwSetKeyCallback(window, key_callback);
  glfwSetCharCallback(window, char_callback);
}

void KeyFrameBegins() {
  // What is still held waits for the next frame.
  if (Page().input.keys.FrameBegins(forward_key_event)) KeepDrawing();
}

EM_JS(void, js_watch_input, (), {
  const wake = () => { Module.flInput = 1; };
  for (const type of ["pointerdown", "pointermove", "pointerup", "mousedown", "mousemove", "mouseup", "wheel",
                      "keydown", "keyup", "touchstart", "touchmove", "touchend", "resize", "focus", "blur",
                      "visibilitychange"])
    window.addEventListener(type, wake, {capture: true, passive: true});
  Module.flInput = 1;
});

EM_JS(int, js_take_input, (), {
  const input = Module.flInput | 0;
  Module.flInput = 0;
  return input;
});

EM_JS(int, js_press_is_touch, (), { return Module.flTouch | 0; });

EM_JS(void, js_soft_input, (int open_now, const char* key, const char* value, float x, float y, float w, float h,
                            float font_px, float tap_slop_px), {
  const field = {key: UTF8ToString(key), value: UTF8ToString(value), x, y, width: w, height: h, fontPx: font_px,
                 tapSlopPx: tap_slop_px};
  if (open_now) Module.openNumberInput(field);
  else Module.flArmedField = field;
});

void WatchInput() { js_watch_input(); }
bool TakeInput() { return js_take_input() != 0; }
void KeepDrawing() { Page().input.keep_drawing = true; }
bool TakeKeepDrawing() { return std::exchange(Page().input.keep_drawing, false); }

bool PressIsTouch() { return js_press_is_touch() != 0; }

void ArmSoftInput(const SoftInputField& f) {
  js_soft_input(0, f.key.c_str(), f.value.c_str(), f.x, f.y, f.width, f.height, f.font_px, f.tap_slop_px);
}
void OpenSoftInput(const SoftInputField& f) {
  js_soft_input(1, f.key.c_str(), f.value.c_str(), f.x, f.y, f.width, f.height, f.font_px, f.tap_slop_px);
}

void RunMainLoop(void (*frame)(void*), void* arg) {
  emscripten_set_main_loop_arg(frame, arg, 0, true);
  __builtin_unreachable();
}

}  // namespace fl::web
