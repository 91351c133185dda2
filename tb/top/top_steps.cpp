// The directed scenarios of every block, in the order the bench runs them; see top_steps.h.
// Every rd(ADDR, VALUE, ...) step is an expectation: tb_top reads ADDR from the RTL and fails the
// run on another value (Checker::expect, "EXPECTATION FAILED ... step K"); make test runs these
// scenarios as lockstep-directed, the C model compared with the RTL on every cycle besides.
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
