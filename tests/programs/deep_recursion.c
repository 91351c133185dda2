/* Recursion far deeper than the pir's path stack (docs/path.md, "The path stack in memory"): every
 * recursive call saves the caller's path sum on the stack, 5,000 deep. With the instrumenter's spill
 * area the stack goes on in memory and the path profile is exact; without one (or with one too
 * small) the profile is refused after the run (PATH_STACK.ERR), never presented with wrong counts. */
#include <stdio.h>

static volatile int g_bias = 1;

__attribute__((noinline)) static int depth(int n) {
  if (n == 0) return 0;
  const int below = depth(n - 1);
  return below + (below & 1) + g_bias; /* work after the call: no tail call */
}

int main(void) {
  volatile int n = 5000;
  printf("deep_recursion: %d\n", depth(n));
  volatile int m = 40; /* and again, shallower: the spilled entries come back in between */
  printf("deep_recursion: %d\n", depth(m));
  return 0;
}
