#include "web/embed_layout.h"

#include <imgui.h>

#include <algorithm>
#include <utility>

#include "web/explain.h"
#include "web/widgets.h"

namespace fl::web {

namespace {
bool g_embedded = false;
float g_width_shortfall = 0;
}  // namespace

void SetEmbedLayout(bool embedded) { g_embedded = embedded; }
bool EmbedLayout() { return g_embedded; }

bool BeginDetails(Lang lang, bool open_now) {
  if (!g_embedded) return true;
  if (open_now) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::CollapsingHeader(Tx(Ui::MoreDetails, lang));
  RecordWidget("details");
  return open;
}

void NoteWidthShortfall(float px) {
  if (g_embedded) g_width_shortfall = std::max(g_width_shortfall, px);
}

float TakeWidthShortfall() { return std::exchange(g_width_shortfall, 0.0f); }

float DetailsHeight() { return g_embedded ? ImGui::GetFrameHeightWithSpacing() : 0; }

float FitHeight(float wanted, float least, float reserve) {
  if (!g_embedded) return wanted;
  return std::max(least, ImGui::GetContentRegionAvail().y - reserve);
}

}  // namespace fl::web
