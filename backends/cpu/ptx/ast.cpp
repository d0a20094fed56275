#include "backends/cpu/ptx/ast.hpp"

#include <algorithm>

namespace gpurun::ptx {

std::size_t type_size_bytes(std::string_view type) {
  if (type.empty()) {
    return 0;
  }
  if (type == "pred") {
    return 1;
  }
  // Packed pairs (.f16x2, .bf16x2, .e4m3x2 …) occupy twice their element.
  if (type.size() > 2 && type.substr(type.size() - 2) == "x2") {
    const std::size_t half = type_size_bytes(type.substr(0, type.size() - 2));
    return half * 2;
  }
  if (type == "e4m3" || type == "e5m2" || type == "e2m3" || type == "e3m2" || type == "e2m1") {
    return 1;
  }
  if (type == "tf32") {
    return 4;
  }
  std::string_view digits;
  if (type.substr(0, 2) == "bf") {
    digits = type.substr(2);
  } else if (type[0] == 'b' || type[0] == 'u' || type[0] == 's' || type[0] == 'f') {
    digits = type.substr(1);
  } else {
    return 0;
  }
  if (digits == "8") {
    return type[0] == 'f' ? 0 : 1;
  }
  if (digits == "16") {
    return 2;
  }
  if (digits == "32") {
    return type.substr(0, 2) == "bf" ? 0 : 4;
  }
  if (digits == "64") {
    return type.substr(0, 2) == "bf" ? 0 : 8;
  }
  if (digits == "128" && type[0] == 'b') {
    return 16;
  }
  return 0;
}

std::size_t Variable::size_bytes() const {
  const std::size_t element = type_size_bytes(type) * static_cast<std::size_t>(vector_width);
  if (!array_size) {
    return element;
  }
  return element * *array_size;
}

const Variable* Function::find_param(std::string_view wanted) const {
  auto it = std::find_if(params.begin(), params.end(),
                         [&](const Variable& v) { return v.name == wanted; });
  return it == params.end() ? nullptr : &*it;
}

std::size_t Function::param_bytes() const {
  std::size_t offset = 0;
  for (const Variable& p : params) {
    const std::size_t align = std::max<std::size_t>(p.align, 1);
    offset = (offset + align - 1) / align * align + p.size_bytes();
  }
  return offset;
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
