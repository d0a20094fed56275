#include "pipeline/arg_spec.hpp"

#include <bit>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

std::string arg_error(const std::string& text) {
  try {
    (void)parse_arg_spec(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

template <typename T> T decode(const std::vector<std::byte>& bytes) {
  EXPECT_EQ(bytes.size(), sizeof(T));
  T v{};
  std::memcpy(&v, bytes.data(), sizeof v);
  return v;
}

TEST(ArgSpec, UntypedScalar) {
  const auto s = parse_arg_spec("20");
  EXPECT_EQ(s.kind, ArgSpec::Kind::scalar);
  EXPECT_FALSE(s.name);
  EXPECT_FALSE(s.dtype);
  EXPECT_EQ(s.scalar_text, "20");
  EXPECT_EQ(s.text, "20");
  EXPECT_EQ(parse_arg_spec("-1.5e3").scalar_text, "-1.5e3");
  EXPECT_EQ(parse_arg_spec("inf").scalar_text, "inf");
}

TEST(ArgSpec, NamedTypedScalar) {
  const auto s = parse_arg_spec("scale=f32:20.0");
  EXPECT_EQ(s.name, "scale");
  EXPECT_EQ(s.kind, ArgSpec::Kind::scalar);
  EXPECT_EQ(s.dtype, DType::f32);
  EXPECT_EQ(s.scalar_text, "20.0");
  const auto n = parse_arg_spec("n=u64:1<<20");
  EXPECT_EQ(n.dtype, DType::u64);
  EXPECT_EQ(n.scalar_text, "1<<20");
  EXPECT_EQ(parse_arg_spec("x=-3").scalar_text, "-3");
}

TEST(ArgSpec, BufferWithShapeAndFill) {
  const auto b = parse_arg_spec("vector=f32[20]:iota");
  EXPECT_EQ(b.name, "vector");
  EXPECT_EQ(b.kind, ArgSpec::Kind::buffer);
  EXPECT_EQ(b.dtype, DType::f32);
  EXPECT_EQ(b.shape, (std::vector<std::size_t>{20}));
  EXPECT_EQ(b.fill.kind, FillSpec::Kind::iota);
  const auto m = parse_arg_spec("f32[64, 32]:0");
  EXPECT_FALSE(m.name);
  EXPECT_EQ(m.shape, (std::vector<std::size_t>{64, 32}));
  EXPECT_EQ(m.fill.kind, FillSpec::Kind::constant);
  EXPECT_EQ(m.fill.a, 0.0);
}

TEST(ArgSpec, FillVariants) {
  const auto r = parse_arg_spec("u8[1<<20]:rand(seed=7)");
  EXPECT_EQ(r.shape, (std::vector<std::size_t>{1u << 20}));
  EXPECT_EQ(r.fill.kind, FillSpec::Kind::rand);
  EXPECT_EQ(r.fill.seed, 7u);
  EXPECT_FALSE(r.fill.has_params);
  const auto rn = parse_arg_spec("x=f64[8]:randn(seed=3, 1.5, 2)");
  EXPECT_EQ(rn.fill.kind, FillSpec::Kind::randn);
  EXPECT_TRUE(rn.fill.has_params);
  EXPECT_EQ(rn.fill.a, 1.5);
  EXPECT_EQ(rn.fill.b, 2.0);
  const auto l = parse_arg_spec("f32[4]:[1,2,3,4]");
  EXPECT_EQ(l.fill.kind, FillSpec::Kind::list);
  EXPECT_EQ(l.fill.list, (std::vector<std::string>{"1", "2", "3", "4"}));
  const auto f = parse_arg_spec("a=f32[16]:@data/in.npy");
  EXPECT_EQ(f.fill.kind, FillSpec::Kind::file);
  EXPECT_EQ(f.fill.path, "data/in.npy");
  const auto z = parse_arg_spec("out=f32[4]");
  EXPECT_EQ(z.fill.kind, FillSpec::Kind::zeros);
  EXPECT_EQ(z.fill.origin, "out=f32[4]"); // errors found when applying can quote the arg
  EXPECT_EQ(parse_arg_spec("i16[3]:iota(-1,2)").fill.b_text, "2");
}

TEST(ArgSpec, EqualsInsideAFillIsNotAName) {
  const auto r = parse_arg_spec("u8[16]:rand(seed=7)");
  EXPECT_FALSE(r.name);
  EXPECT_EQ(r.kind, ArgSpec::Kind::buffer);
}

TEST(ArgSpecErrors, UnknownDtypeListsTheTypes) {
  EXPECT_EQ(arg_error("x=f33[4]"), "--arg 'x=f33[4]': unknown dtype 'f33' (f16 bf16 f32 f64 i8 "
                                   "i16 i32 i64 u8 u16 u32 u64) at position 3");
  EXPECT_EQ(arg_error("float:2"), "--arg 'float:2': unknown dtype 'float' (write f32; types: f16 "
                                  "bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64) at position 1");
}

TEST(ArgSpecErrors, BadDimsPointIntoTheBrackets) {
  EXPECT_EQ(arg_error("vector=f32[1<<]"),
            "--arg 'vector=f32[1<<]': expected a number at position 15");
  EXPECT_EQ(arg_error("f32[4,-2]"), "--arg 'f32[4,-2]': negative extent -2 at position 7");
  EXPECT_EQ(arg_error("f32[]"), "--arg 'f32[]': expected a number at position 5");
  EXPECT_EQ(arg_error("f32[4"), "--arg 'f32[4': missing ']' at position 6");
  EXPECT_NE(arg_error("f64[1<<30,1<<30]").find("larger than 2**48 bytes"), std::string::npos);
}

TEST(ArgSpecErrors, StructureErrors) {
  EXPECT_EQ(arg_error(""), "--arg '': empty spec (expected a number, TYPE:NUMBER or "
                           "TYPE[DIMS][:FILL])");
  EXPECT_EQ(arg_error("x="), "--arg 'x=': expected a value after '=' at position 3");
  EXPECT_EQ(arg_error("=5"), "--arg '=5': empty name before '=' at position 1");
  EXPECT_EQ(arg_error("1x=5"), "--arg '1x=5': '1x' is not a valid parameter name at position 1");
  EXPECT_EQ(arg_error("my arg=5"),
            "--arg 'my arg=5': 'my arg' is not a valid parameter name at position 3");
  EXPECT_EQ(arg_error("f32[4]iota"), "--arg 'f32[4]iota': expected ':' and a fill after ']' at "
                                     "position 7");
  EXPECT_EQ(arg_error("[4]:1"), "--arg '[4]:1': expected a type before '[' (f16 bf16 f32 f64 i8 "
                                "i16 i32 i64 u8 u16 u32 u64) at position 1");
  EXPECT_EQ(arg_error("x=abc"), "--arg 'x=abc': expected a number, found 'a' at position 3");
}

TEST(ArgSpecErrors, TypedScalarsAreRangeChecked) {
  EXPECT_EQ(arg_error("n=u8:256"),
            "--arg 'n=u8:256': 256 is out of range for u8 (0 to 255) at position 6");
  EXPECT_EQ(arg_error("n=i32:1.5"), "--arg 'n=i32:1.5': expected an integer, found a "
                                    "floating-point number at position 7");
  EXPECT_EQ(arg_error("f32:"), "--arg 'f32:': expected a number at position 5");
}

TEST(ArgSpecErrors, ArbitraryTextOnlyEverRaisesUsageErrors) {
  // Random strings over the grammar's alphabet: each must parse or raise a usage Error, never
  // crash or leak another exception type (out_of_range from a substr, say).
  const std::string alphabet = "xf32u8[]:,=()*<>-+.e@0179abinotdrsq ^%/";
  // Mutated valid specs reach deeper into the grammar than random characters do.
  const std::vector<std::string> valid = {"x=f32[4]:rand(seed=7,-1,1)",
                                          "u8[2,3]:iota(1,2)",
                                          "n=u64:1<<20",
                                          "f16[4]:[1,2,3,4]",
                                          "y=f64[3]:randn(seed=1,0,2)",
                                          "i32[8]:-5",
                                          "a=bf16[2]:ones",
                                          "i16[3]:rand(seed=2)",
                                          "s=f32:2.5e3"};
  std::mt19937 rng(12345);
  for (int i = 0; i < 40000; ++i) {
    std::string text;
    if (i % 2 == 0) {
      const auto length = rng() % 24;
      for (unsigned j = 0; j < length; ++j)
        text += alphabet[rng() % alphabet.size()];
    } else {
      text = valid[rng() % valid.size()];
      for (unsigned m = 1 + rng() % 3; m > 0 && !text.empty(); --m) {
        const auto at = rng() % text.size();
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
        case 0:
          text.erase(at, 1);
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          text[at] = c;
          break;
        }
      }
    }
    try {
      const ArgSpec spec = parse_arg_spec(text);
      // Whatever parses must also fill without surprises (files aside: none exist here).
      if (spec.kind == ArgSpec::Kind::buffer && spec.fill.kind != FillSpec::Kind::file) {
        HostBuffer buffer(*spec.dtype, spec.shape);
        if (buffer.size_bytes() < (1u << 20))
          apply_fill(spec.fill, buffer, {});
      }
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), ExitCode::usage) << text;
      ASSERT_NE(std::string(e.what()).find("'" + text + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(SplitNameValue, SplitsAtTheFirstEquals) {
  EXPECT_EQ(split_name_value("out=@ref.npy", "--expect"),
            (std::pair<std::string, std::string>{"out", "@ref.npy"}));
  EXPECT_EQ(split_name_value("table=u8[4]:rand(seed=1)", "--global"),
            (std::pair<std::string, std::string>{"table", "u8[4]:rand(seed=1)"}));
}

TEST(SplitNameValue, Errors) {
  auto message = [](const std::string& text) {
    try {
      (void)split_name_value(text, "--expect");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("out"), "--expect 'out': expected NAME=VALUE");
  EXPECT_EQ(message("=[1]"), "--expect '=[1]': empty name before '=' at position 1");
  EXPECT_EQ(message("out="), "--expect 'out=': expected a value after '=' at position 5");
  EXPECT_EQ(message("o ut=1"), "--expect 'o ut=1': blank in the name before '=' at position 2");
}

TEST(EncodeScalar, LittleEndianBytesPerType) {
  EXPECT_EQ(decode<float>(encode_scalar(DType::f32, "20.0", "n")), 20.0f);
  EXPECT_EQ(decode<double>(encode_scalar(DType::f64, "-1.5e3", "n")), -1500.0);
  EXPECT_EQ(decode<std::uint16_t>(encode_scalar(DType::f16, "1.5", "n")), 0x3e00);
  EXPECT_EQ(decode<std::uint16_t>(encode_scalar(DType::bf16, "1", "n")), 0x3f80);
  EXPECT_EQ(decode<std::int32_t>(encode_scalar(DType::i32, "-(1<<31)", "n")), INT32_MIN);
  EXPECT_EQ(decode<std::uint64_t>(encode_scalar(DType::u64, "0xffffffffffffffff", "n")),
            UINT64_MAX);
  EXPECT_EQ(decode<std::uint8_t>(encode_scalar(DType::u8, "255", "n")), 255);
  EXPECT_EQ(decode<float>(encode_scalar(DType::f32, "1<<20", "n")), 1048576.0f);
  const auto bytes = encode_scalar(DType::u32, "0x01020304", "n");
  EXPECT_EQ(bytes[0], std::byte{0x04}); // little-endian
  EXPECT_EQ(bytes[3], std::byte{0x01});
}

TEST(EncodeScalar, OutOfRangeNamesTheArgument) {
  try {
    (void)encode_scalar(DType::i8, "200", "n");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "n '200': 200 is out of range for i8 (-128 to 127) at position 1");
  }
  EXPECT_THROW((void)encode_scalar(DType::u32, "-1", "n"), Error);
  EXPECT_THROW((void)encode_scalar(DType::i32, "2.5", "n"), Error);
  EXPECT_THROW((void)encode_scalar(DType::f32, "two", "n"), Error);
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

TEST(ArgSpecPlacement, AtDeviceAfterTheDimensions) {
  const ArgSpec placed = parse_arg_spec("x=f32[4]@1:iota");
  EXPECT_EQ(placed.kind, ArgSpec::Kind::buffer);
  EXPECT_EQ(placed.device, 1);
  EXPECT_EQ(placed.shape, (std::vector<std::size_t>{4}));
  EXPECT_EQ(parse_arg_spec("f32[4]@12").device, 12);
  EXPECT_EQ(parse_arg_spec("f32[4]:iota").device, std::nullopt);
}

TEST(ArgSpecPlacement, AMalformedDeviceNamesThePosition) {
  auto message = [](const char* text) {
    try {
      (void)parse_arg_spec(text);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("f32[4]@:1"), "--arg 'f32[4]@:1': expected a device index after '@' "
                                  "(f32[8]@1:rand(seed=1)) at position 8");
  EXPECT_EQ(message("f32[4]@-1"), "--arg 'f32[4]@-1': expected a device index after '@' "
                                  "(f32[8]@1:rand(seed=1)) at position 8");
  EXPECT_EQ(message("f32[4]@1iota"), "--arg 'f32[4]@1iota': expected ':' and a fill after the "
                                     "device at position 9");
}

TEST(ArgSpecPointer, NamesABufferAndAByteOffset) {
  const ArgSpec p = parse_arg_spec("x=&pool+4096");
  EXPECT_EQ(p.kind, ArgSpec::Kind::pointer);
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.pointer.buffer, "pool");
  EXPECT_EQ(p.pointer.offset, 4096u);
  const ArgSpec q = parse_arg_spec("&a0 + 1<<4");
  EXPECT_FALSE(q.name);
  EXPECT_EQ(q.pointer.buffer, "a0");
  EXPECT_EQ(q.pointer.offset, 16u);
  EXPECT_EQ(parse_arg_spec("&a0").pointer.offset, 0u);
  const auto bytes = encode_with_addresses(p, [](const PointerTo& to) {
    EXPECT_EQ(to.buffer, "pool");
    return 0x7f0000001000 + to.offset;
  });
  EXPECT_EQ(decode<std::uint64_t>(bytes), 0x7f0000002000u);
}

TEST(ArgSpecPointer, ErrorsNameThePosition) {
  EXPECT_EQ(arg_error("x=&"), "--arg 'x=&': expected a buffer name after '&' (&x, &x+256) at "
                              "position 4");
  EXPECT_EQ(arg_error("&a-4"),
            "--arg '&a-4': expected '+' and a byte offset after the buffer name (&x+256) at "
            "position 3");
  EXPECT_NE(arg_error("&a+-4").find("the byte offset must be between 0 and 2**48"),
            std::string::npos);
}

TEST(ArgSpecRecord, FieldsSitAtTheirNaturalAlignmentAsInAStruct) {
  // struct { float* data; int n; float scale; char tag; } → 8 + 4 + 4 + 1, padded to 24.
  const ArgSpec r = parse_arg_spec("v={&pool+16, i32:-4, f32:2.5, u8:7}");
  EXPECT_EQ(r.kind, ArgSpec::Kind::record);
  EXPECT_EQ(r.name, "v");
  ASSERT_EQ(r.fields.size(), 4u);
  EXPECT_EQ(r.fields[0].offset, 0u);
  EXPECT_EQ(r.fields[1].offset, 8u);
  EXPECT_EQ(r.fields[2].offset, 12u);
  EXPECT_EQ(r.fields[3].offset, 16u);
  EXPECT_EQ(r.record_size, 24u);
  const auto bytes = encode_with_addresses(r, [](const PointerTo& to) { return 0x1000 + to.offset; });
  ASSERT_EQ(bytes.size(), 24u);
  std::uint64_t address = 0;
  std::memcpy(&address, bytes.data(), 8);
  EXPECT_EQ(address, 0x1010u);
  std::int32_t n = 0;
  std::memcpy(&n, bytes.data() + 8, 4);
  EXPECT_EQ(n, -4);
  float scale = 0;
  std::memcpy(&scale, bytes.data() + 12, 4);
  EXPECT_EQ(scale, 2.5f);
  EXPECT_EQ(bytes[16], std::byte{7});
  EXPECT_EQ(bytes[17], std::byte{0});
  // A u8 then an i32: the i32 goes to offset 4; the record is 8 bytes.
  const ArgSpec packed = parse_arg_spec("{u8:1, i32:2}");
  EXPECT_EQ(packed.fields[1].offset, 4u);
  EXPECT_EQ(packed.record_size, 8u);
  EXPECT_EQ(parse_arg_spec("{u16:1}").record_size, 2u);
}

TEST(ArgSpecRecord, ErrorsNameTheField) {
  EXPECT_EQ(arg_error("{i32:1"), "--arg '{i32:1': missing '}' at the end of the record at "
                                 "position 7");
  EXPECT_EQ(arg_error("{i32:1, }"), "--arg '{i32:1, }': expected a field (TYPE:NUMBER or &NAME) "
                                    "in the record at position 9");
  EXPECT_EQ(arg_error("{5}"), "--arg '{5}': a record field is TYPE:NUMBER (i32:5, f32:0.5) or "
                              "&NAME at position 2");
  EXPECT_NE(arg_error("{u8:256}").find("256 is out of range for u8"), std::string::npos);
  EXPECT_NE(arg_error("{float:1}").find("unknown dtype 'float' (write f32"), std::string::npos);
}


TEST(ArgSpec, LocalMemoryInBytesOrAsTypedElements) {
  const ArgSpec bytes = parse_arg_spec("tmp=local:4*1024");
  EXPECT_EQ(bytes.kind, ArgSpec::Kind::local);
  EXPECT_EQ(bytes.name, "tmp");
  EXPECT_EQ(bytes.local_bytes, 4096u);
  EXPECT_EQ(parse_arg_spec("local:f64[16,2]").local_bytes, 256u);
  EXPECT_NE(arg_error("tmp=local:0").find("0 bytes"), std::string::npos);
  EXPECT_NE(arg_error("tmp=local:f32[4]x").find("nothing after ']'"), std::string::npos);
  EXPECT_NE(arg_error("tmp=local:q32[4]").find("q32"), std::string::npos);
  EXPECT_NE(arg_error("tmp=local:-1").find("tmp=local:-1"), std::string::npos);
}

} // namespace
} // namespace gpurun
