// Spins until *flag becomes non-zero, which nothing ever does: exercises --timeout.
extern "C" __global__ void hang(volatile int* flag) {
  while (*flag == 0) {
  }
}
