#include "web/page_context.h"

#include <cstdlib>

namespace fl::web {

namespace {
PageContext* g_page = nullptr;  // the app's; the only mutable global of the page
}  // namespace

void BindPage(PageContext& page) { g_page = &page; }
PageContext* BoundPage() { return g_page; }

PageContext& Page() {
  if (!g_page) std::abort();  // drawing before main() bound the page: a bug, not input
  return *g_page;
}

}  // namespace fl::web
