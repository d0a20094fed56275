// Spins until *flag becomes non-zero, which nothing ever does: exercises --timeout.
__kernel void hang(__global volatile int* flag) {
  while (*flag == 0) {
  }
}
