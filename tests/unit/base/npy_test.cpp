#include "base/npy.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

using test::slurp;

std::filesystem::path fixture(const std::string& name) {
  return test::source_dir() / "tests" / "data" / "npy" / name;
}

template <typename T> std::vector<T> values(const HostBuffer& b) {
  std::vector<T> v(b.element_count());
  std::memcpy(v.data(), b.data(), b.size_bytes());
  return v;
}

std::string read_error(const std::filesystem::path& path) {
  try {
    (void)read_npy(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for " << path;
  return {};
}

/// A Python with NumPy, or empty when none is installed.
std::string numpy_python() {
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    const std::string probe = std::string(candidate) + " -c 'import numpy' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0)
      return candidate;
  }
  return {};
}

TEST(Npy, ReadsNumPyFilesOfEveryDtype) {
  const auto m = read_npy(fixture("f32_2x3.npy"));
  EXPECT_EQ(m.dtype(), DType::f32);
  EXPECT_EQ(m.shape(), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(values<float>(m), (std::vector<float>{0, 0.5f, 1, 1.5f, 2, 2.5f}));
  const auto h = read_npy(fixture("f16.npy"));
  EXPECT_EQ(h.dtype(), DType::f16);
  EXPECT_EQ(values<std::uint16_t>(h), (std::vector<std::uint16_t>{0x2e66, 0xc100, 0x7bff, 0x7c00}));
  EXPECT_EQ(values<double>(read_npy(fixture("f64.npy")))[0], 1.0 / 3);
  EXPECT_EQ(values<std::int8_t>(read_npy(fixture("i8.npy"))),
            (std::vector<std::int8_t>{-128, 0, 127}));
  EXPECT_EQ(values<std::int16_t>(read_npy(fixture("i16.npy"))),
            (std::vector<std::int16_t>{-32768, 7, 32767}));
  EXPECT_EQ(values<std::int32_t>(read_npy(fixture("i32.npy"))),
            (std::vector<std::int32_t>{INT32_MIN, 1, INT32_MAX}));
  EXPECT_EQ(values<std::uint8_t>(read_npy(fixture("u8.npy"))),
            (std::vector<std::uint8_t>{0, 1, 255}));
  EXPECT_EQ(values<std::uint32_t>(read_npy(fixture("u32.npy"))),
            (std::vector<std::uint32_t>{0, UINT32_MAX}));
  EXPECT_EQ(values<std::uint64_t>(read_npy(fixture("u64.npy"))),
            (std::vector<std::uint64_t>{UINT64_MAX, 5}));
}

TEST(Npy, ReadsVersions2And3ScalarsAndBools) {
  const auto v2 = read_npy(fixture("i64_v2.npy"));
  EXPECT_EQ(v2.dtype(), DType::i64);
  EXPECT_EQ(values<std::int64_t>(v2), (std::vector<std::int64_t>{INT64_MIN, INT64_MAX}));
  const auto v3 = read_npy(fixture("u16_v3.npy"));
  EXPECT_EQ(values<std::uint16_t>(v3), (std::vector<std::uint16_t>{1, 65535}));
  const auto s = read_npy(fixture("scalar.npy"));
  EXPECT_TRUE(s.shape().empty());
  EXPECT_EQ(values<double>(s), (std::vector<double>{2.5}));
  const auto b = read_npy(fixture("bool.npy"));
  EXPECT_EQ(b.dtype(), DType::u8);
  EXPECT_EQ(values<std::uint8_t>(b), (std::vector<std::uint8_t>{1, 0, 1}));
}

TEST(Npy, WritesExactlyWhatNumPyWrites) {
  // Same bytes as np.save: header padding, growth room and all.
  const auto ours = encode_npy(read_npy(fixture("f32_2x3.npy")));
  const std::string theirs = slurp(fixture("f32_2x3.npy"));
  ASSERT_EQ(ours.size(), theirs.size());
  EXPECT_EQ(std::memcmp(ours.data(), theirs.data(), theirs.size()), 0);
  const auto scalar = encode_npy(read_npy(fixture("scalar.npy")));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(scalar.data()), scalar.size()),
            slurp(fixture("scalar.npy")));
  const auto v2 = encode_npy(read_npy(fixture("i64_v2.npy")));
  EXPECT_EQ(static_cast<int>(v2[6]), 1); // small headers are written as version 1.0
  EXPECT_EQ(v2.size() % 64, 16u);        // 2 × 8 data bytes after a 64-byte-aligned header
}

TEST(Npy, RoundTripsEveryDtypeAndShape) {
  const auto dir = test::temp_dir();
  for (DType t : {DType::f16, DType::bf16, DType::f32, DType::f64, DType::i8, DType::i16,
                  DType::i32, DType::i64, DType::u8, DType::u16, DType::u32, DType::u64}) {
    HostBuffer b(t, {3, 1, 2});
    for (std::size_t i = 0; i < b.size_bytes(); ++i)
      b.data()[i] = static_cast<std::byte>(i * 7 + 1);
    write_npy(dir / "x.npy", b);
    const auto back = read_npy(dir / "x.npy");
    // bf16 comes back as its '<u2' carrier; the bytes are identical.
    EXPECT_EQ(back.dtype(), t == DType::bf16 ? DType::u16 : t);
    EXPECT_EQ(back.shape(), b.shape());
    ASSERT_EQ(back.size_bytes(), b.size_bytes());
    EXPECT_EQ(std::memcmp(back.data(), b.data(), b.size_bytes()), 0) << dtype_name(t);
  }
}

// A header's shape is checked against the bytes that are there before anything is allocated.
std::vector<std::byte> npy_claiming(const std::string& shape, std::size_t data_bytes) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  header.resize(118, ' ');
  header += '\n';
  std::string file = "\x93NUMPY";
  file += '\x01';
  file += '\x00';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  file.append(data_bytes, '\0');
  const auto* p = reinterpret_cast<const std::byte*>(file.data());
  return {p, p + file.size()};
}

TEST(Npy, HostileShapesAreRefusedBeforeAllocating) {
  auto message = [](const std::vector<std::byte>& bytes) {
    try {
      (void)parse_npy(bytes, "h.npy");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // 2 × (2^63 + 10) elements wrap to 20 without an overflow check.
  EXPECT_NE(message(npy_claiming("(2, 9223372036854775818)", 80)).find("overflows 64 bits"),
            std::string::npos);
  // 4 GB claimed, 80 bytes there: no 4 GB allocation first.
  EXPECT_NE(message(npy_claiming("(1000000000,)", 80))
                .find(".npy data has 80 bytes, shape (1000000000,) of '<f4' needs 4000000000"),
            std::string::npos);
  EXPECT_NE(message(npy_claiming("(461168601842890, 9377)", 80)).find("h.npy: "),
            std::string::npos);
  EXPECT_EQ(message(npy_claiming("(20,)", 80)), "no error");
}

TEST(Npy, LargeHeadersSwitchToVersion2) {
  HostBuffer b(DType::u8, std::vector<std::size_t>(25000, 1)); // "(1, 1, …)" > 65535 chars
  const auto bytes = encode_npy(b);
  EXPECT_EQ(static_cast<int>(bytes[6]), 2);
  const auto back = parse_npy(bytes, "big");
  EXPECT_EQ(back.shape().size(), 25000u);
}

TEST(Npy, NumPyReadsOurFiles) {
  const std::string python = numpy_python();
  if (python.empty())
    GTEST_SKIP() << "python3 with numpy not available";
  const auto dir = test::temp_dir();
  HostBuffer b(DType::i16, {2, 3});
  const std::int16_t data[] = {-1, 2, -3, 400, 5, -32768};
  std::memcpy(b.data(), data, sizeof data);
  write_npy(dir / "ours.npy", b);
  HostBuffer h(DType::f16, {2});
  const std::uint16_t halves[] = {0x3e00, 0xc000}; // 1.5, -2
  std::memcpy(h.data(), halves, sizeof halves);
  write_npy(dir / "half.npy", h);
  const std::string script =
      "import numpy as np, sys; a = np.load(sys.argv[1]); h = np.load(sys.argv[2]); "
      "ok = a.dtype == np.int16 and a.shape == (2, 3) and a.tolist() == "
      "[[-1, 2, -3], [400, 5, -32768]] and h.dtype == np.float16 and h.tolist() == [1.5, -2.0]; "
      "sys.exit(0 if ok else 1)";
  const auto r = test::run_shell(python + " -c '" + script + "' " + (dir / "ours.npy").string() +
                                 " " + (dir / "half.npy").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(NpyErrors, RejectsWhatCannotBeReadFaithfully) {
  EXPECT_NE(read_error(fixture("fortran.npy")).find("Fortran-ordered"), std::string::npos);
  EXPECT_NE(read_error(fixture("big_endian.npy")).find("big-endian .npy data ('>f4')"),
            std::string::npos);
  EXPECT_NE(read_error(fixture("complex.npy")).find("unsupported .npy dtype '<c8'"),
            std::string::npos);
  EXPECT_NE(read_error(fixture("structured.npy")).find("structured dtypes are not supported"),
            std::string::npos);
  EXPECT_NE(read_error(fixture("absent.npy"))
                .find("absent.npy: cannot read the file: No such file or directory"),
            std::string::npos);
}

TEST(NpyErrors, RejectsDamagedFiles) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "text.npy") << "hello, not numpy";
  EXPECT_NE(read_error(dir / "text.npy").find("not a .npy file"), std::string::npos);
  std::string good = slurp(fixture("f32_2x3.npy"));
  std::ofstream(dir / "short.npy", std::ios::binary) << good.substr(0, good.size() - 4);
  EXPECT_NE(read_error(dir / "short.npy")
                .find(".npy data has 20 bytes, shape (2, 3) of '<f4' "
                      "needs 24"),
            std::string::npos);
  std::ofstream(dir / "cut.npy", std::ios::binary) << good.substr(0, 40);
  EXPECT_NE(read_error(dir / "cut.npy").find("truncated .npy header"), std::string::npos);
}

} // namespace
} // namespace gpurun
