/* A test input for the instrumenter (docs/instrumenter.md): a dense switch whose cases are code, so
 * that GCC emits a jump table. Built with -fPIC, the table's entries are label differences
 * (R_RISCV_ADD32/R_RISCV_SUB32 pairs in read-only data) rather than addresses. The program prints a
 * checksum and exits 0 when it matches the value worked out from the cases. */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) static int step(int c, int x) {
  switch (c) {
    case 0: x = x * 3 + 1; break;
    case 1: x = x ^ 0x55; sink = x; break;
    case 2: x = x << 3; break;
    case 3: x = x / 7; break;
    case 4: sink = x; x -= 9; break;
    case 5: x = x % 13; break;
    case 6: x = (x >> 2) + 5; break;
    case 7: x = -x; break;
    case 8: x = x * x; break;
    default: x = 0;
  }
  return x;
}

/* the same, without a switch: the oracle */
static int step_ref(int c, int x) {
  if (c == 0) return x * 3 + 1;
  if (c == 1) return x ^ 0x55;
  if (c == 2) return x << 3;
  if (c == 3) return x / 7;
  if (c == 4) return x - 9;
  if (c == 5) return x % 13;
  if (c == 6) return (x >> 2) + 5;
  if (c == 7) return -x;
  if (c == 8) return x * x;
  return 0;
}

int main(void) {
  int s = 0, r = 0;
  for (int i = 0; i < 2000; i++) {
    s += step(i % 11, i);
    r += step_ref(i % 11, i);
  }
  printf("switch_table: %d (expected %d)\n", s, r);
  return s != r;
}
