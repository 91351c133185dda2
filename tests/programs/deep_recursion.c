/* Recursion deeper than the pir's path stack (docs/path-prof.md, "When the stack overflows"): every
 * recursive call saves the caller's path sum on the stack, so a path profile of this program is
 * refused after the run (PATH_STACK.ERR), never presented with wrong counts. */
#include <stdio.h>

static volatile int g_bias = 1;

__attribute__((noinline)) static int depth(int n) {
  if (n == 0) return 0;
  const int below = depth(n - 1);
  return below + (below & 1) + g_bias; /* work after the call: no tail call */
}

int main(void) {
  volatile int n = 40;
  printf("deep_recursion: %d\n", depth(n));
  return 0;
}
