#include "pipeline/bind.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

std::string param_names(const KernelSignature& k) {
  std::string out;
  for (const auto& p : k.params)
    out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Byte-sized pointees are how C spells "raw memory": any buffer may be passed to them.
bool takes_any_buffer(const ParamType& t) {
  std::string base = t.c_type;
  if (base.starts_with("const "))
    base.erase(0, 6);
  while (base.ends_with('*'))
    base.pop_back();
  return base == "void" || base == "char" || base == "unsigned char" || base == "std::byte" ||
         base == "signed char" || !t.element.has_value() || t.pointer_or_integer;
}

void check_buffer(const KernelParam& p, const ArgSpec& a, const std::string& name) {
  const ParamType& t = p.type;
  if (!t.is_pointer && !t.pointer_or_integer) {
    throw usage_error(fmt::format("--arg {}: a buffer for parameter '{}', which takes a scalar "
                                  "(e.g. {}=20)",
                                  name, describe(p), p.name));
  }
  if (takes_any_buffer(t) || !a.dtype)
    return;
  if (*a.dtype != *t.element) {
    throw usage_error(fmt::format("--arg {}: {} buffer for parameter '{}'", name,
                                  dtype_name(*a.dtype), describe(p)));
  }
  if (t.vector_width > 1) {
    std::size_t count = 1;
    for (auto d : a.shape)
      count *= d;
    if (count % static_cast<std::size_t>(t.vector_width) != 0) {
      throw usage_error(fmt::format("--arg {}: {} elements for parameter '{}', which needs a "
                                    "multiple of {}",
                                    name, count, describe(p), t.vector_width));
    }
  }
}

// An OpenCL __local pointer takes a size of local memory and nothing else.
void check_local(const KernelParam& p, const ArgSpec& a, const std::string& name) {
  const bool given_local = a.kind == ArgSpec::Kind::local;
  if (p.type.local_memory && !given_local)
    throw usage_error(fmt::format("--arg {}: parameter '{}' takes a size of local memory, not {} "
                                  "(e.g. {}=local:1024 or {}=local:f32[256])",
                                  name, describe(p),
                                  a.kind == ArgSpec::Kind::buffer ? "a buffer" : "a value",
                                  p.name, p.name));
  if (given_local && !p.type.local_memory)
    throw usage_error(fmt::format("--arg {}: local memory (local:…) for parameter '{}'; only an "
                                  "OpenCL __local pointer parameter takes it",
                                  name, describe(p)));
}

// `&NAME+OFFSET` passes an address: to a pointer, or to a PTX .u64 that may be one.
void check_pointer(const KernelParam& p, const std::string& name) {
  const ParamType& t = p.type;
  if (t.is_pointer || t.pointer_or_integer)
    return;
  throw usage_error(fmt::format("--arg {}: a pointer (&…) for parameter '{}', which takes {}",
                                name, describe(p),
                                t.element ? "a number" : "a value of its own type"));
}

// A record passes the parameter's bytes: it must have the parameter's size where that is known.
void check_record(const KernelParam& p, const ArgSpec& a, const std::string& name) {
  const ParamType& t = p.type;
  const std::size_t size =
      t.is_pointer ? 8 : t.scalar_size * static_cast<std::size_t>(t.vector_width);
  if (size != 0 && a.record_size != size)
    throw usage_error(fmt::format("--arg {}: a record of {} bytes for parameter '{}' ({} bytes)",
                                  name, a.record_size, describe(p), size));
}

DType check_scalar(const KernelParam& p, const ArgSpec& a, const std::string& name) {
  const ParamType& t = p.type;
  if (t.is_pointer) {
    throw usage_error(fmt::format("--arg {}: a scalar for parameter '{}', which takes a buffer "
                                  "(e.g. {}=f32[N]:zeros)",
                                  name, describe(p), p.name));
  }
  if (t.vector_width > 1) {
    throw usage_error(fmt::format("--arg {}: parameter '{}' is a vector type; a scalar argument "
                                  "holds one number",
                                  name, describe(p)));
  }
  if (!a.dtype) {
    if (!t.element) {
      throw usage_error(fmt::format("--arg {}: parameter '{}' has a type gpurun cannot fill from "
                                    "a number; write the type (e.g. {}=i32:{})",
                                    name, describe(p), name, a.scalar_text));
    }
    return *t.element;
  }
  const DType given = *a.dtype;
  if (t.scalar_size != 0 && dtype_size(given) != t.scalar_size) {
    throw usage_error(fmt::format("--arg {}: {} scalar ({} bytes) for parameter '{}' ({} bytes)",
                                  name, dtype_name(given), dtype_size(given), describe(p),
                                  t.scalar_size));
  }
  if (t.element && is_float(given) != is_float(*t.element) && !t.pointer_or_integer) {
    throw usage_error(fmt::format("--arg {}: {} scalar for parameter '{}'", name, dtype_name(given),
                                  describe(p)));
  }
  return given;
}

// The parameter each argument binds to: by name when every argument is named, else by position.
std::vector<std::size_t> assign(const KernelSignature& k, const std::vector<ArgSpec>& args) {
  std::vector<std::size_t> order(args.size());
  const bool all_named =
      !args.empty() && !k.from_ptx &&
      std::all_of(args.begin(), args.end(), [](const ArgSpec& a) { return a.name.has_value(); });
  bool positional_ok = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    order[i] = i;
    if (args[i].name && *args[i].name != k.params[i].name)
      positional_ok = false;
  }
  if (k.from_ptx || positional_ok)
    return order;
  if (!all_named) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i].name && *args[i].name != k.params[i].name) {
        throw usage_error(fmt::format("--arg {}: argument {} binds to parameter '{}' of kernel {} "
                                      "(arguments are in parameter order unless all are named)",
                                      args[i].text, i + 1, describe(k.params[i]), k.name));
      }
    }
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& n = *args[i].name;
    auto it = std::find_if(k.params.begin(), k.params.end(),
                           [&](const KernelParam& p) { return p.name == n; });
    if (it == k.params.end()) {
      throw usage_error(fmt::format("--arg {}: kernel {} has no parameter '{}' (parameters: {})",
                                    args[i].text, k.name, n, param_names(k)));
    }
    if (!seen.insert(n).second) {
      throw usage_error(fmt::format("--arg {}: parameter '{}' is given twice", args[i].text, n));
    }
    order[i] = static_cast<std::size_t>(it - k.params.begin());
  }
  return order;
}

} // namespace

std::vector<BoundArg> bind_args(const KernelSignature& kernel, const std::vector<ArgSpec>& args) {
  if (args.size() != kernel.params.size()) {
    std::string names = param_names(kernel);
    throw usage_error(fmt::format("kernel {} takes {}{}; got {}", kernel.name,
                                  plural(kernel.params.size(), "argument"),
                                  names.empty() ? "" : " (" + names + ")", args.size()));
  }
  const std::vector<std::size_t> order = assign(kernel, args);
  std::vector<BoundArg> bound(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelParam& p = kernel.params[order[i]];
    BoundArg& b = bound[order[i]];
    b.index = order[i];
    b.param = &p;
    b.spec = args[i];
    b.name = args[i].name.value_or(p.name);
    check_local(p, args[i], b.name);
    if (args[i].kind == ArgSpec::Kind::local) {
      // checked: a size for a __local pointer
    } else if (args[i].kind == ArgSpec::Kind::buffer) {
      check_buffer(p, args[i], b.name);
      b.is_input = p.type.is_pointer && p.type.is_const;
    } else if (args[i].kind == ArgSpec::Kind::pointer) {
      check_pointer(p, b.name);
    } else if (args[i].kind == ArgSpec::Kind::record) {
      check_record(p, args[i], b.name);
    } else {
      b.scalar_type = check_scalar(p, args[i], b.name);
      b.scalar_bytes = encode_scalar(*b.scalar_type, args[i].scalar_text, "--arg " + b.name);
    }
  }
  return bound;
}

} // namespace gpurun
