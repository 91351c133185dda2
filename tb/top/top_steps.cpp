// The directed scenarios of every block, in the order the bench runs them; see top_steps.h.
#include "top/top_steps.h"

namespace hwprof_tb {

std::vector<Step> directed_steps() {
  std::vector<Step> s;
  pir_steps(&s);
  edge_steps(&s);
  trace_steps(&s);
  link_steps(&s);
  path_steps(&s);
  stack_march_steps(&s);
  cop_steps(&s);
  return s;
}

}  // namespace hwprof_tb
