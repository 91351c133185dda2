/* What the two runners (hwprof-sim, hwprof-sc) share in reading their command lines. Host only. */
#ifndef HWPROF_SIM_RUNNER_ARGS_H
#define HWPROF_SIM_RUNNER_ARGS_H

/* arg is an option that usage shows as --NAME=VALUE (after a space), given as --NAME or --NAME=:
 * the length of --NAME, for the error that says it needs a value; else 0. */
int runner_arg_lacks_value(const char *usage, const char *arg);

#endif /* HWPROF_SIM_RUNNER_ARGS_H */
