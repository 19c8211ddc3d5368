#include "web/embed_layout.h"

#include <imgui.h>

#include <algorithm>
#include <utility>

#include "web/explain.h"
#include "web/page_context.h"
#include "web/widgets.h"

namespace fl::web {

namespace {
EmbedLayoutState& layout() { return Page().embed; }
}  // namespace

void SetEmbedLayout(bool embedded) { layout().embedded = embedded; }
bool EmbedLayout() { return layout().embedded; }

bool BeginDetails(Lang lang, bool open_now) {
  if (!layout().embedded) return true;
  if (open_now) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::CollapsingHeader(Tx(Ui::MoreDetails, lang));
  RecordWidget("details");
  return open;
}

void NoteWidthShortfall(float px) {
  if (layout().embedded) layout().width_shortfall = std::max(layout().width_shortfall, px);
}

float TakeWidthShortfall() { return std::exchange(layout().width_shortfall, 0.0f); }

float DetailsHeight() { return layout().embedded ? ImGui::GetFrameHeightWithSpacing() : 0; }

float FitHeight(float wanted, float least, float reserve) {
  if (!layout().embedded) return wanted;
  return std::max(least, ImGui::GetContentRegionAvail().y - reserve);
}

}  // namespace fl::web
