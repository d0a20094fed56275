# Build and test gpurun on Debian 12. GPU backends need the host's driver libraries at run time
# (e.g. `docker run --gpus all`); without them gpurun runs kernels on its CPU backend.
FROM debian:12
RUN apt-get update -qq && apt-get install -y -qq sudo && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh && cmake --preset release && cmake --build --preset release
RUN ctest --preset release
ENTRYPOINT ["/src/build/gpurun"]
