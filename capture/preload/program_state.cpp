#include "capture/preload/program_state.hpp"

#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <span>

#include <fmt/format.h>

namespace gpurun::capture::preload {

State& state() {
  static State* s = new State; // never destroyed: launches may come during exit
  return *s;
}

std::unique_ptr<Image> copy_image(const void* data) {
  auto image = std::make_unique<Image>();
  if (data == nullptr)
    return image;
  const auto* p = static_cast<const std::byte*>(data);
  try {
    image->kind = kit::image_kind(std::span(p, 16));
    if (image->kind == kit::ImageKind::fatbin_wrapper) { // {magic, version, data, filename}
      std::memcpy(&p, p + 8, sizeof p);
      image->kind = kit::image_kind(std::span(p, 16));
    }
    // The image's own tables say where it ends; nothing beyond them is read.
    const std::uint64_t size = kit::image_size(std::span(p, std::size_t{1} << 40));
    image->bytes.assign(p, p + size + (image->kind == kit::ImageKind::ptx ? 1 : 0));
  } catch (const std::exception& e) {
    image->why = e.what();
  }
  return image;
}

std::unique_ptr<Image> read_image_file(const char* path) {
  auto image = std::make_unique<Image>();
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    image->why = fmt::format("{}: cannot be read", path);
    return image;
  }
  image->bytes.resize(text.size());
  std::memcpy(image->bytes.data(), text.data(), text.size());
  image->kind = kit::image_kind(image->bytes);
  if (image->kind == kit::ImageKind::ptx)
    image->bytes.push_back(std::byte{0});
  return image;
}

void remember_image(const void* handle, std::unique_ptr<Image> image) {
  std::lock_guard lock(state().mutex);
  state().images[handle] = std::move(image);
}

void remember_kernel(const void* handle, const void* owner, const char* name, bool library_kernel) {
  std::lock_guard lock(state().mutex);
  const auto it = state().images.find(owner);
  state().kernels[handle] = {name != nullptr ? name : "",
                             it != state().images.end() ? it->second.get() : nullptr,
                             library_kernel};
}

void remember_allocation(cu::CUdeviceptr base, std::size_t size, MemoryKind kind) {
  std::lock_guard lock(state().mutex);
  state().allocations.add({base, size, kind});
}

void forget_allocation(cu::CUdeviceptr base) {
  std::lock_guard lock(state().mutex);
  (void)state().allocations.remove(base);
}

} // namespace gpurun::capture::preload
