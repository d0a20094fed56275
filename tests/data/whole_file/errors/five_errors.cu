// Five compile errors in one kernel, and host code around it that is not the problem.
#include <vector>
#include <string>

std::vector<std::string> names;

__global__ void broken(float* x, int n) {
  undefined_a(x);
  int y = "text";
  undefined_b();
  undefined_c();
  undefined_d(n);
}

int main() {
  broken<<<1, 1>>>(nullptr, 0);
  return 0;
}
