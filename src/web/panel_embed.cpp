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
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(line.c_str());
  const char* toggle = Tx(Text::UiLanguage, lang);
  const float button_w = ImGui::CalcTextSize(toggle).x + ImGui::GetStyle().FramePadding.x * 2;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - button_w));
  if (ImGui::SmallButton(toggle)) s.lang = lang == Lang::Zh ? Lang::En : Lang::Zh;
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
