/* Embench programs under a firmware runtime (sw/fw/rt/vp_rt.c, ss_rt.c): the runtime's main calls
 * workload_main(); the suite's main (support/main.c, built with -Dmain=embench_main) is this. */
int embench_main(int argc, char **argv);
int workload_main(void);
int workload_main(void) { return embench_main(0, 0); }
