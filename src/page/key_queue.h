// The order in which the browser's key and character events reach ImGui.
//
// ImGui 1.86 reads each key's state once per frame, so a key pressed and
// released between two frames (Enter tapped while a slow frame draws) would be
// lost. The queue forwards events as they come until a release would undo a
// press of the same frame; from there on it holds every event, in order, and
// hands them on at the next frames, each frame again up to such a release. A
// modifier let go with the key (Shift of a quick Shift+Tab) is still down in
// the frame that sees the key, and a character typed after Ctrl+A waits for
// the frame in which Ctrl is up (ImGui drops text typed with Ctrl held).
#pragma once

#include <deque>
#include <functional>
#include <vector>

namespace fl::web {

struct KeyEvent {
  enum class Kind { Key, Char };
  Kind kind = Kind::Key;
  int key = 0;       // GLFW key code (Kind::Key)
  int action = 0;    // GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT (Kind::Key)
  int mods = 0;      // GLFW modifier bits (Kind::Key)
  unsigned code = 0; // Unicode code point (Kind::Char)
};

// GLFW's action codes, so that the queue needs no GLFW header.
inline constexpr int kKeyRelease = 0;
inline constexpr int kKeyPress = 1;

class KeyEventQueue {
 public:
  using Sink = std::function<void(const KeyEvent&)>;

  // An event from the browser: forwarded to `sink` now, or held.
  void Push(const KeyEvent& event, const Sink& sink);
  // Right before ImGui::NewFrame, which reads what was forwarded (its widgets
  // read the modifiers and characters live, so nothing may be forwarded
  // between NewFrame and Render): forwards the held events this frame may
  // see. Returns whether some are still held (the page must draw again).
  bool FrameBegins(const Sink& sink);

  bool Holding() const { return !held_.empty(); }

 private:
  bool MustWait(const KeyEvent& event) const;
  void Forward(const KeyEvent& event, const Sink& sink);

  std::deque<KeyEvent> held_;
  std::vector<int> pressed_since_frame_;  // keys pressed since the last NewFrame
};

}  // namespace fl::web
