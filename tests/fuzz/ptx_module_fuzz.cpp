// The CPU emulator's PTX front end: text → ptx::Module (backends/cpu/ptx) → mul/add contraction
// (emu/contract) → the decoded Program (emu/decode), as loading a module on the CPU backend does.
// Nothing is executed.
#include <cstddef>
#include <cstdint>

#include "backends/cpu/emu/contract.hpp"
#include "backends/cpu/emu/decode.hpp"
#include "backends/cpu/ptx/parser.hpp"
#include "base/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  try {
    ptx::Module module = ptx::parse_module(fuzz::as_text(data, size), "fuzz.ptx");
    (void)emu::contract_multiply_adds(module);
    (void)emu::decode(module);
  } catch (const Error&) {
  }
  return 0;
}
