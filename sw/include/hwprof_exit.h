/* The exit status of every hwprof tool (docs/tools.md, "Exit status"): one table for all of them.
 * The simulators exit with the simulated program's own exit code when nothing else went wrong, so
 * for them a status below 6 can also be the program's. Host only. */
#ifndef HWPROF_EXIT_H
#define HWPROF_EXIT_H

#define HWPROF_EXIT_OK 0        /* done (a simulator: the program exited 0) */
#define HWPROF_EXIT_BAD_FILE 1  /* an input file is malformed, truncated, inconsistent or unreadable, or an
                                   output file could not be written: one line names it */
#define HWPROF_EXIT_USAGE 2     /* a bad command line: one line names the argument */
#define HWPROF_EXIT_RAN_AWAY 3  /* a simulator: the program did not finish (--max-insns, a fatal trap) */
#define HWPROF_EXIT_DIFFERS 4   /* a check or comparison found a difference (or could not be made) */
#define HWPROF_EXIT_MISMATCH 5  /* hwprof-sc: the RTL and the C model differ */

#endif /* HWPROF_EXIT_H */
