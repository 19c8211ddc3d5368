#include "web/chart_renderer.h"

#include <memory>

#include <cstddef>
#include <cstdio>

#include "web/page_context.h"

#include "shaders.h"  // generated from shaders/*.vert, *.frag by cmake/Web.cmake

namespace fl::web {

namespace {

// Instance attributes, one per quad: must match quad.vert's locations.
struct Instance {
  float rect[4];
  ImU32 color;  // RGBA bytes in memory order (ImGui's packing on little-endian)
  float radius;
};

struct SegmentInstance {
  float ends[4];
  ImU32 color;
  float width;
};

GLuint compile(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  return shader;
}

// Starts compiling and linking a program without asking how it went: every
// status query waits for the GPU process, so Init asks once, after all are sent.
GLuint start_program(const char* vertex, const char* fragment) {
  GLuint program = glCreateProgram();
  GLuint vs = compile(GL_VERTEX_SHADER, vertex);
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragment);
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  return program;
}

// Whether the program linked; if not, its shaders' logs on stderr.
bool finish_program(GLuint program, const char* name) {
  GLuint shaders[2];
  GLsizei count = 0;
  glGetAttachedShaders(program, 2, &count, shaders);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  for (GLsizei i = 0; i < count; ++i) {
    if (!ok) {
      char log[1024] = "";
      glGetShaderInfoLog(shaders[i], sizeof log, nullptr, log);
      std::fprintf(stderr, "%s shader: %s\n", name, log);
    }
    glDeleteShader(shaders[i]);  // the program keeps what it linked
  }
  if (!ok) std::fprintf(stderr, "%s shader: link failed\n", name);
  return ok != 0;
}

}  // namespace

void ChartRenderer::ForgetLostContext() {
  targets_.clear();
  program_ = vertex_array_ = corner_buffer_ = instance_buffer_ = 0;
  segment_program_ = segment_vertex_array_ = segment_buffer_ = 0;
}

// Deleting the name 0 does nothing: a renderer that forgot a lost context deletes none.
ChartRenderer::~ChartRenderer() {
  for (auto& [id, t] : targets_) {
    glDeleteFramebuffers(1, &t.framebuffer);
    glDeleteTextures(1, &t.texture);
  }
  glDeleteBuffers(1, &corner_buffer_);
  glDeleteBuffers(1, &instance_buffer_);
  glDeleteVertexArrays(1, &vertex_array_);
  glDeleteProgram(program_);
  glDeleteBuffers(1, &segment_buffer_);
  glDeleteVertexArrays(1, &segment_vertex_array_);
  glDeleteProgram(segment_program_);
}

bool ChartRenderer::Init() {
  program_ = start_program(shaders::kQuadVert, shaders::kQuadFrag);
  segment_program_ = start_program(shaders::kSegmentVert, shaders::kSegmentFrag);
  const bool quads_linked = finish_program(program_, "chart");
  const bool segments_linked = finish_program(segment_program_, "segment");
  if (!quads_linked || !segments_linked) return false;
  viewport_uniform_ = glGetUniformLocation(program_, "u_viewport");

  glGenVertexArrays(1, &vertex_array_);
  glBindVertexArray(vertex_array_);
  // A unit quad as a 4-vertex triangle strip, shared by every instance.
  static const float kCorners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &corner_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glBufferData(GL_ARRAY_BUFFER, sizeof kCorners, kCorners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);

  glGenBuffers(1, &instance_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  const GLsizei stride = sizeof(Instance);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(Instance, rect)));
  glVertexAttribDivisor(1, 1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(Instance, color)));
  glVertexAttribDivisor(2, 1);
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(Instance, radius)));
  glVertexAttribDivisor(3, 1);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  // Line segments: their own program, sharing the unit quad.
  segment_viewport_uniform_ = glGetUniformLocation(segment_program_, "u_viewport");
  glGenVertexArrays(1, &segment_vertex_array_);
  glBindVertexArray(segment_vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, corner_buffer_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glGenBuffers(1, &segment_buffer_);
  glBindBuffer(GL_ARRAY_BUFFER, segment_buffer_);
  const GLsizei sstride = sizeof(SegmentInstance);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sstride, reinterpret_cast<void*>(offsetof(SegmentInstance, ends)));
  glVertexAttribDivisor(1, 1);
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sstride, reinterpret_cast<void*>(offsetof(SegmentInstance, color)));
  glVertexAttribDivisor(2, 1);
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, sstride, reinterpret_cast<void*>(offsetof(SegmentInstance, width)));
  glVertexAttribDivisor(3, 1);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return true;
}

void ChartRenderer::Resize(Target& t, int width, int height) {
  if (t.framebuffer && t.width == width && t.height == height) return;
  if (!t.framebuffer) {
    glGenFramebuffers(1, &t.framebuffer);
    glGenTextures(1, &t.texture);
  }
  glBindTexture(GL_TEXTURE_2D, t.texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.texture, 0);
  t.width = width;
  t.height = height;
}

ImTextureID ChartRenderer::Render(ImGuiID id, int width, int height, ImU32 background,
                                  const std::vector<Quad>& quads) {
  static const std::vector<Segment> kNone;
  return Render(id, width, height, background, quads, kNone);
}

ImTextureID ChartRenderer::Render(ImGuiID id, int width, int height, ImU32 background,
                                  const std::vector<Quad>& quads, const std::vector<Segment>& segments) {
  if (width < 1) width = 1;
  if (height < 1) height = 1;
  Target& t = targets_[id];
  Resize(t, width, height);

  std::vector<Instance> instances;
  instances.reserve(quads.size());
  for (const Quad& q : quads) instances.push_back({{q.x0, q.y0, q.x1, q.y1}, q.color, q.radius});

  glBindFramebuffer(GL_FRAMEBUFFER, t.framebuffer);
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  ImVec4 bg = ImGui::ColorConvertU32ToFloat4(background);
  glClearColor(bg.x, bg.y, bg.z, bg.w);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  if (!segments.empty() && segment_program_) {
    std::vector<SegmentInstance> lines;
    lines.reserve(segments.size());
    for (const Segment& sg : segments) lines.push_back({{sg.x0, sg.y0, sg.x1, sg.y1}, sg.color, sg.width});
    glUseProgram(segment_program_);
    glUniform2f(segment_viewport_uniform_, static_cast<float>(width), static_cast<float>(height));
    glBindVertexArray(segment_vertex_array_);
    glBindBuffer(GL_ARRAY_BUFFER, segment_buffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lines.size() * sizeof(SegmentInstance)), lines.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(lines.size()));
  }

  glUseProgram(program_);
  glUniform2f(viewport_uniform_, static_cast<float>(width), static_cast<float>(height));
  glBindVertexArray(vertex_array_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)), instances.data(),
               GL_STREAM_DRAW);
  if (!instances.empty()) glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(instances.size()));

  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.texture));
}

ChartRenderer& Charts() {
  std::unique_ptr<ChartRenderer>& charts = Page().charts;
  if (!charts) {
    charts = std::make_unique<ChartRenderer>();
    charts->Init();
  }
  return *charts;
}

void ChartsLostContext() {
  std::unique_ptr<ChartRenderer>& charts = Page().charts;
  if (charts) charts->ForgetLostContext();
  charts.reset();
}

}  // namespace fl::web
