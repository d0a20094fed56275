#include "capture/replay_spec.hpp"

#include <cxxabi.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backends/kit/module_image.hpp"
#include "backends/kit/ptx_entries.hpp"

namespace gpurun::capture {

namespace {

using nlohmann::ordered_json;

/// The element type of a demangled C type's pointee or value ("float const*" → f32).
std::optional<DType> c_element(std::string type) {
  for (const char* drop : {"const", "volatile", "__restrict__", "__restrict", "*", "&"})
    for (std::size_t at; (at = type.find(drop)) != std::string::npos;)
      type.erase(at, std::strlen(drop));
  const auto first = type.find_first_not_of(' ');
  const auto last = type.find_last_not_of(' ');
  type = first == std::string::npos ? std::string() : type.substr(first, last - first + 1);
  static constexpr std::pair<std::string_view, DType> k_types[] = {
      {"float", DType::f32},          {"double", DType::f64},
      {"__half", DType::f16},         {"half", DType::f16},
      {"__nv_bfloat16", DType::bf16}, {"int", DType::i32},
      {"unsigned int", DType::u32},   {"long", DType::i64},
      {"long long", DType::i64},      {"unsigned long", DType::u64},
      {"unsigned long long", DType::u64}, {"short", DType::i16},
      {"unsigned short", DType::u16}, {"char", DType::i8},
      {"signed char", DType::i8},     {"unsigned char", DType::u8},
      {"bool", DType::u8},            {"float2", DType::f32},
      {"float4", DType::f32},         {"double2", DType::f64},
      {"int2", DType::i32},           {"int4", DType::i32},
      {"uint2", DType::u32},          {"uint4", DType::u32},
      {"__half2", DType::f16},        {"__nv_bfloat162", DType::bf16},
      {"char4", DType::i8},           {"uchar4", DType::u8},
  };
  for (const auto& [name, dtype] : k_types)
    if (type == name)
      return dtype;
  return std::nullopt;
}

bool is_pointer_type(const std::string& type) {
  return type.find('*') != std::string::npos;
}

/// The kernel's PTX parameters, where the module carries its PTX.
std::vector<kit::PtxParam> ptx_params(const LaunchRecord& record) {
  try {
    std::optional<std::string> ptx;
    if (record.image_kind == kit::ImageKind::ptx)
      ptx.emplace(reinterpret_cast<const char*>(record.image.data()),
                  strnlen(reinterpret_cast<const char*>(record.image.data()), record.image.size()));
    else if (record.image_kind == kit::ImageKind::fatbin)
      ptx = kit::fatbin_ptx(record.image);
    if (ptx)
      for (auto& entry : kit::parse_ptx_entries(*ptx))
        if (entry.name == record.kernel)
          return std::move(entry.params);
  } catch (const std::exception&) {
    // The spec then does without PTX types: numbers go as records of their bytes.
  }
  return {};
}

std::uint64_t load_le(const std::byte* p, std::size_t size) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < size; ++i)
    v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}

std::string pointer_text(const LaunchRecord& record, const FoundPointer& p) {
  const std::size_t k = memory_index(record, p).value(); // every pointer has its window
  const MemoryWindow& w = record.memory[k].window;
  const std::uint64_t offset = p.offset_in_allocation - w.offset;
  return offset == 0 ? fmt::format("&a{}", k) : fmt::format("&a{}+{}", k, offset);
}

/// The bytes [offset, offset+size) of the parameter bytes as record fields: its pointers as &aN,
/// the rest as u32 words where aligned and whole, else single bytes.
std::string record_text(const LaunchRecord& record, std::size_t param, const ParamSlot& slot) {
  std::vector<std::string> fields;
  const std::byte* bytes = record.params.data() + slot.offset;
  const bool words = slot.size % 4 == 0;
  for (std::size_t at = 0; at < slot.size;) {
    const FoundPointer* pointer = nullptr;
    for (const auto& p : record.pointers)
      if (p.param == param && p.offset_in_param == at)
        pointer = &p;
    if (pointer != nullptr) {
      fields.push_back(pointer_text(record, *pointer));
      at += 8;
    } else if (words && at % 4 == 0 && at + 4 <= slot.size) {
      fields.push_back(fmt::format("u32:{:#x}", load_le(bytes + at, 4)));
      at += 4;
    } else {
      fields.push_back(fmt::format("u8:{}", load_le(bytes + at, 1)));
      at += 1;
    }
  }
  std::string out = "{";
  for (std::size_t i = 0; i < fields.size(); ++i)
    out += (i == 0 ? "" : ", ") + fields[i];
  return out + "}";
}

/// A number parameter as a typed scalar, where the PTX gives a type that reads it back exactly.
std::optional<std::string> scalar_text(const kit::PtxParam& p, const std::byte* bytes,
                                       std::size_t size) {
  if (p.array_size || p.vector_width != 1 || p.size != size)
    return std::nullopt;
  const std::uint64_t raw = load_le(bytes, size);
  const std::string& t = p.type;
  const auto sign_extend = [&](unsigned bits) {
    return static_cast<long long>(raw << (64 - bits)) >> (64 - bits);
  };
  if (t == "u8" || t == "u16" || t == "u32" || t == "u64" || t == "b32" || t == "b64")
    return fmt::format("{}{}:{}", t[0] == 'b' ? "u" : "", t[0] == 'b' ? t.substr(1) : t, raw);
  if (t == "s8" || t == "s16" || t == "s32" || t == "s64")
    return fmt::format("i{}:{}", t.substr(1), sign_extend(static_cast<unsigned>(size * 8)));
  // Shortest digits that read back to the same bits; a NaN's payload has no digits.
  if (t == "f32") {
    float f = 0;
    std::memcpy(&f, bytes, sizeof f);
    return std::isnan(f) ? std::nullopt : std::optional(fmt::format("f32:{}", f));
  }
  if (t == "f64") {
    double d = 0;
    std::memcpy(&d, bytes, sizeof d);
    return std::isnan(d) ? std::nullopt : std::optional(fmt::format("f64:{}", d));
  }
  return std::nullopt;
}

std::string memory_file(std::size_t index, const char* when) {
  return fmt::format("memory/a{}.{}.npy", index, when);
}

std::string buffer_text(const LaunchRecord& record, std::size_t k) {
  const DType dtype = window_dtype(record, k);
  return fmt::format("{}[{}]:@{}", dtype_name(dtype),
                     record.memory[k].window.saved / dtype_size(dtype), memory_file(k, "before"));
}

} // namespace

std::vector<std::string> demangled_parameter_types(const std::string& mangled) {
  if (!mangled.starts_with("_Z"))
    return {};
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || !text)
    return {};
  const std::string s = text.get();
  // The parameter list is the last top-level parenthesis: "void k<float>(float*, int)".
  const std::size_t close = s.rfind(')');
  if (close == std::string::npos)
    return {};
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = close + 1; i-- > 0;) {
    depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
    if (depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos)
    return {};
  std::vector<std::string> types;
  std::string current;
  depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = s[i];
    depth += c == '(' || c == '<' || c == '[' ? 1 : c == ')' || c == '>' || c == ']' ? -1 : 0;
    if (c == ',' && depth == 0) {
      types.push_back(current);
      current.clear();
    } else if (!(current.empty() && c == ' ')) {
      current += c;
    }
  }
  if (!current.empty() && current != "void")
    types.push_back(current);
  return types;
}

DType window_dtype(const LaunchRecord& record, std::size_t index) {
  const auto types = demangled_parameter_types(record.kernel);
  const MemoryWindow& w = record.memory[index].window;
  for (const auto& p : record.pointers) {
    if (p.offset_in_param != 0 || p.param >= types.size() || !is_pointer_type(types[p.param]) ||
        memory_index(record, p) != index)
      continue;
    const auto element = c_element(types[p.param]);
    if (!element)
      continue;
    const std::size_t size = dtype_size(*element);
    if (w.saved % size == 0 && (p.offset_in_allocation - w.offset) % size == 0)
      return *element;
  }
  return DType::u8;
}

HostBuffer as_buffer(const std::vector<std::byte>& bytes, DType dtype) {
  HostBuffer buffer(dtype, {bytes.size() / dtype_size(dtype)});
  std::memcpy(buffer.bytes().data(), bytes.data(), buffer.size_bytes());
  return buffer;
}

ordered_json replay_spec(const LaunchRecord& record) {
  const std::vector<kit::PtxParam> ptx = ptx_params(record);
  // A window passed whole by one pointer parameter, and reached by no other pointer, is that
  // parameter's buffer argument; every other window is a --memory buffer.
  std::vector<int> references(record.memory.size(), 0);
  for (const auto& p : record.pointers)
    if (const auto k = memory_index(record, p))
      ++references[*k];
  std::vector<bool> inline_buffer(record.memory.size(), false);
  ordered_json args = ordered_json::array();
  for (std::size_t i = 0; i < record.slots.size(); ++i) {
    const ParamSlot& slot = record.slots[i];
    const FoundPointer* only = nullptr;
    std::size_t in_param = 0;
    for (const auto& p : record.pointers)
      if (p.param == i) {
        ++in_param;
        only = &p;
      }
    if (in_param == 1 && slot.size == 8 && only->offset_in_param == 0) {
      const std::size_t k = memory_index(record, *only).value();
      if (references[k] == 1 && only->offset_in_allocation == record.memory[k].window.offset) {
        inline_buffer[k] = true;
        args.push_back(fmt::format("a{}={}", k, buffer_text(record, k)));
      } else {
        args.push_back(fmt::format("p{}={}", i, pointer_text(record, *only)));
      }
      continue;
    }
    if (in_param == 0 && i < ptx.size() && slot.offset + slot.size <= record.params.size())
      if (auto text = scalar_text(ptx[i], record.params.data() + slot.offset, slot.size)) {
        args.push_back(fmt::format("p{}={}", i, *text));
        continue;
      }
    args.push_back(fmt::format("p{}={}", i, record_text(record, i, slot)));
  }
  ordered_json memory = ordered_json::array();
  ordered_json expect = ordered_json::object();
  for (std::size_t k = 0; k < record.memory.size(); ++k) {
    if (!inline_buffer[k])
      memory.push_back(fmt::format("a{}={}", k, buffer_text(record, k)));
    expect[fmt::format("a{}", k)] = "@" + memory_file(k, "after");
  }
  std::string description = fmt::format("Launch {} of {}, captured on {} ({})", record.ordinal,
                                        record.kernel, record.device, record.arch);
  if (!record.incomplete.empty()) {
    description += "; incomplete:";
    for (const auto& why : record.incomplete)
      description += " " + why + ";";
    description.pop_back();
  }
  ordered_json spec{{"description", description}};
  if (record.image_kind != kit::ImageKind::unknown && !record.image.empty())
    spec["source"] = image_file_name(record.image_kind);
  spec["kernel"] = record.kernel;
  spec["grid"] = record.grid;
  spec["block"] = record.block;
  spec["shared_bytes"] = record.shared_bytes;
  spec["args"] = args;
  if (!memory.empty())
    spec["memory"] = memory;
  spec["expect"] = expect;
  spec["exact"] = true;
  spec["print"] = "none";
  return spec;
}

} // namespace gpurun::capture
