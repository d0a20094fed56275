// Prints bytes that are not UTF-8: a JSON report must still be valid JSON.
#include <cstdio>

extern "C" __global__ void print_bytes() {
  printf("raw %c%c bytes\n", 0xff, 0xfe);
}
