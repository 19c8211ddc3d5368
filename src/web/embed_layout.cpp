#include "web/embed_layout.h"

#include <imgui.h>

#include <algorithm>

#include "web/explain.h"
#include "web/widgets.h"

namespace fl::web {

namespace {
bool g_embedded = false;
}  // namespace

void SetEmbedLayout(bool embedded) { g_embedded = embedded; }
bool EmbedLayout() { return g_embedded; }

bool BeginDetails(Lang lang, bool open_now) {
  if (!g_embedded) return true;
  if (open_now) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::CollapsingHeader(Tx(Text::UiMoreDetails, lang));
  RecordWidget("details");
  return open;
}

float DetailsHeight() { return g_embedded ? ImGui::GetFrameHeightWithSpacing() : 0; }

float FitHeight(float wanted, float least, float reserve) {
  if (!g_embedded) return wanted;
  return std::max(least, ImGui::GetContentRegionAvail().y - reserve);
}

}  // namespace fl::web
