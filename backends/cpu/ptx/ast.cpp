#include "backends/cpu/ptx/ast.hpp"

#include <algorithm>

#include "backends/kit/ptx_entries.hpp"

namespace gpurun::ptx {

std::size_t Variable::size_bytes() const {
  const std::size_t element = kit::ptx_type_size(type) * static_cast<std::size_t>(vector_width);
  if (!array_size) {
    return element;
  }
  return element * *array_size;
}

const Function* Module::find_function(std::string_view wanted) const {
  const Function* prototype = nullptr;
  for (const Function& f : functions) {
    if (f.name == wanted) {
      if (f.has_body) {
        return &f;
      }
      prototype = prototype != nullptr ? prototype : &f;
    }
  }
  return prototype;
}

const Variable* Module::find_global(std::string_view wanted) const {
  auto it = std::find_if(globals.begin(), globals.end(),
                         [&](const Variable& v) { return v.name == wanted; });
  return it == globals.end() ? nullptr : &*it;
}

} // namespace gpurun::ptx
