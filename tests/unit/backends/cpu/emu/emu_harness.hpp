#pragma once
// Runs PTX (hand-written, or compiled by NVRTC or clang) on the CPU backend for the emulator and
// compiler tests.
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cpu/backend.hpp"
#include "base/error.hpp"

namespace gpurun::test {

class EmuHarness {
public:
  explicit EmuHarness(const std::string& source, Language language = Language::ptx,
                      ContextOptions options = {}, const CompileOptions& compile = {}) {
    m_backend = make_cpu_backend();
    m_context = m_backend->devices().at(0)->create_context(options);
    KernelSource src{source, language == Language::ptx ? "test.ptx" : "test.cu", language};
    CompileResult compiled = m_context->compile(src, compile);
    if (!compiled.ok)
      throw std::runtime_error("compile failed: " + compiled.log);
    m_ptx.assign(reinterpret_cast<const char*>(compiled.binary.data()), compiled.binary.size());
    m_module = m_context->load(compiled);
    m_lowered_names = compiled.lowered_names;
  }

  template <class T> Buffer& buffer(const std::vector<T>& init, const std::string& name = {}) {
    m_buffers.push_back(m_context->allocate(init.size() * sizeof(T)));
    Buffer& b = *m_buffers.back();
    m_context->copy_to_device(b, std::as_bytes(std::span(init)));
    if (!name.empty())
      m_context->name_buffer(b, name);
    return b;
  }

  template <class T> std::vector<T> read(const Buffer& b) {
    std::vector<T> out(b.size() / sizeof(T));
    m_context->copy_to_host(std::as_writable_bytes(std::span(out)), b);
    return out;
  }

  /// Arguments: Buffer& (its address) or any trivially copyable scalar.
  template <class... A>
  void launch(const std::string& kernel, Dim3 grid, Dim3 block, std::size_t shared,
              const A&... args) {
    ArgPack pack;
    (add(pack, args), ...);
    m_context->launch(m_module->function(kernel), LaunchConfig{grid, block, shared}, pack);
  }

  template <class... A>
  void run(const std::string& kernel, Dim3 grid, Dim3 block, const A&... args) {
    launch(kernel, grid, block, 0, args...);
    m_context->synchronize();
  }

  Context& context() { return *m_context; }
  Module& module() { return *m_module; }
  const std::string& ptx() const { return m_ptx; }
  /// The mangled name the compiler reported for a name expression (the expression when none).
  std::string lowered(const std::string& expression) const {
    auto it = m_lowered_names.find(expression);
    return it == m_lowered_names.end() ? expression : it->second;
  }

private:
  static void add(ArgPack& pack, const Buffer& b) { pack.add_buffer(b); }
  static void add(ArgPack& pack, Buffer& b) { pack.add_buffer(b); }
  template <class T> static void add(ArgPack& pack, const T& v) {
    std::vector<std::byte> bytes(sizeof(T));
    std::memcpy(bytes.data(), &v, sizeof(T));
    pack.add_bytes(std::move(bytes));
  }

  std::unique_ptr<Backend> m_backend;
  std::unique_ptr<Context> m_context;
  std::unique_ptr<Module> m_module;
  std::vector<std::unique_ptr<Buffer>> m_buffers;
  std::string m_ptx;
  std::map<std::string, std::string> m_lowered_names;
};

} // namespace gpurun::test
