#pragma once
// SHA-256 (FIPS 180-4), small and dependency-free: the compile cache needs a collision-resistant
// key and an entry checksum, and linking libcrypto would add a shared library the GPU machines
// do not have.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpurun::detail {

class Sha256 {
public:
  Sha256();
  void update(std::span<const std::byte> data);
  void update(std::string_view text);
  /// The digest; the object must not be updated afterwards.
  [[nodiscard]] std::array<std::uint8_t, 32> finish();
  /// finish() as 64 lowercase hex digits.
  [[nodiscard]] std::string finish_hex();

private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> m_state;
  std::array<std::uint8_t, 64> m_block{};
  std::size_t m_block_used = 0;
  std::uint64_t m_total_bytes = 0;
};

/// SHA-256 of `text` as lowercase hex.
[[nodiscard]] std::string sha256_hex(std::string_view text);

} // namespace gpurun::detail
