// The charts' own WebGL2 renderer: instanced quads with anti-aliased edges.
//
// Each chart is drawn into an offscreen framebuffer at device-pixel size and
// shown with ImGui::Image, so it scrolls and clips with the ImGui window like
// any widget; text (axes, labels) is then drawn over it by ImGui, in the
// page's font. Bars, grid lines and markers are all one kind of primitive, a
// rounded rectangle (shaders/quad.vert, shaders/quad.frag), one instance each:
// a chart is a single draw call.
#pragma once

#include <GLES3/gl3.h>
#include <imgui.h>

#include <unordered_map>
#include <vector>

namespace fl::web {

// A rectangle in the target's pixels, origin top-left.
struct Quad {
  float x0, y0, x1, y1;
  ImU32 color;
  float radius = 0;
};

// A straight line between two points in the target's pixels (graph edges,
// roofs, arrows): shaders/segment.vert, shaders/segment.frag.
struct Segment {
  float x0, y0, x1, y1;
  ImU32 color;
  float width = 1;
};

class ChartRenderer {
 public:
  ChartRenderer() = default;
  ChartRenderer(const ChartRenderer&) = delete;
  ChartRenderer& operator=(const ChartRenderer&) = delete;
  ~ChartRenderer();

  // Compiles the shaders; false (with a message on stderr) if that fails.
  bool Init();

  // The WebGL context was lost: its GL names are gone with it. Forgets them,
  // so that the destructor deletes none.
  void ForgetLostContext();

  // Draws `quads` over `background` into the chart `id`'s texture, sized
  // width × height pixels, and returns the texture for ImGui::Image.
  ImTextureID Render(ImGuiID id, int width, int height, ImU32 background, const std::vector<Quad>& quads);
  // The same with line segments, drawn under the quads (one more draw call).
  ImTextureID Render(ImGuiID id, int width, int height, ImU32 background, const std::vector<Quad>& quads,
                     const std::vector<Segment>& segments);

 private:
  struct Target {
    GLuint framebuffer = 0, texture = 0;
    int width = 0, height = 0;
  };
  void Resize(Target& t, int width, int height);

  GLuint program_ = 0, vertex_array_ = 0, corner_buffer_ = 0, instance_buffer_ = 0;
  GLint viewport_uniform_ = -1;
  GLuint segment_program_ = 0, segment_vertex_array_ = 0, segment_buffer_ = 0;
  GLint segment_viewport_uniform_ = -1;
  std::unordered_map<ImGuiID, Target> targets_;
};

// The renderer every chart draws with (bar charts, graph, roofline, timeline,
// sweep: each into its own target), created on first use.
ChartRenderer& Charts();
// After a lost WebGL context was restored: drops the renderer (its GL names
// belonged to the lost context) so that the next chart creates a new one.
void ChartsLostContext();

}  // namespace fl::web
