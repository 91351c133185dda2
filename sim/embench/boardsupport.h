/* Board support of the simulated platform for the Embench-IoT programs (../shared/embench, used as
 * test input only): one run of each benchmark, no warm-up (the suite's README asks a board to
 * define these two). */
#ifndef HWPROF_EMBENCH_BOARDSUPPORT_H
#define HWPROF_EMBENCH_BOARDSUPPORT_H

#define GLOBAL_SCALE_FACTOR 1
#define WARMUP_HEAT 0

#endif /* HWPROF_EMBENCH_BOARDSUPPORT_H */
