#!/usr/bin/env python3
"""Translate one PTX kernel into C++ whose loops over a block's threads clang vectorizes.

A prototype that measures what a compiled path would give the CPU backend; it handles the PTX
subset of the emulator micro-benchmark kernels (bench/micro/emulator_bench.cpp) and refuses
anything else with the instruction and its line.

The kernel's basic blocks are grouped into regions. A region starts at the entry, at every
bar.sync and at every target of a backward branch; it holds the blocks reachable from its start
without crossing another start, so its control flow is acyclic. Each region becomes one loop over
the block's threads (tid.z, tid.y, then tid.x innermost, as PoCL's work-group loops) whose body is
the region's code for one thread with forward gotos; clang if-converts it and vectorizes the
tid.x loop (masked loads and stores for divergent paths). A thread leaving a region records the
region it waits at in `at[]`; the block then runs the lowest region any thread waits at, for
those threads only (the emulator's lowest-PC rule, block-wide), so a barrier is every thread
having reached the region that starts there. Registers used in more than one region, or read in
a region before it writes them, live in per-thread arrays, unless the region can recompute them
from thread and block indices, parameters and constants (find_rematerializable); the rest are
the loop body's locals. 64-bit registers that hold addresses become pointers (find_pointers).
Both keep addresses visible to clang as base + tid.x * stride, which it vectorizes into plain
vector loads and stores instead of gathers and scatters.

Usage: ptx2cpp.py KERNEL.ptx KERNEL_NAME > KERNEL.cpp
The result exports
  extern "C" void gpurun_compiled_grid(const void* const* args, const unsigned grid[3],
                                       const unsigned block[3], unsigned dynamic_shared);
which runs every block of the grid on the calling thread; args[i] points at parameter i's value.
"""
import re
import sys

EXIT = 255


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------- parsing

class Instr:
    def __init__(self, line_no, guard, neg, op, operands):
        self.line = line_no
        self.guard = guard  # predicate register or None
        self.neg = neg  # @!p
        self.op = op  # e.g. "ld.global.nc.f32"
        self.parts = op.split(".")
        self.operands = operands

    def __repr__(self):
        return f"{self.op} {', '.join(self.operands)} (line {self.line})"


class Kernel:
    def __init__(self, name):
        self.name = name
        self.params = []  # (name, type)
        self.reg_types = {}  # register name -> type suffix (b32, f32, pred, ...)
        self.shared = []  # (name, align, size or None for extern)
        self.body = []  # Instr or ("label", name)


def split_operands(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(ptx_text, kernel_name):
    text = re.sub(r"//[^\n]*", "", ptx_text)
    lines = text.split("\n")
    extern_shared = []
    kernel = None
    depth = 0
    in_header = False
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if kernel is None:
            m = re.match(r"\.extern\s+\.shared\s+\.align\s+(\d+)\s+\.b8\s+(\w+)\[\];", line)
            if m:
                extern_shared.append((m.group(2), int(m.group(1)), None))
                continue
            m = re.match(r"(\.(visible|weak)\s+)?\.entry\s+(\w+)\s*\(", line)
            if m and m.group(3) == kernel_name:
                kernel = Kernel(kernel_name)
                kernel.shared.extend(extern_shared)
                in_header = True
            continue
        if in_header:
            m = re.match(r"\.param\s+\.(\w+)\s+(\w+)", line)
            if m:
                kernel.params.append((m.group(2), m.group(1)))
                continue
            if line.startswith("{"):
                in_header = False
                depth = 1
            continue
        if line.startswith("}"):
            depth -= 1
            if depth == 0:
                return kernel
            raise Unsupported(f"line {no}: nested scopes")
        if line.startswith("{"):
            raise Unsupported(f"line {no}: nested scopes")
        if line.startswith((".loc", ".file", ".pragma")):
            continue
        m = re.match(r"\.reg\s+\.(\w+)\s+%(\w+)<(\d+)>;", line)
        if m:
            for i in range(int(m.group(3))):
                kernel.reg_types[f"%{m.group(2)}{i}"] = m.group(1)
            continue
        m = re.match(r"\.reg\s+\.(\w+)\s+(%\w+);", line)
        if m:
            kernel.reg_types[m.group(2)] = m.group(1)
            continue
        m = re.match(r"\.shared\s+\.align\s+(\d+)\s+\.b8\s+(\w+)\[(\d+)\];", line)
        if m:
            kernel.shared.append((m.group(2), int(m.group(1)), int(m.group(3))))
            continue
        m = re.match(r"([$\w]+):$", line)
        if m:
            kernel.body.append(("label", m.group(1)))
            continue
        if line.startswith("."):
            raise Unsupported(f"line {no}: directive {line.split()[0]}")
        m = re.match(r"(@(!?)(%\w+)\s+)?([\w.]+)\s*(.*?);$", line)
        if not m:
            raise Unsupported(f"line {no}: cannot read '{line}'")
        guard = m.group(3)
        kernel.body.append(Instr(no, guard, m.group(2) == "!", m.group(4),
                                 split_operands(m.group(5))))
    raise Unsupported(f"kernel {kernel_name} not found")


# ---------------------------------------------------------------- control flow

class Block:
    def __init__(self, index, label):
        self.index = index
        self.label = label
        self.instrs = []
        self.succs = []  # block indices
        self.barrier = False  # starts with bar.sync


def basic_blocks(kernel):
    """Split at labels, after branches and ret, and before bar.sync (which starts a block)."""
    blocks = [Block(0, None)]
    for item in kernel.body:
        cur = blocks[-1]
        if isinstance(item, tuple):
            if cur.instrs or cur.label is not None or cur.barrier:
                blocks.append(Block(len(blocks), item[1]))
            else:
                cur.label = item[1]
            continue
        if item.op == "bar.sync":
            if item.guard or item.operands != ["0"]:
                raise Unsupported(f"line {item.line}: only an unguarded 'bar.sync 0' is handled")
            if cur.instrs or cur.label is not None or cur.barrier:
                cur = Block(len(blocks), None)
                blocks.append(cur)
            cur.barrier = True
            continue
        cur.instrs.append(item)
        if item.parts[0] in ("bra", "ret", "exit"):
            blocks.append(Block(len(blocks), None))
    labels = {b.label: b.index for b in blocks if b.label}
    for b in blocks:
        last = b.instrs[-1] if b.instrs else None
        if last is not None and last.parts[0] == "bra":
            target = labels[last.operands[0]]
            b.succs.append(target)
            if last.guard:
                b.succs.append(b.index + 1)
        elif last is not None and last.parts[0] in ("ret", "exit"):
            if last.guard:
                raise Unsupported(f"line {last.line}: guarded {last.op}")
        elif b.index + 1 < len(blocks):
            b.succs.append(b.index + 1)
    return blocks, labels


def regions(blocks):
    """Region starts: the entry, barrier blocks and targets of backward branches."""
    starts = {0}
    for b in blocks:
        if b.barrier:
            starts.add(b.index)
        for s in b.succs:
            if s <= b.index:
                starts.add(s)
    order = sorted(starts)
    region_of_start = {s: i for i, s in enumerate(order)}
    members = []
    for s in order:
        seen, todo = {s}, [s]
        while todo:
            b = todo.pop()
            for t in blocks[b].succs:
                if t not in starts and t not in seen:
                    if t <= b:
                        raise Unsupported("irreducible control flow")
                    seen.add(t)
                    todo.append(t)
        members.append(sorted(seen))
    return order, region_of_start, members


# ---------------------------------------------------------------- code generation

CTYPE = {"pred": "bool", "b8": "uint8_t", "u8": "uint8_t", "s8": "uint8_t",
         "b16": "uint16_t", "u16": "uint16_t", "s16": "uint16_t",
         "b32": "uint32_t", "u32": "uint32_t", "s32": "uint32_t", "f32": "float",
         "b64": "uint64_t", "u64": "uint64_t", "s64": "uint64_t", "f64": "double"}
SIGNED = {"s32": "int32_t", "s64": "int64_t"}

SPECIAL = {"%tid.x": "tx", "%tid.y": "ty", "%tid.z": "tz",
           "%ntid.x": "bx", "%ntid.y": "by", "%ntid.z": "bz",
           "%ctaid.x": "cx", "%ctaid.y": "cy", "%ctaid.z": "cz",
           "%nctaid.x": "gx", "%nctaid.y": "gy", "%nctaid.z": "gz"}


class Emitter:
    def __init__(self, kernel):
        self.k = kernel
        self.params = {name: (i, t) for i, (name, t) in enumerate(kernel.params)}
        self.shared_offset = {}
        offset = 0
        for name, align, size in kernel.shared:
            if size is None:
                continue
            offset = (offset + align - 1) // align * align
            self.shared_offset[name] = offset
            offset += size
        self.static_shared = offset
        for name, align, size in kernel.shared:
            if size is None:
                self.shared_offset[name] = (offset + 15) // 16 * 16
        self.blocks, self.labels = basic_blocks(kernel)
        self.starts, self.region_of_start, self.members = regions(self.blocks)
        if len(self.starts) >= EXIT:
            raise Unsupported("too many regions")
        self.rename = {}  # register -> C name, while a recomputation is emitted
        self.dest_override = None
        self.pointers = self.find_pointers()
        self.remat = self.find_rematerializable()
        self.array_regs = self.find_array_regs() - set(self.remat)

    # registers ---------------------------------------------------------

    def regs_of(self, ins):
        """(defined, used) register names of one instruction."""
        regs = [r for op in ins.operands for r in re.findall(r"%\w+", op)
                if r in self.k.reg_types]
        defined = []
        if ins.parts[0] not in ("st", "bra", "ret", "exit") and ins.operands:
            first = ins.operands[0]
            if first in self.k.reg_types:
                defined = [first]
                regs = regs[1:]
        used = regs + ([ins.guard] if ins.guard else [])
        return defined, used

    def find_rematerializable(self):
        """Registers that a region can recompute instead of loading from a per-thread array:
        written once, by integer or address arithmetic whose inputs are, where that instruction
        reads them, thread indices, block indices, parameters, constants or such values
        themselves. Recomputed, clang still sees an address as tid.x times a stride and turns the
        accesses of consecutive threads into vector loads rather than gathers. NVVM reuses a
        register holding tid.x as a loop counter, so an input is followed to the instruction
        that last wrote it before the reader (in the reader's block, then back through blocks
        with a single predecessor), not only to registers written once."""
        pure = {"mov", "cvta", "add", "sub", "mul", "mad", "shl", "shr"}
        where = {}  # instruction -> (block, position)
        for b in self.blocks:
            for i, ins in enumerate(b.instrs):
                where[id(ins)] = (b.index, i)
        preds = {b.index: [] for b in self.blocks}
        for b in self.blocks:
            for s in b.succs:
                preds[s].append(b.index)
        defs = {}
        for b in self.blocks:
            for ins in b.instrs:
                d, _ = self.regs_of(ins)
                for x in d:
                    defs.setdefault(x, []).append(ins)

        def reaching(reg, ins):
            """The instruction that last wrote `reg` before `ins` on every path, or None."""
            b, i = where[id(ins)]
            seen = set()
            while b not in seen:
                seen.add(b)
                for j in range(i - 1, -1, -1):
                    other = self.blocks[b].instrs[j]
                    if other.operands and other.operands[0] == reg and \
                            other.parts[0] not in ("st", "bra"):
                        return other
                if len(preds[b]) != 1:
                    break
                b = preds[b][0]
                i = len(self.blocks[b].instrs)
            if not preds[b]:
                return None  # read before any write
            ds = defs.get(reg, [])
            return ds[0] if len(ds) == 1 else None

        memo = {}

        def tree(ins):
            """(instruction, {operand register: its tree}) or None when not recomputable."""
            if id(ins) in memo:
                return memo[id(ins)]
            memo[id(ins)] = None
            result = None
            if not ins.guard and ins.op in ("ld.param.u64", "ld.param.u32"):
                result = (ins, {})
            elif not ins.guard and (ins.parts[0] in pure and ins.parts[-1] != "f32" or
                                    ins.parts[0] == "mov" and not ins.operands[1].startswith("%")):
                inputs = {}
                for x in ins.operands[1:]:
                    if x in self.k.reg_types:
                        d = reaching(x, ins)
                        sub = tree(d) if d is not None else None
                        if sub is None:
                            break
                        inputs[x] = sub
                else:
                    result = (ins, inputs)
            memo[id(ins)] = result
            return result

        remat = {}
        for reg, ds in defs.items():
            if len(ds) == 1:
                t = tree(ds[0])
                if t is not None:
                    remat[reg] = t
        return remat

    def emit_tree(self, node, out, names):
        """Appends statements recomputing `node` to `out`; returns the C name of its value."""
        ins, inputs = node
        if id(ins) in names:
            return names[id(ins)]
        rename = {x: self.emit_tree(sub, out, names) for x, sub in inputs.items()}
        dest = ins.operands[0]
        name = f"{dest[1:]}_at{ins.line}"
        saved = self.rename, self.dest_override
        self.rename, self.dest_override = rename, name
        statement = self.instr(ins)[0]
        self.rename, self.dest_override = saved
        out.append(f"{self.ctype(dest)} const {statement}")
        names[id(ins)] = name
        return name

    def find_array_regs(self):
        """Registers a region reads before writing them on some path, or that several regions
        use: their values must outlive the region's loop, one per thread."""
        regions_of = {}
        exposed = set()
        self.exposed_in = []
        for r, member in enumerate(self.members):
            exposed_here = set()
            self.exposed_in.append(exposed_here)
            # definitely-defined sets over the region's acyclic block graph
            preds = {b: [] for b in member}
            for b in member:
                for s in self.blocks[b].succs:
                    if s in preds and s != self.starts[r]:
                        preds[s].append(b)
            defined_out = {}
            for b in member:
                ins_set = None
                for p in preds[b]:
                    ins_set = set(defined_out[p]) if ins_set is None else ins_set & defined_out[p]
                cur = set() if ins_set is None or b == self.starts[r] else ins_set
                for ins in self.blocks[b].instrs:
                    d, u = self.regs_of(ins)
                    for x in u:
                        regions_of.setdefault(x, set()).add(r)
                        if x not in cur:
                            exposed.add(x)
                            exposed_here.add(x)
                    for x in d:
                        regions_of.setdefault(x, set()).add(r)
                        cur.add(x)
                defined_out[b] = cur
        return {x for x, rs in regions_of.items() if len(rs) > 1} | exposed

    def find_pointers(self):
        """64-bit registers that hold an address: a parameter, a shared variable, or one of those
        plus an integer. They become `unsigned char*` in C++ so that clang sees base + offset and
        turns the accesses of consecutive threads into vector loads instead of gathers."""
        defs = {}
        for item in self.k.body:
            if isinstance(item, Instr) and item.parts[0] not in ("st", "bra", "ret", "exit") \
                    and item.operands and item.operands[0] in self.k.reg_types:
                defs.setdefault(item.operands[0], []).append(item)
        wide = {r for r, t in self.k.reg_types.items() if t in ("b64", "u64", "s64")}

        def space_of(ins, cand):
            """The space the value `ins` defines points into, '?' for not yet known, None for
            not an address."""
            p, a = ins.parts, ins.operands
            if ins.guard:
                return None
            if ins.op == "ld.param.u64":
                return "global"
            if p[0] == "mov" and p[-1] in ("u64", "b64") and a[1] in self.shared_offset:
                return "shared"
            if (p[0] == "mov" and p[-1] in ("u64", "b64")) or ins.op == "cvta.to.global.u64":
                return cand.get(a[1])
            if p[0] == "add" and p[-1] in ("s64", "u64"):
                ptrs = [x for x in a[1:] if x in cand]
                if len(ptrs) == 1:
                    return cand[ptrs[0]]
                if len(ptrs) == 2:
                    return "?"  # decided once one of them is found not to be an address
            return None

        def two_addresses(ins, cand):
            return ins.parts[0] == "add" and all(x in cand for x in ins.operands[1:])

        cand = {r: "?" for r in wide if r in defs}
        while True:
            changed = True
            while changed:
                changed = False
                for r in list(cand):
                    spaces = {space_of(ins, cand) for ins in defs[r]}
                    known = spaces - {"?"}
                    if None in spaces or len(known) > 1:
                        del cand[r]
                        changed = True
                    elif known and cand[r] != next(iter(known)):
                        cand[r] = next(iter(known))
                        changed = True
            # The sum of two addresses is an integer; drop it and settle again.
            sums = [r for r in cand if any(two_addresses(ins, cand) for ins in defs[r])]
            if not sums:
                return {r: s for r, s in cand.items() if s != "?"}
            for r in sums:
                del cand[r]

    def cname(self, reg):
        """The C name of a register: its own, or a recomputed copy's while one is emitted."""
        return self.rename.get(reg, reg[1:])

    def ctype(self, reg):
        return "unsigned char*" if reg in self.pointers else CTYPE[self.k.reg_types[reg]]

    # operands ------------------------------------------------------------

    def value(self, op, typ):
        """C expression for a source operand read as PTX type `typ`."""
        if op in self.pointers:
            return f"uint64_t(reinterpret_cast<uintptr_t>({self.cname(op)}))"
        if op in self.k.reg_types:
            return self.cname(op)
        if op in SPECIAL:
            return SPECIAL[op]
        if op in self.shared_offset:
            return f"uint64_t({self.shared_offset[op]})"
        m = re.fullmatch(r"0[fF]([0-9a-fA-F]{8})", op)
        if m:
            return f"std::bit_cast<float>(0x{m.group(1)}u)"
        m = re.fullmatch(r"0[dD]([0-9a-fA-F]{16})", op)
        if m:
            return f"std::bit_cast<double>(0x{m.group(1)}ull)"
        m = re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)", op)
        if m:
            c = CTYPE.get(typ, "uint64_t")
            return f"{c}({op}{'ull' if not op.startswith('-') else 'll'})"
        raise Unsupported(f"operand {op}")

    def signed(self, expr, typ):
        return f"{SIGNED[typ]}({expr})" if typ in SIGNED else expr

    def address(self, op, space):
        """C expression of type unsigned char* for a memory operand of state space `space`."""
        m = re.fullmatch(r"\[\s*([%$\w]+)\s*(?:\+\s*(-?\d+))?\s*\]", op)
        if not m:
            raise Unsupported(f"address {op}")
        base, offset = m.group(1), m.group(2) or "0"
        if base in self.pointers:
            if self.pointers[base] != space:
                raise Unsupported(f"a {self.pointers[base]} address used in {space} space")
            return f"({self.cname(base)} + {offset})"
        if base in self.shared_offset and space == "shared":
            return f"(smem + {self.shared_offset[base]} + {offset})"
        integer = self.value(base, "u64")
        if space == "shared":
            return f"(smem + {integer} + {offset})"
        return f"reinterpret_cast<unsigned char*>({integer} + {offset})"

    def pointer_value(self, op):
        """C expression of type unsigned char* for an operand of an instruction defining an
        address register."""
        if op in self.pointers:
            return self.cname(op)
        if op in self.shared_offset:
            return f"(smem + {self.shared_offset[op]})"
        raise Unsupported(f"operand {op} as an address")

    # instructions ----------------------------------------------------------

    def dest(self, ins):
        d = ins.operands[0]
        if d not in self.k.reg_types:
            raise Unsupported(f"line {ins.line}: destination {d}")
        if self.dest_override:
            return self.dest_override, ""
        name = d[1:]
        if d in self.array_regs:
            return name, f" A_{name}[l] = {name};"
        return name, ""

    def instr(self, ins):
        """C statements for one non-branch instruction."""
        p = ins.parts
        op = p[0]
        typ = p[-1]
        a = ins.operands
        dest_is_pointer = bool(a) and a[0] in self.pointers
        if op == "ld" and p[1] == "param":
            i, _ = self.params[a[1].strip("[]")]
            expr = f"reinterpret_cast<unsigned char*>(P{i})" if dest_is_pointer else f"P{i}"
        elif dest_is_pointer and op in ("mov", "cvta"):
            expr = self.pointer_value(a[1])
        elif dest_is_pointer and op == "add":
            base, other = (a[1], a[2]) if a[1] in self.pointers else (a[2], a[1])
            expr = f"{self.cname(base)} + int64_t({self.value(other, typ)})"
        elif op == "mov":
            expr = self.value(a[1], typ)
        elif op == "cvta" and p[1] == "to" and p[2] == "global":
            expr = self.value(a[1], typ)
        elif op in ("add", "sub") and typ in ("s32", "u32", "s64", "u64", "b32", "b64"):
            sign = "+" if op == "add" else "-"
            expr = f"{CTYPE[typ]}({self.value(a[1], typ)} {sign} {self.value(a[2], typ)})"
        elif op in ("add", "sub", "mul") and typ == "f32":
            if len(p) > 2 and p[1] not in ("rn",):
                raise Unsupported(f"line {ins.line}: {ins.op}")
            sign = {"add": "+", "sub": "-", "mul": "*"}[op]
            expr = f"{self.value(a[1], typ)} {sign} {self.value(a[2], typ)}"
        elif op == "fma" and p[1] == "rn" and typ == "f32":
            expr = f"std::fma({self.value(a[1], typ)}, {self.value(a[2], typ)}, " \
                   f"{self.value(a[3], typ)})"
        elif op in ("mul", "mad") and p[1] == "lo" and typ in ("s32", "u32", "s64", "u64"):
            c = CTYPE[typ]
            expr = f"{c}({self.value(a[1], typ)} * {self.value(a[2], typ)})"
            if op == "mad":
                expr = f"{c}({expr} + {self.value(a[3], typ)})"
        elif op == "mul" and p[1] == "wide" and typ in ("s32", "u32"):
            if typ == "u32":
                expr = f"uint64_t(uint64_t({self.value(a[1], typ)}) * {self.value(a[2], typ)})"
            else:
                expr = (f"uint64_t(int64_t(int32_t({self.value(a[1], typ)})) * "
                        f"int64_t(int32_t({self.value(a[2], typ)})))")
        elif op == "shl" and typ in ("b32", "b64"):
            bits = 32 if typ == "b32" else 64
            s = self.value(a[2], "u32")
            expr = f"{CTYPE[typ]}({s} >= {bits} ? 0 : {self.value(a[1], typ)} << {s})"
        elif op == "shr" and typ in ("u32", "s32", "b32", "u64", "s64", "b64"):
            bits = 64 if typ.endswith("64") else 32
            s = self.value(a[2], "u32")
            v = self.value(a[1], typ)
            if typ.startswith("s"):
                expr = f"{CTYPE[typ]}({SIGNED[typ]}({v}) >> ({s} >= {bits} ? {bits - 1} : {s}))"
            else:
                expr = f"{CTYPE[typ]}({s} >= {bits} ? 0 : {v} >> {s})"
        elif op in ("and", "or", "xor") and typ == "pred":
            sign = {"and": "&", "or": "|", "xor": "^"}[op]
            expr = f"bool({self.value(a[1], typ)} {sign} {self.value(a[2], typ)})"
        elif op == "not" and typ == "pred":
            expr = f"!{self.value(a[1], typ)}"
        elif op == "setp" and len(p) == 3:
            cmp = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
            if p[1] not in cmp or typ not in ("s32", "u32", "s64", "u64", "f32"):
                raise Unsupported(f"line {ins.line}: {ins.op}")
            if typ == "f32" and p[1] == "ne":
                raise Unsupported(f"line {ins.line}: {ins.op} (ordered)")
            lhs = self.signed(self.value(a[1], typ), typ)
            rhs = self.signed(self.value(a[2], typ), typ)
            expr = f"({lhs} {cmp[p[1]]} {rhs})"
        elif op == "ld" and p[1] in ("global", "shared") and typ == "f32":
            if any(x not in ("global", "shared", "nc", "f32") for x in p[1:]):
                raise Unsupported(f"line {ins.line}: {ins.op}")
            expr = f"load_f32({self.address(a[1], p[1])})"
        elif op == "st" and p[1] in ("global", "shared") and typ == "f32" and len(p) == 3:
            return [f"store_f32({self.address(a[0], p[1])}, {self.value(a[1], typ)});"]
        else:
            raise Unsupported(f"line {ins.line}: {ins.op} is not handled by the prototype")
        name, spill = self.dest(ins)
        return [f"{name} = {expr};{spill}"]

    # regions ----------------------------------------------------------------

    def goto_block(self, r, target, tag):
        """Statement taking the thread from the current region's code to block `target`."""
        if target in self.region_of_start:
            return f"at[l] = {self.region_of_start[target]}; goto {tag}next_{r};"
        return f"goto {tag}B{r}_{target};"

    def region(self, r, full):
        member = self.members[r]
        tag = "f" if full else "m"
        out = []
        used, defined = set(), set()
        for b in member:
            for ins in self.blocks[b].instrs:
                d, u = self.regs_of(ins)
                used.update(u)
                defined.update(d)
        recompute, names = [], {}
        for x in sorted(self.exposed_in[r]):
            if x in self.remat:
                recompute.append(f"{x[1:]} = {self.emit_tree(self.remat[x], recompute, names)};")
        local = sorted(used | defined, key=lambda x: (x.rstrip("0123456789"), len(x), x))
        body = []
        for x in local:
            c = self.ctype(x)
            if x in self.array_regs and x in self.exposed_in[r]:
                body.append(f"{c} {x[1:]} = A_{x[1:]}[l];")
            else:
                body.append(f"{c} {x[1:]};")
        body.extend(recompute)
        for b in member:
            blk = self.blocks[b]
            body.append(f"{tag}B{r}_{b}:;")
            for ins in blk.instrs:
                kind = ins.parts[0]
                if kind == "bra":
                    target = self.labels[ins.operands[0]]
                    jump = self.goto_block(r, target, tag)
                    if ins.guard:
                        cond = f"{'!' if ins.neg else ''}{ins.guard[1:]}"
                        body.append(f"if ({cond}) {{ {jump} }}")
                    else:
                        body.append(jump)
                    continue
                if kind in ("ret", "exit"):
                    body.append(f"at[l] = {EXIT}; goto {tag}next_{r};")
                    continue
                stmts = self.instr(ins)
                if ins.guard:
                    cond = f"{'!' if ins.neg else ''}{ins.guard[1:]}"
                    body.append(f"if ({cond}) {{ {' '.join(stmts)} }}")
                else:
                    body.extend(stmts)
            last = blk.instrs[-1].parts[0] if blk.instrs else None
            if last not in ("bra", "ret", "exit") or (blk.instrs and blk.instrs[-1].guard):
                if blk.succs:
                    nxt = b + 1
                    body.append(self.goto_block(r, nxt, tag))
                else:
                    body.append(f"at[l] = {EXIT}; goto {tag}next_{r};")
        body.append(f"{tag}next_{r}:;")
        out.append("for (uint32_t tz = 0; tz < bz; ++tz)")
        out.append("  for (uint32_t ty = 0; ty < by; ++ty) {")
        out.append("    const uint32_t row = (tz * by + ty) * bx;")
        out.append("#pragma clang loop vectorize(assume_safety) interleave(disable)")
        out.append("    for (uint32_t tx = 0; tx < bx; ++tx) {")
        out.append("      const uint32_t l = row + tx;")
        if not full:
            out.append(f"      if (at[l] != {r}) continue;")
        out.extend("      " + s for s in body)
        out.append("    }")
        out.append("  }")
        return out

    def emit(self):
        k = self.k
        o = []
        o.append(f"// Generated by tools/compiled/ptx2cpp.py from kernel {k.name}; do not edit.")
        o.append("#include <algorithm>\n#include <bit>\n#include <cmath>\n#include <cstdint>"
                 "\n#include <cstdlib>\n#include <cstring>")
        o.append("namespace {")
        o.append("inline float load_f32(unsigned char* p) { float v; std::memcpy(&v, p, 4); "
                 "return v; }")
        o.append("inline void store_f32(unsigned char* p, float v) { std::memcpy(p, &v, 4); }")
        o.append("constexpr uint32_t max_threads = 1024;")
        o.append("} // namespace")
        o.append('extern "C" void gpurun_compiled_grid(const void* const* args, '
                 'const unsigned grid[3], const unsigned block[3], unsigned dynamic_shared) {')
        o.append("  const uint32_t gx = grid[0], gy = grid[1], gz = grid[2];")
        o.append("  const uint32_t bx = block[0], by = block[1], bz = block[2];")
        o.append("  const uint32_t n = bx * by * bz;")
        for i, (name, t) in enumerate(k.params):
            c = CTYPE[t]
            o.append(f"  {c} P{i}; std::memcpy(&P{i}, args[{i}], sizeof P{i});")
        shared_bytes = max([self.static_shared] + [self.shared_offset[s[0]]
                                                   for s in k.shared if s[2] is None])
        o.append(f"  alignas(64) static thread_local unsigned char smem_storage[{shared_bytes} + "
                 f"49152];")
        o.append("  unsigned char* const smem = smem_storage;")
        o.append("  if (dynamic_shared > 49152) std::abort(); // the buffer's dynamic part")
        o.append("  alignas(64) uint8_t at[max_threads];")
        for x in sorted(self.array_regs):
            o.append(f"  alignas(64) {self.ctype(x)} A_{x[1:]}[max_threads];")
        o.append("  for (uint32_t cz = 0; cz < gz; ++cz)")
        o.append("  for (uint32_t cy = 0; cy < gy; ++cy)")
        o.append("  for (uint32_t cx = 0; cx < gx; ++cx) {")
        o.append("    std::memset(at, 0, n);")
        o.append("    for (;;) {")
        o.append("      uint8_t lo = 255, hi = 0;")
        o.append("      for (uint32_t l = 0; l < n; ++l) { lo = std::min(lo, at[l]); "
                 "hi = std::max(hi, at[l]); }")
        o.append(f"      if (lo == {EXIT}) break;")
        o.append("      const bool full = lo == hi;")
        o.append("      switch (lo) {")
        for r in range(len(self.starts)):
            o.append(f"      case {r}:")
            o.append("        if (full) {")
            o.extend("          " + s for s in self.region(r, True))
            o.append("        } else {")
            o.extend("          " + s for s in self.region(r, False))
            o.append("        }")
            o.append("        break;")
        o.append("      }")
        o.append("    }")
        o.append("  }")
        o.append("}")
        return "\n".join(o) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        text = f.read()
    try:
        kernel = parse(text, sys.argv[2])
        sys.stdout.write(Emitter(kernel).emit())
    except Unsupported as e:
        sys.exit(f"ptx2cpp: {sys.argv[1]}: {e}")


if __name__ == "__main__":
    main()
