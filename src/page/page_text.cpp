#include "page/page_text.h"

namespace fl {

namespace {
constexpr Bilingual kTable[] = {
#define FL_TEXT(id, zh, en) {zh, en},
#include "page/page_text.inc"
#undef FL_TEXT
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == static_cast<size_t>(Ui::Count));
}  // namespace

std::string_view tr(Ui id, Lang lang) {
  return kTable[static_cast<size_t>(id)].in(lang);
}

}  // namespace fl
