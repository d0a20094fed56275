#include "backends/kit/kernel_arguments.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace gpurun {
namespace {

class StubBuffer final : public Buffer {
public:
  [[nodiscard]] std::size_t size() const override { return 64; }
  [[nodiscard]] DevicePtr address() const override { return 0x7000'0000'1000; }
};

std::vector<std::byte> bytes_of(std::int32_t value) {
  std::vector<std::byte> out(sizeof value);
  std::memcpy(out.data(), &value, sizeof value);
  return out;
}

TEST(KernelArguments, PointsAtEachArgumentsBytesWithBuffersAsAddresses) {
  const StubBuffer buffer;
  ArgPack args;
  args.add_buffer(buffer);
  args.add_bytes(bytes_of(42));
  kit::KernelArguments arguments(args);
  void** pointers = arguments.pointers();
  ASSERT_NE(pointers, nullptr);
  DevicePtr address = 0;
  std::memcpy(&address, pointers[0], sizeof address);
  EXPECT_EQ(address, buffer.address());
  std::int32_t value = 0;
  std::memcpy(&value, pointers[1], sizeof value);
  EXPECT_EQ(value, 42);
}

TEST(KernelArguments, NoArgumentsNoPointers) {
  kit::KernelArguments arguments(ArgPack{});
  EXPECT_EQ(arguments.pointers(), nullptr);
  EXPECT_NO_THROW(arguments.check("k", {}, kit::ZeroSizeParam::exact));
}

TEST(KernelArguments, ChecksCountAndSizes) {
  ArgPack args;
  args.add_bytes(bytes_of(1));
  const kit::KernelArguments arguments(args);
  const std::vector<ParamLayout> one_int{{0, 4, 4}};
  EXPECT_NO_THROW(arguments.check("k", one_int, kit::ZeroSizeParam::exact));
  try {
    arguments.check("k", std::vector<ParamLayout>{{0, 4, 4}, {8, 8, 8}}, kit::ZeroSizeParam::exact);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "kernel 'k' takes 2 parameters, 1 given");
  }
  try {
    arguments.check("k", std::vector<ParamLayout>{{0, 8, 8}}, kit::ZeroSizeParam::exact);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel 'k' parameter 0: 8 bytes expected, 4 given");
  }
}

TEST(KernelArguments, AZeroSizeParameterTakesAnyArgumentOnlyWhereTheSizeIsUnknown) {
  ArgPack args;
  args.add_bytes(bytes_of(1));
  const kit::KernelArguments arguments(args);
  const std::vector<ParamLayout> unknown{{0, 0, 0}};
  EXPECT_NO_THROW(arguments.check("k", unknown, kit::ZeroSizeParam::any_argument));
  EXPECT_THROW(arguments.check("k", unknown, kit::ZeroSizeParam::exact), Error);
}

} // namespace
} // namespace gpurun
