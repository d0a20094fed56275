#include "backends/kit/kernel_arguments.hpp"

#include <fmt/format.h>

namespace gpurun::kit {

KernelArguments::KernelArguments(const ArgPack& args) {
  m_values.reserve(args.values.size());
  for (std::size_t i = 0; i < args.values.size(); ++i)
    m_values.push_back(args.address_form(i));
  m_pointers.reserve(m_values.size());
  for (auto& value : m_values)
    m_pointers.push_back(value.data());
}

void KernelArguments::check(std::string_view kernel, std::span<const ParamLayout> params,
                            ZeroSizeParam zero_size) const {
  if (params.size() != m_values.size())
    throw usage_error(fmt::format("kernel '{}' takes {} parameters, {} given", kernel,
                                  params.size(), m_values.size()));
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].size == 0 && zero_size == ZeroSizeParam::any_argument)
      continue;
    if (params[i].size != m_values[i].size())
      throw usage_error(fmt::format("kernel '{}' parameter {}: {} bytes expected, {} given", kernel,
                                    i, params[i].size, m_values[i].size()));
  }
}

} // namespace gpurun::kit
