# gpurun in a container, in two stages.
#   docker build -t gpurun .
#   docker run --rm -v "$PWD:/work" -w /work gpurun kernel.cu --grid 1 --block 32 …   # CPU backend
#   docker run --rm --gpus all -v "$PWD:/work" -w /work gpurun kernel.cu …           # NVIDIA GPU
# With --gpus all the NVIDIA container toolkit mounts the host's driver (libcuda); NVRTC is not
# part of the driver: without it gpurun compiles CUDA kernels with the image's clang, or mount a
# CUDA toolkit and point GPURUN_NVRTC_PATH at its lib64 folder.

# Build stage: the build dependencies, the build, the test suite and the .deb.
FROM debian:12 AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh \
 && cmake --preset release && cmake --build --preset release && ctest --preset release \
 && cd build && cpack -G DEB -B package

# Runtime image: the .deb with what it recommends (clang and libclc compile CUDA kernels for the
# CPU backend when no NVRTC is present), nothing of the build.
FROM debian:12-slim
COPY --from=build /src/build/package/gpurun_*.deb /tmp/
RUN apt-get update -qq \
 && apt-get install -y -qq /tmp/gpurun_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/gpurun_*.deb
ENTRYPOINT ["gpurun"]
CMD ["--help"]
