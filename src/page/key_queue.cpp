#include "page/key_queue.h"

#include <algorithm>

namespace fl::web {

bool KeyEventQueue::MustWait(const KeyEvent& event) const {
  return event.kind == KeyEvent::Kind::Key && event.action == kKeyRelease &&
         std::find(pressed_since_frame_.begin(), pressed_since_frame_.end(), event.key) != pressed_since_frame_.end();
}

void KeyEventQueue::Forward(const KeyEvent& event, const Sink& sink) {
  if (event.kind == KeyEvent::Kind::Key && event.action == kKeyPress) pressed_since_frame_.push_back(event.key);
  sink(event);
}

void KeyEventQueue::Push(const KeyEvent& event, const Sink& sink) {
  if (!held_.empty() || MustWait(event)) {
    held_.push_back(event);
    return;
  }
  Forward(event, sink);
}

bool KeyEventQueue::FrameBegins(const Sink& sink) {
  while (!held_.empty() && !MustWait(held_.front())) {
    Forward(held_.front(), sink);
    held_.pop_front();
  }
  pressed_since_frame_.clear();  // the frame about to begin reads them
  return !held_.empty();
}

}  // namespace fl::web
