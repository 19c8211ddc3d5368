// [SECTION] Embed mode: one slim line above the single view.
#include <algorithm>

#include "web/caption.h"
#include "web/explain.h"
#include "web/panels.h"
#include "web/widgets.h"

namespace fl::web {

void DrawEmbedStrip(State& state) {
  Settings& s = state.settings;
  const Lang lang = s.lang;
  const std::string line = ViewCaption(state);
  const char* toggle = Tx(Ui::Language, lang);
  const float button_w = ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2;
  const float button_x = ImGui::GetWindowContentRegionMax().x - button_w;
  // The caption wraps short of the language button rather than running under it.
  const float top = ImGui::GetCursorPosY();
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(button_x - ImGui::GetStyle().ItemSpacing.x);
  ImGui::TextWrapped("%s", line.c_str());
  ImGui::PopTextWrapPos();
  const float below = ImGui::GetCursorPosY();
  ImGui::SetCursorPos(ImVec2(button_x, top));
  if (ImGui::SmallButton(toggle)) s.lang = lang == Lang::Zh ? Lang::En : Lang::Zh;
  ImGui::SetCursorPosY(std::max(below, ImGui::GetCursorPosY()));
  // The numbers the teacher chose (controls=), side by side; each shows its own error.
  if (!s.controls.empty() && ImGui::BeginTable("controls", static_cast<int>(s.controls.size()))) {
    ImGui::TableNextRow();
    for (const std::string& key : s.controls) {
      ImGui::TableNextColumn();
      DrawNumberInput(state, key.c_str());
    }
    ImGui::EndTable();
  }
  const InputError& error = ActiveError(state);
  if (!state.url_warning.empty()) TextError(state.url_warning);
  const bool shown_by_a_control = std::find(s.controls.begin(), s.controls.end(), error.field) != s.controls.end();
  if (!error.message.empty() && s.view != View::Ablation && !shown_by_a_control) TextError(error.message);
  ImGui::Separator();
}

}  // namespace fl::web
