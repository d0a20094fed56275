#include "backends/kit/amdgpu_code_object.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backends/kit/byte_reader.hpp"

namespace gpurun::kit {
namespace {

constexpr std::uint16_t k_em_amdgpu = 224;
constexpr std::uint32_t k_sht_note = 7;
constexpr std::uint32_t k_pt_note = 4;
constexpr std::uint32_t k_nt_amdgpu_metadata = 32;
constexpr std::string_view k_bundle_magic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view k_compressed_bundle_magic = "CCOB";

using Reader = ByteReader<CodeObjectError>;

bool starts_with(std::span<const std::byte> bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

std::uint64_t align4(std::uint64_t n) {
  return (n + 3) & ~std::uint64_t{3};
}

// The amdgcn code object inside a clang offload bundle (hipcc --genco, some hipRTC builds).
std::span<const std::byte> unbundle(std::span<const std::byte> bytes) {
  const Reader r(bytes);
  const auto count = r.read<std::uint64_t>(k_bundle_magic.size(), "offload bundle entry count");
  std::uint64_t at = k_bundle_magic.size() + 8;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto offset = r.read<std::uint64_t>(at, "offload bundle entry offset");
    const auto size = r.read<std::uint64_t>(at + 8, "offload bundle entry size");
    const auto triple_size = r.read<std::uint64_t>(at + 16, "offload bundle triple size");
    const auto triple_bytes = r.slice(at + 24, triple_size, "offload bundle triple");
    const std::string_view triple(reinterpret_cast<const char*>(triple_bytes.data()),
                                  triple_bytes.size());
    if (size != 0 && triple.find("amdgcn") != std::string_view::npos)
      return r.slice(offset, size, "offload bundle entry");
    at += 24 + triple_size;
  }
  throw CodeObjectError("the offload bundle has no amdgcn code object");
}

// Every note of the ELF's note sections (or, without section headers, its note segments) whose
// owner is "AMDGPU" and type NT_AMDGPU_METADATA.
std::span<const std::byte> metadata_note(const Reader& elf) {
  struct Range {
    std::uint64_t offset, size;
  };
  std::vector<Range> ranges;
  const auto shoff = elf.read<std::uint64_t>(0x28, "section header offset");
  const auto shentsize = elf.read<std::uint16_t>(0x3a, "section header size");
  const auto shnum = elf.read<std::uint16_t>(0x3c, "section count");
  if (shoff != 0 && shnum != 0) {
    if (shentsize < 64)
      throw CodeObjectError(fmt::format("section headers of {} bytes (64 expected)", shentsize));
    (void)elf.slice(shoff, std::uint64_t{shnum} * shentsize, "the section header table");
    for (std::uint64_t i = 0; i < shnum; ++i) {
      const std::uint64_t at = shoff + i * shentsize;
      if (elf.read<std::uint32_t>(at + 4, "section type") == k_sht_note)
        ranges.push_back({elf.read<std::uint64_t>(at + 24, "section offset"),
                          elf.read<std::uint64_t>(at + 32, "section size")});
    }
  } else {
    const auto phoff = elf.read<std::uint64_t>(0x20, "program header offset");
    const auto phentsize = elf.read<std::uint16_t>(0x36, "program header size");
    const auto phnum = elf.read<std::uint16_t>(0x38, "program header count");
    if (phnum != 0 && phentsize < 56)
      throw CodeObjectError(fmt::format("program headers of {} bytes (56 expected)", phentsize));
    (void)elf.slice(phoff, std::uint64_t{phnum} * phentsize, "the program header table");
    for (std::uint64_t i = 0; i < phnum; ++i) {
      const std::uint64_t at = phoff + i * phentsize;
      if (elf.read<std::uint32_t>(at, "segment type") == k_pt_note)
        ranges.push_back({elf.read<std::uint64_t>(at + 8, "segment offset"),
                          elf.read<std::uint64_t>(at + 32, "segment size")});
    }
  }
  for (const auto& range : ranges) {
    const Reader notes(elf.slice(range.offset, range.size, "note section"));
    std::uint64_t at = 0;
    while (at + 12 <= notes.size()) {
      const auto namesz = notes.read<std::uint32_t>(at, "note name size");
      const auto descsz = notes.read<std::uint32_t>(at + 4, "note size");
      const auto type = notes.read<std::uint32_t>(at + 8, "note type");
      const auto name = notes.slice(at + 12, namesz, "note name");
      const std::uint64_t desc_at = at + 12 + align4(namesz);
      const auto desc = notes.slice(desc_at, descsz, "note description");
      if (type == k_nt_amdgpu_metadata && namesz >= 6 && starts_with(name, "AMDGPU"))
        return desc;
      at = desc_at + align4(descsz);
    }
  }
  throw CodeObjectError("no AMDGPU metadata note (code object v3 or later expected; v2 keeps its "
                        "metadata as YAML, which gpurun does not read)");
}

using json = nlohmann::json;

// nlohmann's MessagePack reader recurses once per level of nesting, so a note nested deeply
// enough would overflow the stack; the DOM is built through this SAX, which stops at a depth no
// real metadata comes near (it has four levels).
constexpr int k_max_metadata_depth = 32;

class DepthLimitedSax {
public:
  explicit DepthLimitedSax(json& out) : m_dom(out, true) {}
  bool null() { return m_dom.null(); }
  bool boolean(bool v) { return m_dom.boolean(v); }
  bool number_integer(json::number_integer_t v) { return m_dom.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return m_dom.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return m_dom.number_float(v, s);
  }
  bool string(json::string_t& v) { return m_dom.string(v); }
  bool binary(json::binary_t& v) { return m_dom.binary(v); }
  bool start_object(std::size_t n) { return enter() && m_dom.start_object(n); }
  bool key(json::string_t& k) { return m_dom.key(k); }
  bool end_object() {
    --m_depth;
    return m_dom.end_object();
  }
  bool start_array(std::size_t n) { return enter() && m_dom.start_array(n); }
  bool end_array() {
    --m_depth;
    return m_dom.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return m_dom.parse_error(position, token, e);
  }
  [[nodiscard]] bool too_deep() const { return m_too_deep; }

private:
  bool enter() {
    m_too_deep = ++m_depth > k_max_metadata_depth;
    return !m_too_deep;
  }
  nlohmann::detail::json_sax_dom_parser<json> m_dom;
  int m_depth = 0;
  bool m_too_deep = false;
};

template <class T> T number(const json& map, const char* key, T fallback) {
  const auto it = map.find(key);
  if (it == map.end())
    return fallback;
  if (!it->is_number_integer() && !it->is_number_unsigned())
    throw CodeObjectError(fmt::format("metadata field {} is not an integer", key));
  return it->get<T>();
}

std::string text(const json& map, const char* key) {
  const auto it = map.find(key);
  if (it == map.end())
    return {};
  if (!it->is_string())
    throw CodeObjectError(fmt::format("metadata field {} is not a string", key));
  return it->get<std::string>();
}

AmdgpuKernel kernel_from(const json& k) {
  if (!k.is_object())
    throw CodeObjectError("a kernel entry of amdhsa.kernels is not a map");
  AmdgpuKernel out;
  out.name = text(k, ".name");
  out.symbol = text(k, ".symbol");
  if (out.name.empty())
    throw CodeObjectError("a kernel entry of amdhsa.kernels has no .name");
  out.vgprs = number(k, ".vgpr_count", -1);
  out.sgprs = number(k, ".sgpr_count", -1);
  out.agprs = number(k, ".agpr_count", -1);
  out.vgpr_spills = number(k, ".vgpr_spill_count", 0);
  out.sgpr_spills = number(k, ".sgpr_spill_count", 0);
  out.lds_bytes = number<std::size_t>(k, ".group_segment_fixed_size", 0);
  out.scratch_bytes = number<std::size_t>(k, ".private_segment_fixed_size", 0);
  out.kernarg_bytes = number<std::size_t>(k, ".kernarg_segment_size", 0);
  out.max_flat_workgroup_size = number(k, ".max_flat_workgroup_size", 0);
  out.wavefront_size = number(k, ".wavefront_size", 0);
  if (const auto it = k.find(".uses_dynamic_stack"); it != k.end() && it->is_boolean())
    out.dynamic_stack = it->get<bool>();
  if (const auto args = k.find(".args"); args != k.end()) {
    if (!args->is_array())
      throw CodeObjectError(fmt::format("kernel {}: .args is not an array", out.name));
    for (const auto& a : *args) {
      if (!a.is_object())
        throw CodeObjectError(fmt::format("kernel {}: an argument is not a map", out.name));
      out.args.push_back(AmdgpuKernelArg{
          text(a, ".name"), text(a, ".type_name"), text(a, ".value_kind"),
          number<std::size_t>(a, ".offset", 0), number<std::size_t>(a, ".size", 0)});
    }
  }
  return out;
}

} // namespace

std::string amdgpu_processor(const std::string& target) {
  std::string p = target;
  if (const auto dashes = p.rfind("--"); dashes != std::string::npos)
    p = p.substr(dashes + 2);
  if (const auto colon = p.find(':'); colon != std::string::npos)
    p = p.substr(0, colon);
  return p;
}

std::string AmdgpuCodeObject::processor() const {
  return amdgpu_processor(target);
}

bool looks_like_code_object(std::span<const std::byte> bytes) {
  return starts_with(bytes, "\x7f"
                            "ELF") ||
         starts_with(bytes, k_bundle_magic);
}

AmdgpuCodeObject read_amdgpu_code_object(std::span<const std::byte> bytes) {
  if (starts_with(bytes, k_compressed_bundle_magic))
    throw CodeObjectError("a compressed offload bundle (CCOB): gpurun reads uncompressed ones");
  if (starts_with(bytes, k_bundle_magic))
    bytes = unbundle(bytes);
  if (!starts_with(bytes, "\x7f"
                          "ELF"))
    throw CodeObjectError("not an ELF file");
  const Reader elf(bytes);
  if (elf.read<std::uint8_t>(4, "ELF class") != 2 || elf.read<std::uint8_t>(5, "ELF data") != 1)
    throw CodeObjectError("not a 64-bit little-endian ELF file");
  if (const auto machine = elf.read<std::uint16_t>(18, "ELF machine"); machine != k_em_amdgpu)
    throw CodeObjectError(fmt::format(
        "ELF machine {} is not AMDGPU ({}): not an AMD GPU code object", machine, k_em_amdgpu));
  const auto note = metadata_note(elf);
  json metadata;
  DepthLimitedSax sax(metadata);
  bool parsed = false;
  try {
    parsed = json::sax_parse(note.begin(), note.end(), &sax, json::input_format_t::msgpack);
  } catch (const json::exception& e) {
    throw CodeObjectError(fmt::format("the metadata note is not valid MessagePack: {}", e.what()));
  }
  if (sax.too_deep())
    throw CodeObjectError(
        fmt::format("the metadata note nests deeper than {} levels", k_max_metadata_depth));
  if (!parsed)
    throw CodeObjectError("the metadata note is not valid MessagePack");
  if (!metadata.is_object())
    throw CodeObjectError("the metadata note is not a map");
  AmdgpuCodeObject out;
  out.target = text(metadata, "amdhsa.target");
  if (const auto kernels = metadata.find("amdhsa.kernels"); kernels != metadata.end()) {
    if (!kernels->is_array())
      throw CodeObjectError("amdhsa.kernels is not an array");
    for (const auto& k : *kernels)
      out.kernels.push_back(kernel_from(k));
  }
  return out;
}

} // namespace gpurun::kit
