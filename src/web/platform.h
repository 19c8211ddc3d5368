// Everything the page needs from the browser, behind plain C++ functions.
//
// The only file that knows about Emscripten's JS glue is platform.cpp (EM_JS);
// the rest of the front end calls these.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "page/key_queue.h"

struct GLFWwindow;

namespace fl::web {

// What the input plumbing keeps between frames (PageContext::input).
struct InputState {
  KeyEventQueue keys;             // key events waiting for a frame to see them
  GLFWwindow* window = nullptr;   // the one they go to
  bool keep_drawing = false;      // something asked for the next frame
};

// The query string of the page's address, without the leading '?'.
std::string UrlQuery();
// Replaces the query string (history.replaceState: no new history entry).
void ReplaceUrlQuery(const std::string& query);
// Sets <html lang>, so that screen readers and fonts follow the page's language.
void SetDocumentLanguage(const std::string& lang);
// The browser's preferred language, e.g. "zh-CN" or "en-US".
std::string BrowserLanguage();

struct CanvasSize {
  int css_width = 0, css_height = 0;  // layout size in CSS pixels
  float pixel_ratio = 1;              // window.devicePixelRatio
};
// Reads the canvas's CSS size and the pixel ratio, and sizes the canvas's
// backing store to css × ratio so that text is drawn one texel per pixel.
CanvasSize SyncCanvasSize();

// The UI font's bytes, fetched by web/fusionlab.js before main() runs; empty
// when the fetch failed (the page then falls back to ImGui's Latin font).
std::vector<unsigned char> TakeFontBytes();

// Resolves window.fusionlab.ready.
void SignalReady();

// A step of the page's start, as the performance mark "fusionlab-<step>"
// (tests/e2e/startup.mjs times each from the navigation's start).
void MarkStartup(const char* step);

// Emscripten 3.1.6's GLFW passes the DOM wheel event's deltaY (pixels,
// positive = down) as the scroll offset, where GLFW means notches, positive =
// up. Installs a scroll callback that converts, then feeds ImGui.
void InstallWheelFix(GLFWwindow* window);

// ImGui 1.86 reads each key's state once per frame: a key pressed and
// released between two frames (Enter tapped while a slow frame draws) would be
// lost. Installs key and character callbacks that pass events through a
// KeyEventQueue (key_queue.h); call KeyFrameBegins right before
// ImGui::NewFrame, which hands on what the frame may see.
void InstallKeyFix(GLFWwindow* window);
void KeyFrameBegins();

// WebGL context loss: the canvas's webglcontextlost / webglcontextrestored
// events. While lost, frames draw nothing; each restore bumps the generation,
// and the GL resources (ImGui's backend, the chart renderers) are recreated.
void WatchGlContext();
bool GlContextLost();
int GlContextGeneration();

// An HTML panel over the canvas with the message of a C++ exception that
// escaped a frame (the page keeps running; the panel can be dismissed).
void ShowErrorPanel(const std::string& message);

// Idle frames are skipped (a laptop's battery): the page draws after input
// (pointer, keys, wheel, touch, resize, focus, setState/setExplain), and for
// as long as something asks to keep drawing.
void WatchInput();
bool TakeInput();  // whether input arrived since the last call
// Called during a frame by what is still changing without input (a sweep
// filling in, a PNG waiting to be saved): the next frame is drawn too.
void KeepDrawing();
bool TakeKeepDrawing();

// Whether the last press was a finger's (web/fusionlab.js replays touches as
// a mouse): its drag scrolls, and a number it taps opens the soft keyboard.
bool PressIsTouch();

// A number field's text box for a finger: a phone's soft keyboard opens only
// for a real <input> focused while the finger touches the page, so the page
// places one over the field (web/fusionlab.js). `Arm` names the field a
// finger came down on, for the page to open as the finger lifts; `Open`
// opens it now (after a tap too short for a frame to see it come down).
// What is typed there comes back through the JS API's typeNumber.
struct SoftInputField {
  std::string key, value;
  float x = 0, y = 0, width = 0, height = 0;  // CSS pixels
  float font_px = 16;
  float tap_slop_px = 8;  // the box opens as the finger lifts if it moved less
};
void ArmSoftInput(const SoftInputField& field);
void OpenSoftInput(const SoftInputField& field);

// Calls `frame` once per browser animation frame, forever; does not return.
[[noreturn]] void RunMainLoop(void (*frame)(void*), void* arg);

}  // namespace fl::web
