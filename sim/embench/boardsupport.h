/* Board support of the simulated platform for the Embench-IoT programs (../shared/embench, used as
 * test input only): one run of each benchmark, no warm-up (the suite's README asks a board to
 * define these two). */
#ifndef HWPROF_EMBENCH_BOARDSUPPORT_H
#define HWPROF_EMBENCH_BOARDSUPPORT_H

#ifndef GLOBAL_SCALE_FACTOR /* -DGLOBAL_SCALE_FACTOR=N: N times as many repetitions (make bench section 9b) */
#define GLOBAL_SCALE_FACTOR 1
#endif
#define WARMUP_HEAT 0

#endif /* HWPROF_EMBENCH_BOARDSUPPORT_H */
