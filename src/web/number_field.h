// [SECTION] A number that follows the hand.
//
// Drag sideways to change it (sizes and rates scale, fixed costs add; Shift
// snaps to powers of two); click without dragging, Ctrl+click, double-click
// or Tab to type it, applied when complete (Enter, leaving the field, or a
// pause of 1 s; a finger's tap types in the page's own text box instead, see
// LastFingerOnField); ↑/↓ while typing step it (double, halve). Every value a drag
// or step asks for passes through `nearest_accepted` first, so a drag moves
// only between values the configuration accepts.
#pragma once

#include <imgui.h>

#include <functional>
#include <optional>
#include <string>

#include "core/config.h"

namespace fl::web {

// The value nearest to `wanted` that the configuration accepts, searched in
// `direction` (+1, -1) first.
using NearestAccepted = std::function<double(double wanted, int direction)>;

// Draws the field for `key` (ImGui ID "##key") showing `value`; returns the
// text to apply when the user changed it: typed text as it is (the core
// parses it), a dragged or stepped value as the core writes it.
std::optional<std::string> NumberField(const char* key, const NumberRange& range, const std::string& value,
                                       const NearestAccepted& nearest_accepted);

// What a finger did to the last NumberField drawn, this frame: came down on
// it, or tapped it (lifted without dragging). A tap does not type into the
// canvas: a phone's soft keyboard opens only for the page's own text box.
enum class FingerOnField { None, Down, Tapped };
FingerOnField LastFingerOnField();

// What this module carries from frame to frame (PageContext::number_field):
// the one field being dragged or typed into.
struct NumberFieldState {
  struct Drag {
    ImGuiID id = 0;
    double start = 0;
    bool moved = false;
  };
  struct Typing {
    ImGuiID id = 0;
    bool focus_pending = false;
    std::string key, text;  // the draft, applied when complete
    double edited_at = 0;
  };
  Drag drag;
  Typing typing;
  FingerOnField finger = FingerOnField::None;  // the last field drawn
};

// A square button of the frame's height drawn as a circular arrow: reset.
bool ResetButton(const char* id);

}  // namespace fl::web
