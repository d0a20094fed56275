#include "backends/cpu/module.hpp"
#include "backends/cpu/emu/contract.hpp"

#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/emu/decode.hpp"
#include "backends/cpu/ptx/parser.hpp"
#include "base/detail/sha256.hpp"
#include "base/error.hpp"
#include "base/suggest.hpp"

namespace gpurun::cpu {

CpuFunction::CpuFunction(const emu::Program& program, const ptx::Module& parsed,
                         std::uint32_t index, const std::string& module_id)
    : m_program(program), m_index(index),
      m_native([&program, &parsed, index] { return native::translate_kernel(program, parsed, index); },
               fmt::format("{} {}", module_id, index)) {
  const auto& f = decoded();
  m_name = f.name;
  for (std::size_t i = 0; i < f.kernel_params.size(); ++i)
    m_params.push_back(
        ParamLayout{f.kernel_params[i].offset, f.kernel_params[i].size, f.kernel_param_align[i], {}});
  m_attributes.registers = static_cast<int>(f.reg_end - f.reg_begin + f.pred_end - f.pred_begin);
  m_attributes.static_shared_bytes = program.static_shared_bytes;
  m_attributes.local_bytes = program.local_bytes_per_thread;
  std::size_t const_bytes = 0;
  for (const auto& v : program.variables)
    if (v.is_const)
      const_bytes += v.size;
  m_attributes.const_bytes = const_bytes;
  m_attributes.max_threads_per_block = f.max_threads ? static_cast<int>(f.max_threads) : 1024;
}

const emu::DecodedFunction& CpuFunction::decoded() const noexcept {
  return m_program.functions[m_index];
}

CpuModule::CpuModule(const std::string& ptx, std::shared_ptr<emu::DeviceMemory> memory,
                     bool checked)
    : m_memory(std::move(memory)) {
  m_parsed = std::make_unique<ptx::Module>(ptx::parse_module(ptx, "kernel.ptx"));
  emu::contract_multiply_adds(*m_parsed);
  m_program = std::make_unique<emu::Program>(emu::decode(*m_parsed));
  emu::Program& p = *m_program;
  if (checked)
    emu::use_checked_memory_handlers(p);

  for (const auto& v : p.variables) {
    std::uint64_t address = m_memory->allocate(v.size, v.name);
    m_globals[v.name] = GlobalSymbol{address, v.size};
    if (!v.init.empty())
      std::memcpy(m_memory->host(address, v.init.size()), v.init.data(), v.init.size());
  }
  auto address_of = [&](const std::string& name) -> std::uint64_t {
    auto it = m_globals.find(name);
    if (it == m_globals.end())
      throw Error(ExitCode::compile, fmt::format("PTX refers to unknown variable '{}'", name));
    return it->second.address;
  };
  // Initialisers holding addresses of other variables ({generic($str)} tables).
  for (const auto& v : p.variables)
    for (const auto& [offset, symbol] : v.init_symbols) {
      std::uint64_t target = address_of(symbol);
      std::memcpy(m_memory->host(m_globals[v.name].address + offset, 8), &target, 8);
    }
  for (const auto& [slot, name] : p.symbol_slots)
    p.constants.emplace_back(slot, address_of(name));
  for (const auto& [inst, name] : p.address_patches)
    p.code[inst].imm += static_cast<std::int64_t>(address_of(name));

  detail::Sha256 id;
  id.update(ptx);
  id.update(checked ? "\nchecked\n" : "\n");
  for (const auto& [name, symbol] : m_globals)
    id.update(fmt::format("{} {:#x}\n", name, symbol.address));
  const std::string module_id = id.finish_hex();
  for (std::uint32_t i = 0; i < p.functions.size(); ++i)
    if (p.functions[i].is_entry)
      m_functions[p.functions[i].name] = std::make_unique<CpuFunction>(p, *m_parsed, i, module_id);
}

CpuModule::~CpuModule() {
  for (const auto& [name, symbol] : m_globals)
    m_memory->release(symbol.address);
}

Function& CpuModule::function(const std::string& name) {
  auto it = m_functions.find(name);
  if (it == m_functions.end()) {
    std::vector<std::string> known;
    for (const auto& [n, f] : m_functions)
      known.push_back(n);
    throw usage_error(fmt::format(
        "kernel '{}' not found in the module{} (kernels: {})", name, did_you_mean(name, known),
        known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
  }
  return *it->second;
}

std::vector<std::string> CpuModule::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& [n, f] : m_functions)
    names.push_back(n);
  return names;
}

std::optional<GlobalSymbol> CpuModule::global(const std::string& name) {
  auto it = m_globals.find(name);
  if (it == m_globals.end())
    return std::nullopt;
  return it->second;
}

} // namespace gpurun::cpu
