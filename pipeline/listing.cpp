#include "pipeline/listing.hpp"

#include "backends/compilers/source_launches.hpp"
#include "pipeline/language.hpp"

namespace gpurun {
namespace {

// "ns::k<float>" → "ns::k"; "k" → "k".
std::string without_arguments(const std::string& expression) {
  std::string s = expression.substr(0, expression.find('<'));
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
  return s;
}

bool names(const KernelSignature& kernel, const std::string& launched) {
  const std::string base = without_arguments(launched);
  return kernel.name == base || kernel.name.ends_with("::" + base) ||
         base.ends_with("::" + kernel.name);
}

} // namespace

FileListing list_file(const std::filesystem::path& file) {
  const KernelSource source = load_kernel_source(file);
  FileListing listing;
  listing.file = file;
  const bool ptx = source.language == Language::ptx;
  const bool opencl = source.language == Language::opencl;
  auto kernels = ptx      ? find_module_kernels(source)
                 : opencl ? find_opencl_kernels(source.text)
                          : find_kernels(source.text);
  for (auto& k : kernels)
    listing.kernels.push_back({std::move(k), {}});
  if (ptx || opencl) // an OpenCL C file has no host code to launch from
    return listing;
  for (const auto& l : compilers::scan::find_launches(source.text)) {
    for (auto& k : listing.kernels) {
      if (!names(k.signature, l.kernel))
        continue;
      KernelLaunchSite site;
      site.expression = l.kernel;
      site.caller = l.caller;
      site.grid = l.config.size() > 0 ? l.config[0] : "";
      site.block = l.config.size() > 1 ? l.config[1] : "";
      site.shared = l.config.size() > 2 ? l.config[2] : "";
      site.stream = l.config.size() > 3 ? l.config[3] : "";
      site.arguments = l.arguments;
      site.line = l.line;
      k.launches.push_back(std::move(site));
      break;
    }
  }
  return listing;
}

} // namespace gpurun
