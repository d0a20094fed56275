#!/usr/bin/env python3
"""Regenerates ../NAME.ptx from NAME.cu with the real NVRTC (the compiler the CPU backend uses).

Usage: python3 gen_ptx.py [NAME.cu ...]   (default: every .cu in this folder)
Options match what gpurun passes: compute_90, -lineinfo, the toolkit's include folder.
"""
import ctypes
import pathlib
import sys

CUDA = pathlib.Path("/usr/local/cuda")
HERE = pathlib.Path(__file__).resolve().parent
OPTIONS = [b"--gpu-architecture=compute_90", b"-lineinfo", b"--std=c++17",
           b"-I" + str(CUDA / "include").encode()]


def load_nvrtc():
    for name in ("libnvrtc.so.13", "libnvrtc.so"):
        for folder in (CUDA / "lib64", CUDA / "targets/x86_64-linux/lib", pathlib.Path("")):
            try:
                return ctypes.CDLL(str(folder / name) if str(folder) != "." else name)
            except OSError:
                continue
    sys.exit("libnvrtc not found")


def compile_one(nvrtc, cu: pathlib.Path) -> str:
    prog = ctypes.c_void_p()
    src = cu.read_bytes()
    rc = nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, cu.name.encode(), 0, None, None)
    assert rc == 0, rc
    opts = (ctypes.c_char_p * len(OPTIONS))(*OPTIONS)
    rc = nvrtc.nvrtcCompileProgram(prog, len(OPTIONS), opts)
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(prog, log)
    if rc != 0:
        sys.exit(f"{cu.name}: compile failed\n{log.value.decode()}")
    nvrtc.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetPTX(prog, ptx)
    nvrtc.nvrtcDestroyProgram(ctypes.byref(prog))
    return ptx.value.decode()


def main():
    nvrtc = load_nvrtc()
    files = [HERE / a for a in sys.argv[1:]] or sorted(HERE.glob("*.cu"))
    for cu in files:
        out = HERE.parent / (cu.stem + ".ptx")
        out.write_text(compile_one(nvrtc, cu))
        print(f"{cu.name} -> {out.name}")


if __name__ == "__main__":
    main()
