#pragma once
// A PTX module loaded into a CPU context: the decoded program with its module variables
// allocated in the context's device memory.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cpu/emu/memory.hpp"
#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/native/kernel_state.hpp"
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::cpu {

class CpuFunction final : public Function {
public:
  /// `parsed` is the PTX `program` was decoded from (the compiled engine translates it).
  /// `module_id` names the module's PTX and the addresses its variables got (the translation
  /// holds them), for the compiled engine's cache index.
  CpuFunction(const emu::Program& program, const ptx::Module& parsed, std::uint32_t index,
              const std::string& module_id);
  [[nodiscard]] const std::string& name() const override { return m_name; }
  [[nodiscard]] const std::vector<ParamLayout>& params() const override { return m_params; }
  [[nodiscard]] FunctionAttributes attributes() const override { return m_attributes; }
  [[nodiscard]] const emu::Program& program() const noexcept { return m_program; }
  [[nodiscard]] const emu::DecodedFunction& decoded() const noexcept;
  /// The compiled engine's state for this kernel.
  [[nodiscard]] native::KernelState& native() noexcept { return m_native; }

private:
  const emu::Program& m_program;
  std::uint32_t m_index;
  std::string m_name;
  std::vector<ParamLayout> m_params;
  FunctionAttributes m_attributes;
  native::KernelState m_native;
};

class CpuModule final : public Module {
public:
  /// Parses and decodes `ptx`, then allocates and initialises its .global/.const variables.
  /// `checked`: loads and stores call the sanitizer hooks (memcheck, racecheck, initcheck).
  CpuModule(const std::string& ptx, std::shared_ptr<emu::DeviceMemory> memory, bool checked);
  ~CpuModule() override;
  [[nodiscard]] Function& function(const std::string& name) override;
  [[nodiscard]] std::vector<std::string> kernel_names() const override;
  [[nodiscard]] std::optional<GlobalSymbol> global(const std::string& name) override;

private:
  std::shared_ptr<emu::DeviceMemory> m_memory;
  std::unique_ptr<ptx::Module> m_parsed;
  std::unique_ptr<emu::Program> m_program;
  std::map<std::string, GlobalSymbol> m_globals;
  std::map<std::string, std::unique_ptr<CpuFunction>> m_functions;
};

} // namespace gpurun::cpu
