/* See runner_args.h. */
#include "runner_args.h"

#include <string.h>

int runner_arg_lacks_value(const char *usage, const char *arg) {
  const size_t n = strcspn(arg, "=");
  if (strncmp(arg, "--", 2) || n < 3 || (arg[n] == '=' && arg[n + 1])) return 0;
  for (const char *u = strstr(usage, " --"); u; u = strstr(u + 1, " --"))
    if (!strncmp(u + 1, arg, n) && u[1 + n] == '=') return (int)n;
  return 0;
}
