#include "backends/cpu/ptx/dump.hpp"

#include <fmt/format.h>

#include "backends/kit/ptx_entries.hpp"

namespace gpurun::ptx {
namespace {

std::string_view space_name(StateSpace s) {
  switch (s) {
  case StateSpace::reg:
    return ".reg";
  case StateSpace::sreg:
    return ".sreg";
  case StateSpace::global:
    return ".global";
  case StateSpace::shared:
    return ".shared";
  case StateSpace::local:
    return ".local";
  case StateSpace::const_:
    return ".const";
  case StateSpace::param:
    return ".param";
  case StateSpace::generic:
    return "";
  }
  return "";
}

std::uint64_t load_le(const std::vector<std::uint8_t>& bytes, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n && at + i < bytes.size(); ++i) {
    v |= static_cast<std::uint64_t>(bytes[at + i]) << (8 * i);
  }
  return v;
}

std::string initializer(const Variable& v) {
  const std::size_t element = kit::ptx_type_size(v.type);
  if (element == 0 || v.init.empty()) {
    return "";
  }
  std::string out = v.array_size ? " = {" : " = ";
  std::size_t symbol = 0;
  for (std::size_t at = 0; at < v.init.size(); at += element) {
    if (at != 0) {
      out += ", ";
    }
    const std::uint64_t bits = load_le(v.init, at, element);
    if (symbol < v.init_symbols.size() && v.init_symbols[symbol].first == at) {
      out += fmt::format("generic({})", v.init_symbols[symbol].second);
      if (bits != 0) {
        out += fmt::format("+{}", static_cast<std::int64_t>(bits));
      }
      ++symbol;
    } else if (v.type == "f32") {
      out += fmt::format("0f{:08X}", bits);
    } else if (v.type == "f64") {
      out += fmt::format("0d{:016X}", bits);
    } else {
      out += fmt::format("{}", bits);
    }
  }
  return v.array_size ? out + "}" : out;
}

std::string variable(const Variable& v) {
  std::string out;
  if (v.is_extern) {
    out += ".extern ";
  }
  out += space_name(v.space);
  if (v.align != 0) {
    out += fmt::format(" .align {}", v.align);
  }
  if (v.vector_width > 1) {
    out += fmt::format(" .v{}", v.vector_width);
  }
  out += fmt::format(" .{}", v.type);
  if (v.is_ptr) {
    out += " .ptr";
  }
  out += " " + v.name;
  if (v.array_size) {
    out += *v.array_size == 0 ? "[]" : fmt::format("[{}]", *v.array_size);
  }
  return out + initializer(v);
}

std::string param_list(const std::vector<Variable>& params) {
  std::string out = "(";
  for (std::size_t i = 0; i < params.size(); ++i) {
    out += (i == 0 ? "\n\t" : ",\n\t") + variable(params[i]);
  }
  return out + (params.empty() ? ")" : "\n)");
}

} // namespace

std::string dump(const Operand& o) {
  using Kind = Operand::Kind;
  switch (o.kind) {
  case Kind::reg:
    return (o.negated ? "!" : "") + o.name;
  case Kind::special:
  case Kind::symbol:
    return o.name;
  case Kind::imm_int:
    return fmt::format("{}", static_cast<std::int64_t>(o.bits));
  case Kind::imm_f32:
    return fmt::format("0f{:08X}", o.bits);
  case Kind::imm_f64:
    return fmt::format("0d{:016X}", o.bits);
  case Kind::address:
    if (o.name.empty()) {
      return fmt::format("[{}]", o.offset);
    }
    return o.offset == 0 ? fmt::format("[{}]", o.name) : fmt::format("[{}+{}]", o.name, o.offset);
  case Kind::vector: {
    std::string out = "{";
    for (std::size_t i = 0; i < o.elements.size(); ++i) {
      out += (i == 0 ? "" : ", ") + dump(o.elements[i]);
    }
    return out + "}";
  }
  case Kind::pred_pair:
    return dump(o.elements.at(0)) + "|" + dump(o.elements.at(1));
  case Kind::sink:
    return "_";
  }
  return "?";
}

std::string dump(const Instruction& in) {
  std::string out;
  if (!in.guard.empty()) {
    out += fmt::format("@{}{} ", in.guard_negated ? "!" : "", in.guard);
  }
  out += in.opcode;
  for (const std::string& m : in.modifiers) {
    out += "." + m;
  }
  if (in.opcode == "call" && in.operands.size() >= 3) {
    // A call's lists print in parentheses, and an empty return list is left out.
    auto list = [](const Operand& o) {
      std::string s = "(";
      for (std::size_t i = 0; i < o.elements.size(); ++i) {
        s += (i == 0 ? "" : ", ") + dump(o.elements[i]);
      }
      return s + ")";
    };
    out += " ";
    if (!in.operands[0].elements.empty()) {
      out += list(in.operands[0]) + ", ";
    }
    out += dump(in.operands[1]);
    if (!in.operands[2].elements.empty() || in.operands.size() > 3) {
      out += ", " + list(in.operands[2]);
    }
    if (in.operands.size() > 3) {
      out += ", " + dump(in.operands[3]);
    }
    return out + ";";
  }
  for (std::size_t i = 0; i < in.operands.size(); ++i) {
    out += (i == 0 ? " " : ", ") + dump(in.operands[i]);
  }
  return out + ";";
}

std::string dump(const Function& f) {
  std::string out;
  if (!f.linkage.empty()) {
    out += "." + f.linkage + " ";
  }
  out += f.is_entry ? ".entry " : ".func ";
  if (!f.returns.empty()) {
    out += param_list(f.returns) + " ";
  }
  out += f.name + param_list(f.params) + "\n";
  for (int d = 0; d < 3 && f.maxntid[0]; ++d) {
    out += (d == 0 ? ".maxntid " : ", ") + std::to_string(f.maxntid[d].value_or(1));
  }
  out += f.maxntid[0] ? "\n" : "";
  for (int d = 0; d < 3 && f.reqntid[0]; ++d) {
    out += (d == 0 ? ".reqntid " : ", ") + std::to_string(f.reqntid[d].value_or(1));
  }
  out += f.reqntid[0] ? "\n" : "";
  if (f.minnctapersm) {
    out += fmt::format(".minnctapersm {}\n", *f.minnctapersm);
  }
  if (f.maxnreg) {
    out += fmt::format(".maxnreg {}\n", *f.maxnreg);
  }
  if (f.noreturn) {
    out += ".noreturn\n";
  }
  if (!f.has_body) {
    return out + ";\n";
  }
  out += "{\n";
  for (const RegisterDecl& r : f.registers) {
    out += r.count == 0 ? fmt::format("\t.reg .{} {};\n", r.type, r.name)
                        : fmt::format("\t.reg .{} {}<{}>;\n", r.type, r.name, r.count);
  }
  for (const Variable& v : f.locals) {
    out += "\t" + variable(v) + ";\n";
  }
  std::pair<int, int> loc{0, 0};
  for (const Statement& s : f.body) {
    if (s.label) {
      out += s.label->name + ":\n";
      continue;
    }
    const Instruction& in = *s.instruction;
    if (in.source_file != 0 && std::pair{in.source_file, in.source_line} != loc) {
      loc = {in.source_file, in.source_line};
      out += fmt::format("\t.loc {} {} 0\n", loc.first, loc.second);
    }
    out += "\t" + dump(in) + "\n";
  }
  return out + "}\n";
}

std::string dump(const Module& m) {
  std::string out;
  if (!m.version.empty()) {
    out += ".version " + m.version + "\n";
  }
  if (!m.target.empty()) {
    out += ".target " + m.target + "\n";
  }
  out += fmt::format(".address_size {}\n\n", m.address_size);
  for (const Variable& v : m.globals) {
    out += variable(v) + ";\n";
  }
  for (const Function& f : m.functions) {
    out += "\n" + dump(f);
  }
  for (const auto& [index, path] : m.files) {
    out += fmt::format(".file {} \"{}\"\n", index, path);
  }
  return out;
}

} // namespace gpurun::ptx
