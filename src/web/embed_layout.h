// An embedded view (a slide's iframe, embed=1) must fit its frame without an
// inner scrollbar: its secondary content goes behind a disclosure and its
// charts take the height that is left. On the full page both do nothing.
#pragma once

#include "core/i18n.h"

namespace fl::web {

// What the layout knows of this frame (PageContext::embed).
struct EmbedLayoutState {
  bool embedded = false;
  float width_shortfall = 0;  // the widest table's overflow this frame, px
};

void SetEmbedLayout(bool embedded);  // each frame, before the view draws
bool EmbedLayout();

// Starts a view's secondary content (observations, detail tables): drawn as
// it is on the page; in an embed, under a closed "More" header, and only
// when it is opened (`open_now`: opened by this frame's click). True when
// the content is to be drawn.
bool BeginDetails(Lang lang, bool open_now = false);

// A chart's height: `wanted` on the page; in an embed, what is left of the
// view after `reserve` px for what follows the chart, at least `least`.
float FitHeight(float wanted, float least, float reserve);

// A table `px` wider than the view (it scrolls sideways): in an embed, the
// frame's fit shrinks the scale by it. Taken (and reset) once a frame.
void NoteWidthShortfall(float px);
float TakeWidthShortfall();

// The height BeginDetails' header takes (0 on the page), for `reserve`.
float DetailsHeight();

}  // namespace fl::web
