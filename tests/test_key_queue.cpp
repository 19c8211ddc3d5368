// The page's key queue (src/web/key_queue.cpp): the order and the frames in
// which key and character events reach ImGui.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "page/key_queue.h"

using namespace fl::web;

namespace {

constexpr int kCtrl = 341, kShift = 340, kTab = 258, kA = 65, kNine = 57, kSix = 54;

KeyEvent Press(int key) { return {KeyEvent::Kind::Key, key, kKeyPress, 0, 0}; }
KeyEvent Release(int key) { return {KeyEvent::Kind::Key, key, kKeyRelease, 0, 0}; }
KeyEvent Char(char c) { return {KeyEvent::Kind::Char, 0, 0, 0, static_cast<unsigned>(c)}; }

// Records what ImGui would see, one string per frame: "+65" a press,
// "-65" a release, "'9" a character. NextFrame() stands for the page's frame:
// the queue's FrameBegins, then ImGui::NewFrame reading what was forwarded.
struct Frames {
  std::vector<std::string> seen{""};
  KeyEventQueue queue;
  KeyEventQueue::Sink sink = [this](const KeyEvent& e) {
    std::string& frame = seen.back();
    if (!frame.empty()) frame += ' ';
    if (e.kind == KeyEvent::Kind::Char) frame += std::string("'") + static_cast<char>(e.code);
    else frame += (e.action == kKeyPress ? "+" : "-") + std::to_string(e.key);
  };
  void Push(const KeyEvent& e) { queue.Push(e, sink); }
  bool NextFrame() {
    const bool holding = queue.FrameBegins(sink);
    seen.emplace_back();
    return holding;
  }
};

}  // namespace

TEST_CASE("key events that no release undoes reach ImGui at once", "[page][keys]") {
  Frames f;
  f.Push(Press(kA));
  f.Push(Char('a'));
  CHECK_FALSE(f.queue.Holding());
  CHECK_FALSE(f.NextFrame());
  f.Push(Release(kA));
  CHECK_FALSE(f.queue.Holding());
  CHECK(f.seen == std::vector<std::string>{"+65 'a", "-65"});
}

TEST_CASE("a key tapped between two frames is released in the frame after the one that sees it", "[page][keys]") {
  Frames f;
  f.Push(Press(kA));
  f.Push(Release(kA));
  CHECK(f.queue.Holding());
  CHECK(f.NextFrame());  // still held: the page draws another frame
  CHECK_FALSE(f.NextFrame());
  CHECK(f.seen == std::vector<std::string>{"+65", "-65", ""});
}

TEST_CASE("a modifier let go with a quick key is still down in the key's frame", "[page][keys]") {
  Frames f;
  for (const KeyEvent& e : {Press(kShift), Press(kTab), Release(kTab), Release(kShift)}) f.Push(e);
  f.NextFrame();
  f.NextFrame();
  CHECK(f.seen == std::vector<std::string>{"+340 +258", "-258 -340", ""});
}

TEST_CASE("text typed right after Ctrl+A waits for the frame in which Ctrl is up", "[page][keys]") {
  // Ctrl+A then "96", all between two frames: ImGui drops characters typed
  // while it sees Ctrl held, so neither digit may share a frame with Ctrl.
  Frames f;
  for (const KeyEvent& e : {Press(kCtrl), Press(kA), Release(kA), Release(kCtrl), Press(kNine), Char('9'),
                            Release(kNine), Press(kSix), Char('6'), Release(kSix)})
    f.Push(e);
  int frames = 0;
  while (f.NextFrame()) ++frames;
  CHECK(frames == 3);
  CHECK(f.seen == std::vector<std::string>{"+341 +65", "-65 -341 +57 '9", "-57 +54 '6", "-54", ""});
}

TEST_CASE("events that arrive while others are held keep their order", "[page][keys]") {
  Frames f;
  f.Push(Press(kA));
  f.Push(Release(kA));
  f.Push(Char('x'));  // would be forwardable alone, but it came after the held release
  f.NextFrame();
  f.Push(Press(kNine));
  f.NextFrame();
  CHECK(f.seen == std::vector<std::string>{"+65", "-65 'x +57", ""});
}
