#version 300 es
// Chart renderer: one instanced quad per line segment (graph edges, roofs,
// arrows). The unit quad is stretched along the segment and widened across it
// by half the width plus one pixel, so the fragment shader can fade the sides.

layout(location = 0) in vec2 a_corner;     // unit quad corner, (0,0)..(1,1)
layout(location = 1) in vec4 a_ends;       // x0, y0, x1, y1 in pixels
layout(location = 2) in vec4 a_color;      // straight RGBA, 0..1
layout(location = 3) in float a_width;     // line width in pixels

uniform vec2 u_viewport;                   // target size in pixels

out float v_across;                        // pixel distance from the centre line
out float v_half_width;
out vec4 v_color;

const float kAntialiasPad = 1.0;

void main() {
  vec2 p0 = a_ends.xy;
  vec2 p1 = a_ends.zw;
  vec2 dir = p1 - p0;
  float len = length(dir);
  dir = len > 0.0 ? dir / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  float half_width = 0.5 * max(a_width, 0.5);
  float reach = half_width + kAntialiasPad;
  // Along: from p0 to p1 (caps extended by the pad); across: -reach..reach.
  float along = mix(-kAntialiasPad, len + kAntialiasPad, a_corner.x);
  float across = mix(-reach, reach, a_corner.y);
  vec2 pos = p0 + dir * along + normal * across;
  v_across = across;
  v_half_width = half_width;
  v_color = a_color;
  vec2 ndc = pos / u_viewport * 2.0 - 1.0;
  gl_Position = vec4(ndc, 0.0, 1.0);
}
