#pragma once
// Arithmetic types of CUDA/HIP C++ by name: the element type, size and vector width of "float",
// "unsigned long long", "int64_t", "__half", "float4" ….
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/dtype.hpp"

namespace gpurun::detail {

struct CType {
  DType element;
  std::size_t size = 0; ///< bytes of the whole value (float4: 16)
  int width = 1;
};

/// `words` are the base type's words without const/volatile ("unsigned", "long", "long" or
/// "std::size_t"). Sizes follow the LP64 data model that CUDA and HIP share with the Linux host:
/// long is 8 bytes, plain char is signed. std::nullopt for anything else (structs, void, T).
[[nodiscard]] std::optional<CType> resolve_c_type(const std::vector<std::string>& words);

/// true for words that can only be part of a type name ("int", "unsigned", "float", …), so
/// "unsigned long" cannot end with a parameter name.
[[nodiscard]] bool is_type_keyword(const std::string& word);

} // namespace gpurun::detail
